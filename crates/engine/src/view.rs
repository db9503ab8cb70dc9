//! What the UI shows at step k, as a pure function of the first k events.
//!
//! * [`Snapshot`] is the fold: start from [`Snapshot::default`] and
//!   [`Snapshot::apply`] events in order. It holds the reached set grouped by
//!   location, the waitlist in order, every state's view and ARG links
//!   (merged and covered states marked), the current step in words, and the
//!   [`Statistics`]. A merge that replaced a reached state takes it out of
//!   the reached set at the merge event itself, where the step text says
//!   so (the `ReachedRemove` event after it changes nothing more).
//! * [`Cursor`] seeks to any position of a trace, forward and backward,
//!   replaying from checkpoints taken every `interval` events (as rustc's
//!   dataflow `ResultsCursor` does for basic blocks).
//! * [`Statistics`] counts events; it is the *only* place statistics come
//!   from, so they cannot disagree with the trace.
//! * CEGAR and the restart algorithm: an [`Event::Restart`] empties the
//!   reached set, the waitlist and the ARG (a new iteration's state ids start
//!   again at `s0`); the fold keeps the iteration number, where iterations
//!   begin (timeline segments), the latest counterexample check, the current
//!   precision (entries the latest refinement added marked) and the latest
//!   interpolants — still a pure function of the event prefix.
//!
//! Nothing here depends on the CPAs or on the web: the UI is built on it and
//! tested natively.

use crate::trace::{Event, InterpolantView, MergeKind, Origin, PrecisionEntry, RunInfo, StateId, StateView, Verdict};
use cfa::{EdgeId, NodeId};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

mod blocks;
pub use blocks::{BlockCall, BlockView, CacheEntryView, CacheRefinement};
/// How the explorer's equivalence check of a new state against a stored
/// one begins its SMT-LIB2 script.
pub const EQUIVALENCE_CHECK_COMMENT: &str = transform::term::EQUIVALENCE_CHECK;

/// Counters that fall out of the trace.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Statistics {
    /// Events seen.
    pub events: u64,
    /// Abstract states created (transfer successors, prec and merge results).
    pub created: u64,
    /// Successors computed by the transfer relation.
    pub successors: u64,
    /// Waitlist pops (the algorithm's steps).
    pub steps: u64,
    /// Transfers along an edge.
    pub transfers: u64,
    /// Transfers without a successor (infeasible edges).
    pub infeasible: u64,
    /// Merges computed with a non-sep operator.
    pub merges: u64,
    /// Merges whose result replaced the reached state.
    pub merges_replaced: u64,
    /// Stop checks.
    pub stops: u64,
    /// Stop checks that found the state covered.
    pub covered: u64,
    /// The current size of the reached set.
    pub reached: u64,
    /// The largest size the reached set had.
    pub max_reached: u64,
    /// The current size of the waitlist.
    pub waitlist: u64,
    /// Precision adjustments that changed something.
    pub precision_adjustments: u64,
    /// Solver queries.
    pub solver_queries: u64,
    /// The solver queries answered without a solver: from an equal
    /// earlier query, an earlier model or unsatisfiable query, or decided
    /// by the CPA ([`crate::solver::answered_without_solver`]).
    #[serde(default)]
    pub queries_without_solver: u64,
    /// Predicate analysis with memory: the retention disjuncts of the
    /// solver queries' formulas, summed over the queries (each query
    /// reports its own, see [`crate::cpas::predicate::memory`]) — the
    /// size a memory-region setting costs.
    #[serde(default)]
    pub retention_disjuncts: u64,
    /// CEGAR refinements.
    pub refinements: u64,
    /// Target states reached.
    pub targets: u64,
    /// Target states a precise check refuted (the search went on).
    pub targets_refuted: u64,
    /// Counterexample (feasibility) checks.
    pub counterexample_checks: u64,
    /// Restarts (new CEGAR iterations or restart-algorithm stages).
    pub restarts: u64,
    /// Predicate abstractions computed.
    pub abstractions: u64,
    /// Paths explored: branches of the search that ended — a transfer
    /// without a successor (infeasible or pruned), or a state popped
    /// without any transfer (the program's exit). For symbolic execution,
    /// the leaves of the symbolic-execution tree.
    #[serde(default)]
    pub paths_explored: u64,
    /// Symbolic execution with predicate abstraction: abstraction points.
    #[serde(default)]
    pub abstraction_points: u64,
    /// Symbolic execution: branches whose path condition became
    /// unsatisfiable.
    #[serde(default)]
    pub infeasible_branches: u64,
    /// Symbolic execution with predicate abstraction: paths pruned as not
    /// p-simple.
    #[serde(default)]
    pub pruned_not_simple: u64,
    /// Block-abstraction memoization: calls whose block summary was
    /// already in the cache.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cache_hits: u64,
    /// BAM: calls whose block had to be analysed (a new cache entry).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cache_misses: u64,
    /// BAM: block analyses started (nested reachability runs).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub blocks_entered: u64,
    /// BAM: cache entries dropped after refinements.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cache_invalidated: u64,
    /// BAM: cache entries kept across a refinement and re-created in the
    /// next iteration without analysing their block again.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cache_restored: u64,
    /// The explorer of a transformed program (term domain): solver checks
    /// whether a new state's values are among a stored state's (the
    /// equivalence checks of visited states).
    #[serde(default)]
    pub equivalence_checks: u64,
    /// Whether the latest pop has had no transfer yet (a path ends there
    /// if none follows).
    #[serde(skip)]
    open_pop: bool,
    /// BAM: the callers' reached-set and waitlist sizes while blocks are
    /// open (a block counts its own).
    #[serde(skip)]
    block_stack: Vec<(u64, u64)>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Statistics {
    /// Counts one event.
    pub fn observe(&mut self, e: &Event) {
        self.events += 1;
        match e {
            Event::StateCreated { .. } => self.created += 1,
            Event::WaitlistPush { .. } => self.waitlist += 1,
            Event::WaitlistPop { .. } => {
                if self.open_pop {
                    self.paths_explored += 1;
                }
                self.open_pop = true;
                self.steps += 1;
                self.waitlist = self.waitlist.saturating_sub(1);
            }
            Event::WaitlistRemove { .. } => self.waitlist = self.waitlist.saturating_sub(1),
            Event::Transfer { successors, .. } => {
                self.open_pop = false;
                self.transfers += 1;
                self.successors += successors.len() as u64;
                if successors.is_empty() {
                    self.infeasible += 1;
                    self.paths_explored += 1;
                }
            }
            Event::BranchPruned { reason, .. } => match reason {
                crate::trace::PruneReason::Infeasible => self.infeasible_branches += 1,
                crate::trace::PruneReason::NotSimple => self.pruned_not_simple += 1,
            },
            Event::AbstractionPoint { .. } => self.abstraction_points += 1,
            Event::PrecisionAdjusted { .. } => self.precision_adjustments += 1,
            Event::Merge { replaced, .. } => {
                self.merges += 1;
                if *replaced {
                    // The replaced state leaves the reached set with the
                    // merge (as the fold shows it); the `ReachedRemove`
                    // that follows is the same removal, not counted again.
                    self.merges_replaced += 1;
                    self.reached = self.reached.saturating_sub(1);
                }
            }
            Event::Stop { covered, .. } => {
                self.stops += 1;
                if *covered {
                    self.covered += 1;
                }
            }
            Event::ReachedAdd { .. } => {
                self.reached += 1;
                self.max_reached = self.max_reached.max(self.reached);
            }
            Event::TargetReached { .. } => self.targets += 1,
            Event::TargetRefuted { .. } => {
                self.targets_refuted += 1;
                self.reached = self.reached.saturating_sub(1);
                self.waitlist = self.waitlist.saturating_sub(1);
            }
            Event::SolverQuery { smtlib, .. } => {
                self.solver_queries += 1;
                if crate::solver::answered_without_solver(smtlib).is_some() {
                    self.queries_without_solver += 1;
                }
                self.retention_disjuncts += crate::cpas::predicate::memory::retention_in_script(smtlib);
                if smtlib.starts_with(EQUIVALENCE_CHECK_COMMENT) {
                    self.equivalence_checks += 1;
                }
            }
            Event::Abstraction { .. } => self.abstractions += 1,
            Event::Refinement { .. } => self.refinements += 1,
            Event::Counterexample { .. } => self.counterexample_checks += 1,
            Event::Restart { .. } => {
                // A restart empties the reached set and the waitlist.
                self.open_pop = false;
                self.restarts += 1;
                self.reached = 0;
                self.waitlist = 0;
                self.block_stack.clear();
            }
            Event::ArgPruned { removed, .. } => {
                // A restart from the pivot (the waitlist changes come as
                // their own events).
                self.restarts += 1;
                self.reached = self.reached.saturating_sub(removed.len() as u64);
            }
            Event::AnalysisFinished { .. } => {
                if std::mem::take(&mut self.open_pop) {
                    self.paths_explored += 1;
                }
            }
            Event::CacheHit { .. } => self.cache_hits += 1,
            Event::CacheMiss { .. } => self.cache_misses += 1,
            Event::BlockEntered { .. } => {
                self.blocks_entered += 1;
                self.block_stack.push((std::mem::take(&mut self.reached), std::mem::take(&mut self.waitlist)));
            }
            Event::BlockExited { .. } => {
                if let Some((r, w)) = self.block_stack.pop() {
                    self.reached = r;
                    self.waitlist = w;
                }
            }
            Event::CacheInvalidated { entries, .. } => self.cache_invalidated += u64::from(*entries),
            Event::CacheRestored { .. } => self.cache_restored += 1,
            Event::ReachedRemove { .. } | Event::AnalysisStarted { .. } | Event::BlockExpanded { .. } => {}
        }
    }

    /// The statistics of a whole trace.
    pub fn of(events: &[Event]) -> Statistics {
        let mut s = Statistics::default();
        for e in events {
            s.observe(e);
        }
        s
    }
}

/// Everything known about one state at some point of the trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateInfo {
    /// Its id.
    pub id: StateId,
    /// Its location.
    pub location: Option<NodeId>,
    /// Its call stack (call sites).
    pub callstack: Vec<NodeId>,
    /// Its ARG parents.
    pub origin: Origin,
    /// Its view (absent when the run did not record views).
    pub view: Option<Arc<StateView>>,
    /// In the reached set now.
    pub in_reached: bool,
    /// In the waitlist now.
    pub in_waitlist: bool,
    /// Popped from the waitlist at some point.
    pub popped: bool,
    /// Replaced by this merge result.
    pub replaced_by: Option<StateId>,
    /// Covered (stop said yes) by these reached states.
    pub covered_by: Vec<StateId>,
    /// A target state.
    pub target: bool,
    /// Removed from the reached set by a restart from the pivot.
    pub pruned: bool,
    /// A target state a precise check refuted (it left the reached set).
    pub refuted: bool,
    /// Symbolic execution with predicate abstraction: the transfer into
    /// this state abstracted the memory (see [`Event::AbstractionPoint`]).
    pub abstraction_point: bool,
}

/// The UI's model at one position of the trace: the fold of an event prefix.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Snapshot {
    /// How many events were applied.
    pub position: usize,
    /// The run's configuration summary (after the first event).
    pub info: Option<RunInfo>,
    /// All states created so far, indexed by id. Each is shared: cloning a
    /// snapshot (a checkpoint restored, a frame kept for the graph views)
    /// copies pointers, and applying an event copies only the states it
    /// changes (copy-on-write).
    pub states: Vec<Arc<StateInfo>>,
    /// The reached set grouped by location (in order of insertion).
    pub reached: BTreeMap<NodeId, Vec<StateId>>,
    /// The waitlist in pop order.
    pub waitlist: Vec<StateId>,
    /// The state popped by the current step.
    pub current_state: Option<StateId>,
    /// The edge of the current step's latest transfer.
    pub current_edge: Option<EdgeId>,
    /// The current step (since the last pop) in words, one line per action.
    pub current_step: Vec<String>,
    /// The counters.
    pub stats: Statistics,
    /// The verdict and reason once the run finished.
    pub finished: Option<(Verdict, String)>,
    /// For a TRUE under mathematical integers: the first reached operation
    /// whose C result could differ (also named at the end of the reason).
    pub int_model_caveat: Option<crate::int_caveat::IntModelCaveat>,
    /// The current CEGAR iteration / restart stage (1 after the start; each
    /// [`Event::Restart`] adds one).
    pub iteration: u32,
    /// Where each iteration began (event positions; the first is 0): the
    /// timeline's segments.
    pub iteration_starts: Vec<usize>,
    /// The latest counterexample check (path, verdict, inputs), if any.
    pub counterexample: Option<CounterexampleInfo>,
    /// The precision after the latest refinement (what is tracked where),
    /// with the entries the latest refinement added marked.
    pub precision: Vec<TrackedEntry>,
    /// The latest refinement's interpolants along the refuted path.
    pub interpolants: Vec<InterpolantView>,
    /// The path the latest refinement refuted.
    pub refuted_path: Vec<EdgeId>,
    /// Predicate analysis: the predicates after the latest refinement
    /// (and which it added).
    pub predicates: Vec<(crate::trace::PredicateEntry, bool)>,
    /// Predicate analysis: every abstraction computed in this iteration, by
    /// the abstraction state.
    pub abstractions: BTreeMap<StateId, crate::trace::AbstractionView>,
    /// Symbolic execution with predicate abstraction: every abstraction
    /// point of this iteration (eq and simple), by the abstraction state.
    pub abstraction_points: BTreeMap<StateId, crate::trace::AbstractionPointView>,
    /// Symbolic execution: every branch of this iteration that had no
    /// successor, with why (infeasible or not p-simple).
    pub pruned_branches: Vec<PrunedBranch>,
    /// Symbolic execution with predicate abstraction: the precision
    /// function p after the latest refinement, one row per abstraction
    /// location, with whether the refinement changed the row (empty before
    /// the first refinement: every loop head with the configured threshold
    /// and no predicates).
    pub precision_function: Vec<(crate::trace::PrecisionRow, bool)>,
    /// The state the latest step expanded (popped), for backtracking.
    pub last_expanded: Option<StateId>,
    /// The latest backtrack of the search: the popped state is not a child
    /// of the state expanded before it (derived from the pops, for every
    /// analysis; the step text leaves it out).
    pub backtrack: Option<Backtrack>,
    /// Block-abstraction memoization: the call tree of blocks, hits and
    /// misses, and the cache (empty without BAM).
    pub blocks: BlockView,
}

/// A branch of symbolic execution without a successor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrunedBranch {
    /// The state the transfer started from.
    pub from: StateId,
    /// The CFA edge.
    pub edge: EdgeId,
    /// The location the branch would have reached.
    pub location: NodeId,
    /// Infeasible or not p-simple.
    pub reason: crate::trace::PruneReason,
    /// In words.
    pub detail: String,
}

/// A backtrack of the depth-first search, derived from two consecutive
/// pops: `to` is popped, but its parent is not `from`, the state expanded
/// just before.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Backtrack {
    /// The state expanded by the previous step.
    pub from: StateId,
    /// The state popped now.
    pub to: StateId,
    /// `to`'s parent, where the search resumes (None for a root).
    pub parent: Option<StateId>,
}

/// The latest counterexample check, as the page shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CounterexampleInfo {
    /// The target state the path ends in.
    pub target: Option<StateId>,
    /// The path's CFA edges.
    pub path: Vec<EdgeId>,
    /// Feasible, infeasible or undecided.
    pub feasible: Option<bool>,
    /// Whether concrete replay reached the error location.
    pub confirmed: bool,
    /// The replayed inputs.
    pub inputs: Vec<String>,
    /// Which check decided.
    pub check: String,
    /// In words.
    pub description: String,
}

/// One tracked (location, variable) pair of the current precision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrackedEntry {
    /// The entry.
    pub entry: PrecisionEntry,
    /// Whether the latest refinement added it (highlight it).
    pub new: bool,
}

impl Snapshot {
    /// The fold of a whole event prefix.
    pub fn of(events: &[Event]) -> Snapshot {
        let mut s = Snapshot::default();
        for e in events {
            s.apply(e);
        }
        s
    }

    /// A state by id.
    pub fn state(&self, id: StateId) -> Option<&StateInfo> {
        self.states.get(id.0 as usize).map(|s| &**s)
    }

    fn st(&mut self, id: StateId) -> Option<&mut StateInfo> {
        self.states.get_mut(id.0 as usize).map(Arc::make_mut)
    }

    /// The number of states in the reached set.
    pub fn reached_len(&self) -> usize {
        self.reached.values().map(Vec::len).sum()
    }

    /// The current step as one line of text (actions separated by `; `).
    pub fn step_text(&self) -> String {
        self.current_step.join("; ")
    }

    fn loc(&self, id: StateId) -> String {
        match self.state(id).and_then(|s| s.location) {
            Some(l) => format!(" @{l}"),
            None => String::new(),
        }
    }

    /// Records a created state (ids are dense and increasing; gaps are
    /// filled with blank states defensively).
    fn put_state(&mut self, info: StateInfo) {
        let i = info.id.0 as usize;
        while self.states.len() < i {
            let id = StateId(self.states.len() as u32);
            self.states.push(Arc::new(blank_state(id)));
        }
        if i < self.states.len() {
            self.states[i] = Arc::new(info);
        } else {
            self.states.push(Arc::new(info));
        }
    }

    /// `id` leaves the reached set (replaced by a merge, or pruned).
    fn leave_reached(&mut self, id: StateId) {
        let loc = self.state(id).and_then(|s| s.location);
        if let Some(s) = self.st(id) {
            s.in_reached = false;
        }
        if let Some(l) = loc {
            if let Some(v) = self.reached.get_mut(&l) {
                v.retain(|s| *s != id);
                if v.is_empty() {
                    self.reached.remove(&l);
                }
            }
        }
    }

    /// `id` is replaced by the merge result `by`: it leaves the reached set
    /// (idempotent: the merge and the `ReachedRemove` after it both say so).
    fn replace(&mut self, id: StateId, by: StateId) {
        self.leave_reached(id);
        if let Some(s) = self.st(id) {
            s.replaced_by = Some(by);
        }
        // A replaced state that was still waiting leaves the waitlist now
        // too, so the waitlist panel agrees with the step text.
        if self.waitlist.contains(&id) {
            self.waitlist.retain(|s| *s != id);
            if let Some(s) = self.st(id) {
                s.in_waitlist = false;
            }
            self.stats.waitlist = self.stats.waitlist.saturating_sub(1);
        }
    }

    /// The check of an error path: the latest counterexample.
    fn counterexample_checked(&mut self, info: CounterexampleInfo) {
        let f = match info.feasible {
            Some(true) if info.confirmed => "feasible, confirmed by replay",
            Some(true) => "feasible",
            Some(false) => "infeasible",
            None => "undecided",
        };
        let target = info.target.map(|t| t.to_string()).unwrap_or_default();
        self.current_step.push(format!("counterexample to {target}: {f} ({})", info.description));
        self.counterexample = Some(info);
    }

    /// A new iteration: the reached set, the waitlist and the ARG start
    /// empty; state ids start again at s0. The precision, the latest
    /// counterexample and the statistics carry over.
    fn restart(&mut self) {
        self.states.clear();
        self.reached.clear();
        self.waitlist.clear();
        self.current_state = None;
        self.current_edge = None;
        self.finished = None;
        self.int_model_caveat = None;
        self.abstractions.clear();
        self.abstraction_points.clear();
        self.pruned_branches.clear();
        self.last_expanded = None;
        self.backtrack = None;
        self.blocks.restart();
        self.iteration += 1;
        self.iteration_starts.push(self.position - 1);
    }

    /// Applies one event (the fold's step function).
    pub fn apply(&mut self, e: &Event) {
        self.position += 1;
        self.stats.observe(e);
        match e {
            Event::AnalysisStarted { info } => {
                self.iteration = 1;
                self.iteration_starts = vec![self.position - 1];
                self.info = Some(info.clone());
                self.current_step = vec![format!("start: {} ({} order)", info.cpas.join(" × "), info.order)];
            }
            Event::StateCreated { state, location, callstack, origin, view } => {
                self.put_state(StateInfo {
                    location: *location,
                    callstack: callstack.clone(),
                    origin: origin.clone(),
                    view: view.clone().map(Arc::new),
                    ..blank_state(*state)
                });
                if matches!(origin, Origin::Initial) {
                    self.current_step.push(format!("create the initial state {state}{}", self.loc(*state)));
                }
            }
            Event::WaitlistPush { state, index } => {
                let i = (*index).min(self.waitlist.len());
                self.waitlist.insert(i, *state);
                if let Some(s) = self.st(*state) {
                    s.in_waitlist = true;
                }
            }
            Event::WaitlistPop { state, step } => {
                let parent = match self.state(*state).map(|s| &s.origin) {
                    Some(Origin::Transfer { parent, .. }) => Some(*parent),
                    Some(Origin::Precision { of }) => Some(*of),
                    _ => None,
                };
                let last = self.last_expanded.replace(*state);
                self.backtrack = match last {
                    Some(from) if parent != Some(from) => Some(Backtrack { from, to: *state, parent }),
                    _ => None,
                };
                self.waitlist.retain(|s| s != state);
                if let Some(s) = self.st(*state) {
                    s.in_waitlist = false;
                    s.popped = true;
                }
                self.current_state = Some(*state);
                self.current_edge = None;
                self.current_step = vec![format!("step {step}: pop {state}{}", self.loc(*state))];
            }
            Event::WaitlistRemove { state } => {
                let was_waiting = self.waitlist.contains(state);
                self.waitlist.retain(|s| s != state);
                if !was_waiting {
                    // The merge that replaced it removed and counted it
                    // already (see `replace`): the count stays what the
                    // list shows.
                    self.stats.waitlist = self.waitlist.len() as u64;
                }
                if let Some(s) = self.st(*state) {
                    s.in_waitlist = false;
                }
            }
            Event::Transfer { from: _, edge, source, target, label, successors } => {
                self.current_edge = Some(*edge);
                let succ = if successors.is_empty() {
                    "no successor (infeasible)".to_string()
                } else {
                    successors.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(", ")
                };
                self.current_step.push(format!("transfer along {source}→{target} `{label}` → {succ}"));
            }
            Event::PrecisionAdjusted { state, result, precision } => {
                self.current_step.push(format!("prec: {state} → {result} (precision {precision})"));
            }
            Event::Merge { operator, new, reached, result, replaced } => {
                let op = operator.name();
                if *replaced {
                    self.current_step.push(format!("merge {new} with {reached}: {op} → {result} replaces {reached}"));
                    // Replaced now, as the text says (not one event later,
                    // at the `ReachedRemove` that repeats it).
                    self.replace(*reached, *result);
                } else {
                    self.current_step.push(format!("merge {new} with {reached}: {op} → {reached} unchanged"));
                }
                debug_assert!(*operator != MergeKind::Sep || !*replaced);
            }
            Event::Stop { state, covered, covered_by, decided_by, .. } => {
                if *covered {
                    let by = covered_by.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(", ");
                    let how = decided_by.as_ref().map(|d| format!(" ({d})")).unwrap_or_default();
                    self.current_step.push(format!("stop: {state} covered by {by}{how}"));
                    let by = covered_by.clone();
                    if let Some(s) = self.st(*state) {
                        s.covered_by = by;
                    }
                } else {
                    self.current_step.push(format!("stop: {state} not covered"));
                }
            }
            Event::ReachedAdd { state } => {
                if let Some(s) = self.st(*state) {
                    s.in_reached = true;
                }
                if let Some(l) = self.state(*state).and_then(|s| s.location) {
                    self.reached.entry(l).or_default().push(*state);
                }
                self.current_step.push(format!("add {state}"));
            }
            Event::ReachedRemove { state, replaced_by } => self.replace(*state, *replaced_by),
            Event::TargetReached { state, location } => {
                if let Some(s) = self.st(*state) {
                    s.target = true;
                }
                self.current_step.push(format!("target reached: {state} @{location}"));
            }
            Event::TargetRefuted { state, reason } => {
                self.leave_reached(*state);
                self.waitlist.retain(|s| s != state);
                if let Some(s) = self.st(*state) {
                    s.in_waitlist = false;
                    s.refuted = true;
                }
                self.finished = None;
                self.current_step.push(format!("target {state} refuted ({reason}); the search goes on"));
            }
            Event::SolverQuery { id, answer, smtlib } => {
                self.current_step.push(match crate::solver::answered_without_solver(smtlib) {
                    Some(why) => format!("solver query #{id}: {answer} without the solver ({why})"),
                    None => format!("solver query #{id}: {answer}"),
                })
            }
            Event::Counterexample { target, feasible, description, path, check, inputs, confirmed } => {
                let info = CounterexampleInfo {
                    target: Some(*target),
                    path: path.clone(),
                    feasible: *feasible,
                    confirmed: *confirmed,
                    inputs: inputs.clone(),
                    check: check.clone(),
                    description: description.clone(),
                };
                self.counterexample_checked(info);
            }
            Event::Abstraction { state, abstraction } => {
                self.current_step.push(format!(
                    "{} abstraction at {} for {state}: {} ({} quer{})",
                    abstraction.kind,
                    abstraction.location,
                    abstraction.result,
                    abstraction.queries,
                    if abstraction.queries == 1 { "y" } else { "ies" }
                ));
                self.abstractions.insert(*state, abstraction.clone());
            }
            Event::AbstractionPoint { state, point } => {
                let eq = if point.eq.is_empty() { "true".to_string() } else { point.eq.join(" && ") };
                let simple = if point.simple.is_empty() { "true".to_string() } else { point.simple.join(" && ") };
                self.current_step.push(format!("abstraction point {state} at {}: eq: {eq}; simple: {simple}", point.location));
                if let Some(s) = self.st(*state) {
                    s.abstraction_point = true;
                }
                self.abstraction_points.insert(*state, point.clone());
            }
            Event::BranchPruned { from, edge, location, reason, detail } => {
                self.current_step.push(format!("branch {from} → {location} {}: {detail}", reason.describe()));
                self.pruned_branches.push(PrunedBranch {
                    from: *from,
                    edge: *edge,
                    location: *location,
                    reason: *reason,
                    detail: detail.clone(),
                });
            }
            Event::Refinement {
                precision,
                tracked,
                added,
                interpolants,
                path,
                predicates,
                predicates_added,
                thresholds_raised,
                precision_function,
                ..
            } => {
                self.current_step.push(format!("refinement: new precision {precision}"));
                if !precision_function.is_empty() {
                    let changed = |row: &crate::trace::PrecisionRow| {
                        thresholds_raised.iter().any(|t| t.location == row.location)
                            || predicates_added.iter().any(|p| p.location == Some(row.location))
                    };
                    self.precision_function = precision_function.iter().map(|r| (r.clone(), changed(r))).collect();
                }
                self.predicates = predicates.iter().map(|e| (e.clone(), predicates_added.contains(e))).collect();
                self.precision = tracked.iter().map(|e| TrackedEntry { entry: e.clone(), new: added.contains(e) }).collect();
                self.interpolants = interpolants.clone();
                self.refuted_path = path.clone();
            }
            Event::ArgPruned { pivot, removed, readded } => {
                for id in removed {
                    self.leave_reached(*id);
                    if let Some(s) = self.st(*id) {
                        s.pruned = true;
                    }
                }
                self.iteration += 1;
                self.iteration_starts.push(self.position - 1);
                self.finished = None;
                let back = readded.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(", ");
                self.current_step.push(format!(
                    "restart from the pivot {pivot}: {} reached states below it removed; {back} back on the waitlist",
                    removed.len()
                ));
            }
            Event::Restart { configuration, .. } => {
                self.restart();
                self.current_step = vec![format!("restart with {configuration}")];
            }
            Event::CacheMiss { .. }
            | Event::CacheHit { .. }
            | Event::BlockEntered { .. }
            | Event::BlockExited { .. }
            | Event::BlockExpanded { .. }
            | Event::CacheInvalidated { .. }
            | Event::CacheRestored { .. } => {
                self.blocks.apply(e, &mut self.reached, &mut self.waitlist);
                self.current_step.push(describe_event(e));
            }
            Event::AnalysisFinished { verdict, reason, int_model_caveat } => {
                self.finished = Some((*verdict, reason.clone()));
                self.int_model_caveat = int_model_caveat.clone();
                self.current_step.push(format!("finished: {} — {reason}", verdict.upper()));
            }
        }
    }
}

/// A state not yet created: no location, no view, in no set.
fn blank_state(id: StateId) -> StateInfo {
    StateInfo {
        id,
        location: None,
        callstack: vec![],
        origin: Origin::Initial,
        view: None,
        in_reached: false,
        in_waitlist: false,
        popped: false,
        replaced_by: None,
        covered_by: vec![],
        target: false,
        pruned: false,
        refuted: false,
        abstraction_point: false,
    }
}

/// A seekable position in a trace: [`Cursor::seek`] to any event index,
/// forward or backward, in time proportional to the checkpoint interval.
#[derive(Clone, Debug)]
pub struct Cursor {
    events: Vec<Event>,
    interval: usize,
    /// `checkpoints[i]` is the snapshot after `i * interval` events.
    checkpoints: Vec<Snapshot>,
    current: Snapshot,
}

impl Cursor {
    /// The default distance between checkpoints.
    pub const DEFAULT_INTERVAL: usize = 64;

    /// A cursor at position 0 of `events`, with checkpoints every
    /// [`Self::DEFAULT_INTERVAL`] events — or sparser for long traces, so at
    /// most about 512 checkpoints (snapshots) are ever kept.
    pub fn new(events: Vec<Event>) -> Self {
        let interval = Self::DEFAULT_INTERVAL.max(events.len() / 512);
        Self::with_interval(events, interval)
    }

    /// A cursor with checkpoints every `interval` events (at least 1).
    pub fn with_interval(events: Vec<Event>, interval: usize) -> Self {
        Cursor { events, interval: interval.max(1), checkpoints: vec![Snapshot::default()], current: Snapshot::default() }
    }

    /// Appends events (e.g. as a live run produces them).
    pub fn extend(&mut self, events: impl IntoIterator<Item = Event>) {
        self.events.extend(events);
    }

    /// The trace.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The number of events (the last seekable position).
    pub fn len(&self) -> usize {
        self.events.len()
    }

    /// Whether the trace is empty.
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// The current position (events applied).
    pub fn position(&self) -> usize {
        self.current.position
    }

    /// The snapshot at the current position.
    pub fn snapshot(&self) -> &Snapshot {
        &self.current
    }

    fn forward_to(&mut self, k: usize) {
        while self.current.position < k {
            let i = self.current.position;
            self.current.apply(&self.events[i]);
            let p = self.current.position;
            #[allow(clippy::manual_is_multiple_of)] // keeps rust-version 1.85
            if p % self.interval == 0 && p / self.interval == self.checkpoints.len() {
                self.checkpoints.push(self.current.clone());
            }
        }
    }

    /// Moves to the state after the first `k` events (clamped to the
    /// trace's length) and returns it.
    pub fn seek(&mut self, k: usize) -> &Snapshot {
        let k = k.min(self.events.len());
        let here = self.current.position;
        if k < here || k - here > self.interval {
            // Restart from the last checkpoint at or before k (when it is
            // closer than where we are).
            let c = (k / self.interval).min(self.checkpoints.len() - 1);
            let cp = c * self.interval;
            if k < here || cp > here {
                self.current = self.checkpoints[c].clone();
            }
        }
        self.forward_to(k);
        &self.current
    }

    /// The position just after the next event satisfying `pred` (from the
    /// current position), e.g. the next merge that replaced a state; `None`
    /// when there is none.
    pub fn find_next(&self, pred: impl Fn(&Event) -> bool) -> Option<usize> {
        self.events[self.current.position..].iter().position(pred).map(|i| self.current.position + i + 1)
    }
}

/// The algorithm's steps in a trace, shared by every view that steps by
/// whole steps (the analysis pane, the compare view, and the numbering of
/// the `next-step` exercises): step `k` (1-based) is the `k`-th
/// [`Event::WaitlistPop`] and every event up to the next pop. "At step `k`"
/// means after step `k` entirely, just before step `k + 1` pops; step 0 is
/// what comes before the first pop (the start and the initial state).
pub mod steps {
    use crate::trace::Event;

    /// The event positions at which each step begins (the index of its
    /// `WaitlistPop`), in step order.
    pub fn step_starts(events: &[Event]) -> Vec<usize> {
        events.iter().enumerate().filter(|(_, e)| is_pop(e)).map(|(i, _)| i).collect()
    }

    /// Whether `e` begins an algorithm step.
    pub fn is_pop(e: &Event) -> bool {
        matches!(e, Event::WaitlistPop { .. })
    }

    /// The position that shows step `k` whole: after the first `k` steps,
    /// just before step `k + 1` pops (the whole trace once `k` is past its
    /// last step).
    pub fn step_position(starts: &[usize], total: usize, k: usize) -> usize {
        starts.get(k).copied().unwrap_or(total)
    }

    /// The step that event position `pos` is in (the number of pops among
    /// the first `pos` events).
    pub fn step_of_position(starts: &[usize], pos: usize) -> usize {
        starts.iter().take_while(|&&s| s < pos).count()
    }

    /// Where one step forward from `pos` is: the end of the step `pos` is
    /// in (just before the next pop), or the trace's end.
    pub fn next_step_boundary(events: &[Event], pos: usize) -> usize {
        let n = events.len();
        (pos.saturating_add(1)..n).find(|&i| is_pop(&events[i])).unwrap_or(n)
    }

    /// Where one step back from `pos` is: the end of the step before the
    /// one `pos` is in (just before the pop of the step `pos` shows), or 0.
    pub fn previous_step_boundary(events: &[Event], pos: usize) -> usize {
        (0..pos.min(events.len())).rev().find(|&i| is_pop(&events[i])).unwrap_or(0)
    }

    /// The step number the trace itself gives the latest pop among the
    /// first `pos` events (CEGAR numbers each iteration's steps from 1).
    pub fn step_number_at(events: &[Event], pos: usize) -> Option<u64> {
        events[..pos.min(events.len())].iter().rev().find_map(|e| match e {
            Event::WaitlistPop { step, .. } => Some(*step),
            _ => None,
        })
    }
}

/// One event in words, as a student reads it while stepping event by event
/// (every kind of event, including those the step text leaves out: a state
/// created, a waitlist push, a state leaving the reached set).
pub fn describe_event(e: &Event) -> String {
    let ids = |v: &[StateId]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(", ");
    let at = |l: &Option<NodeId>| l.map(|l| format!(" @{l}")).unwrap_or_default();
    match e {
        Event::AnalysisStarted { info } => {
            format!("the analysis starts: CPA {} with the {} waitlist", info.cpas.join(" × "), info.order)
        }
        Event::StateCreated { state, location, origin, .. } => {
            let how = match origin {
                Origin::Initial => "the initial state".to_string(),
                Origin::Transfer { parent, .. } => format!("a successor of {parent} (transfer)"),
                Origin::Precision { of } => format!("the precision adjustment of {of}"),
                Origin::Merge { new, reached } => format!("the merge of {new} into {reached}"),
            };
            format!("state {state}{} created: {how}", at(location))
        }
        Event::WaitlistPush { state, index } => {
            if *index == 0 {
                format!("{state} joins the waitlist and is popped next")
            } else {
                format!("{state} joins the waitlist at place {} of the pop order", index + 1)
            }
        }
        Event::WaitlistPop { state, step } => format!("step {step} begins: {state} is popped from the waitlist"),
        Event::WaitlistRemove { state } => format!("{state} leaves the waitlist (a merge replaced it)"),
        Event::Transfer { from, source, target, label, successors, .. } => {
            if successors.is_empty() {
                format!("transfer from {from} along {source}→{target} `{label}`: no successor (the edge is infeasible)")
            } else {
                format!("transfer from {from} along {source}→{target} `{label}` gives {}", ids(successors))
            }
        }
        Event::PrecisionAdjusted { state, result, precision } => {
            format!("precision adjustment: {state} becomes {result} (precision {precision})")
        }
        Event::Merge { operator, new, reached, result, replaced } => {
            let op = operator.name();
            if *replaced {
                format!("merge ({op}) of {new} into {reached} gives {result}, which replaces {reached}")
            } else {
                format!("merge ({op}) of {new} into {reached} leaves {reached} unchanged")
            }
        }
        Event::Stop { state, covered, covered_by, decided_by, .. } => {
            if *covered {
                let how = decided_by.as_ref().map(|d| format!(" (decided by {d})")).unwrap_or_default();
                format!("stop: {state} is covered by {}{how} and is not added", ids(covered_by))
            } else {
                format!("stop: {state} is not covered, so it is added")
            }
        }
        Event::ReachedAdd { state } => format!("{state} is added to the reached set"),
        Event::ReachedRemove { state, replaced_by } => {
            format!("{state} leaves the reached set, replaced by {replaced_by}")
        }
        Event::TargetRefuted { state, reason } => {
            format!("the target {state} is refuted and dropped; the search goes on ({reason})")
        }
        Event::TargetReached { state, location } => {
            format!("{state} is a target state: the error location {location} is reached")
        }
        Event::SolverQuery { id, answer, smtlib } => match crate::solver::answered_without_solver(smtlib) {
            Some(why) => format!("solver query #{id} answered {answer} without the solver: {why}"),
            None => format!("solver query #{id} answered {answer}"),
        },
        Event::Counterexample { target, feasible, description, .. } => {
            let f = match feasible {
                Some(true) => "feasible",
                Some(false) => "infeasible",
                None => "undecided",
            };
            format!("the error path to {target} is checked: {f} ({description})")
        }
        Event::Abstraction { state, abstraction } => format!(
            "{state} is an abstraction state: the {} abstraction at {} over {} predicate{} is {} ({} solver quer{})",
            abstraction.kind,
            abstraction.location,
            abstraction.predicates.len(),
            if abstraction.predicates.len() == 1 { "" } else { "s" },
            abstraction.result,
            abstraction.queries,
            if abstraction.queries == 1 { "y" } else { "ies" }
        ),
        Event::AbstractionPoint { state, point } => {
            let eq = if point.eq.is_empty() { "true".to_string() } else { point.eq.join(" && ") };
            let simple = if point.simple.is_empty() { "true".to_string() } else { point.simple.join(" && ") };
            format!(
                "{state} is an abstraction point at {} (visited {} time{} before, threshold {}): fresh values for every variable; the path condition gets eq: {eq} and simple: {simple}",
                point.location,
                point.visits,
                if point.visits == 1 { "" } else { "s" },
                point.threshold
            )
        }
        Event::BranchPruned { from, location, reason, detail, .. } => match reason {
            crate::trace::PruneReason::Infeasible => {
                format!("the branch from {from} to {location} is infeasible: {detail}")
            }
            crate::trace::PruneReason::NotSimple => {
                format!("the path from {from} to {location} is pruned as not p-simple: {detail}")
            }
        },
        Event::Refinement { precision, thresholds_raised, .. } if !thresholds_raised.is_empty() => {
            let raised: Vec<String> = thresholds_raised.iter().map(|r| format!("{} to {}", r.location, r.threshold)).collect();
            format!(
                "refinement: no new predicate, so the thresholds are raised ({}); the new precision is {precision}",
                raised.join(", ")
            )
        }
        Event::Refinement { precision, from_path_invariants, .. } if !from_path_invariants.is_empty() => {
            let found: Vec<String> = from_path_invariants.iter().map(|e| format!("{} {}", e.predicate, e.scope)).collect();
            format!(
                "refinement: the new precision is {precision} ({} from path invariants of the path program: {})",
                found.len(),
                found.join(", ")
            )
        }
        Event::Refinement { precision, .. } => format!("refinement: the new precision is {precision}"),
        Event::Restart { configuration, iteration } => {
            format!("restart: iteration {iteration} begins with an empty reached set ({configuration})")
        }
        Event::ArgPruned { pivot, removed, readded } => format!(
            "restart from the pivot {pivot}: {} reached states below it removed; {} back on the waitlist",
            removed.len(),
            ids(readded)
        ),
        Event::CacheMiss { block, from, entry, .. } => format!(
            "cache miss: the call of {block} from {from}, reduced to what {block} can see, is not in the BAM cache — entry #{entry} is made and the block analysed"
        ),
        Event::BlockEntered { block, state, depth, entry, .. } => format!(
            "block {block} entered (depth {depth}, cache entry #{entry}): its own reachability analysis starts from the reduced entry state {state}"
        ),
        Event::BlockExited { block, exits, entry, .. } => format!(
            "block {block} done: its waitlist is empty; the exit states {} are stored in cache entry #{entry}",
            if exits.is_empty() { "(none: the function never returns here)".to_string() } else { ids(exits) }
        ),
        Event::CacheHit { block, from, entry, .. } => format!(
            "cache hit: the call of {block} from {from} has the same reduced entry state and precision as cache entry #{entry} — its summary is reused, {block} is not analysed again"
        ),
        Event::BlockExpanded { block, exits, successors, .. } => format!(
            "the exit states {} of {block} are expanded into the caller's context (the caller's variables restored): {}",
            ids(exits),
            ids(successors)
        ),
        Event::CacheInvalidated { blocks, entries, kept } => format!(
            "BAM cache for the next iteration: {entries} entr{} dropped — the refinement changed the reduced precision of {} — and {kept} kept",
            if *entries == 1 { "y" } else { "ies" },
            if blocks.is_empty() { "no block".to_string() } else { blocks.join(", ") }
        ),
        Event::CacheRestored { block, entry, initial, exits, states } => format!(
            "cache entry #{entry} of {block} was kept from the previous iteration (its reduced precision is unchanged): its {states} states are re-created from {initial} on without any transfer or solver query; summary {}",
            if exits.is_empty() { "(no exit states)".to_string() } else { ids(exits) }
        ),
        Event::AnalysisFinished { verdict, reason, .. } => format!("the analysis ends: {} — {reason}", verdict.upper()),
    }
}

#[cfg(test)]
mod step_tests {
    use super::steps::*;
    use super::*;

    fn pop(s: u32, step: u64) -> Event {
        Event::WaitlistPop { state: StateId(s), step }
    }

    fn created(s: u32) -> Event {
        Event::StateCreated { state: StateId(s), location: None, callstack: vec![], origin: Origin::Initial, view: None }
    }

    /// Three steps: pops at 1, 3 and 4 (with CEGAR's numbering restarting at 4).
    fn trace() -> Vec<Event> {
        vec![created(0), pop(0, 1), created(1), pop(1, 2), pop(1, 1), Event::ReachedAdd { state: StateId(1) }]
    }

    #[test]
    fn steps_run_from_a_pop_to_the_next_and_step_k_is_shown_whole() {
        let ev = trace();
        let starts = step_starts(&ev);
        assert_eq!(starts, [1, 3, 4]);
        assert_eq!(step_position(&starts, ev.len(), 0), 1, "step 0: before the first pop");
        assert_eq!(step_position(&starts, ev.len(), 1), 3);
        assert_eq!(step_position(&starts, ev.len(), 3), ev.len(), "the last step ends with the trace");
        assert_eq!(step_of_position(&starts, 2), 1);
        assert_eq!(step_of_position(&starts, 3), 1, "at the end of step 1");
        assert_eq!(step_of_position(&starts, 4), 2);
        // Forward: to the end of the step the position is in.
        let forward: Vec<usize> = (0..=ev.len()).map(|p| next_step_boundary(&ev, p)).collect();
        assert_eq!(forward, [1, 3, 3, 4, 6, 6, 6]);
        // Back: to the end of the step before.
        let back: Vec<usize> = (0..=ev.len()).map(|p| previous_step_boundary(&ev, p)).collect();
        assert_eq!(back, [0, 0, 1, 1, 3, 4, 4]);
        assert_eq!(step_number_at(&ev, 1), None);
        assert_eq!(step_number_at(&ev, 5), Some(1), "the trace's own number restarts");
    }

    #[test]
    fn every_event_is_described() {
        let ev = trace();
        for e in &ev {
            assert!(!describe_event(e).is_empty());
        }
        assert_eq!(describe_event(&ev[0]), "state s0 created: the initial state");
        assert_eq!(
            describe_event(&Event::WaitlistPush { state: StateId(3), index: 0 }),
            "s3 joins the waitlist and is popped next"
        );
    }
}
