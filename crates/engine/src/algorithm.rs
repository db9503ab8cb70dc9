//! The CPA+ reachability algorithm with dynamic precision adjustment, as a
//! steppable state machine.
//!
//! The paper's pseudo-code (Beyer, Henzinger, Théoduloz 2008):
//!
//! ```text
//! while waitlist ≠ ∅:
//!     pop (e, π) from waitlist
//!     for each e' with e ⇝ e' (under π):                 -- transfer
//!         (ê, π̂) := prec(e', π, reached)                  -- precision adjustment
//!         for each (e'', π'') ∈ reached:                  -- merge
//!             e_new := merge(ê, e'', π̂)
//!             if e_new ≠ e'':
//!                 waitlist := (waitlist ∪ {(e_new, π̂)}) \ {(e'', π'')}
//!                 reached  := (reached  ∪ {(e_new, π̂)}) \ {(e'', π'')}
//!         if ¬stop(ê, {e | (e, ·) ∈ reached}, π̂):         -- stop
//!             waitlist := waitlist ∪ {(ê, π̂)}
//!             reached  := reached  ∪ {(ê, π̂)}
//! return reached
//! ```
//!
//! Here, as in CPAchecker, the reached set is partitioned by location (merge
//! and stop only look at the reached states at the successor's location),
//! and the algorithm stops at the first target state (verdict FALSE).
//!
//! # Stepping
//!
//! [`Reachability`] holds the loop's variables explicitly ([`Phase`]), never
//! in closures or on the call stack, so the caller may advance it one event
//! at a time ([`Stepper::next_event`]), one waitlist pop at a time
//! ([`Stepper::step`]) or to the end ([`Stepper::run`]). Each call
//! of the internal `advance` performs one action of the pseudo-code (start,
//! pop, the transfer along one edge, or the prec/merge/stop handling of one
//! successor) and queues the events it produced.
//!
//! # Parking on a solver query
//!
//! A CPA that needs an SMT answer (the Constraints CPA) asks the run's
//! [`SolverOracle`] (see [`crate::solver`]); an answer not yet known makes
//! the query *pending*. After each transfer (the `Phase::Edges` action) the
//! machine takes the pending query, throws the transfer's result away
//! (nothing was emitted for it) and parks in
//! [`Phase::AwaitSolver`]`{ popped, edges, next, query }`. While parked,
//! [`Stepper::next_event`] returns `None` and
//! [`Stepper::pending_query`] the SMT-LIB2 script; the driver runs it
//! on a solver and hands the output text to [`Stepper::answer_query`],
//! which caches the answer, emits one [`Event::SolverQuery`] and resumes
//! with the *same* edge — whose transfer now finds the answer. In the page,
//! `z3-solver` answers asynchronously between two calls; natively a
//! [`SolverBackend`] attached with [`Reachability::set_solver`] (which
//! [`crate::build_analysis`] does with a persistent `z3` process) answers
//! inside `next_event`, so `run`, `run_with` and `step` never stop early;
//! [`Reachability::run_with_solver`] drives a run with an explicit back end.
//!
//! # Termination
//!
//! The loop terminates when the domain has no infinite ascending chains
//! under the chosen merge/stop (or widening makes them finite); otherwise
//! the limits `limits.steps` (waitlist pops) and `limits.states` (reached
//! states) end it with UNKNOWN naming the limit.

mod bam;
pub use bam::{BamCarry, BlockReached, CarryOutcome};

use crate::cpa::Cpa;
use crate::int_caveat::{self as int_caveat, IntModelCaveat, Range};
use crate::reached::{IndexKey, ReachedSet};
use crate::solver::{SolverOracle, SolverQuery};
use crate::stepper::Stepper;
use crate::trace::{Event, MergeKind, Origin, RunInfo, StateId, StopKind, Verdict};
use crate::waitlist::{reverse_postorder, TraversalOrder, Waitlist};
use cfa::{EdgeId, NodeId, Program, VarId};
use minic::IntModel;
use smt::SolverBackend;
use std::collections::VecDeque;
use std::sync::Arc;

/// How the algorithm runs (waitlist order, limits, what to record).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AlgorithmOptions {
    /// `analysis.traversal.order`.
    pub order: TraversalOrder,
    /// `analysis.traversal.useReversePostorder`.
    pub reverse_postorder: bool,
    /// `limits.steps`: the most waitlist pops (`None`: unlimited).
    pub max_steps: Option<u64>,
    /// `limits.states`: the largest reached set (`None`: unlimited).
    pub max_states: Option<usize>,
    /// Whether [`Event::StateCreated`] carries the state's view (off for
    /// batch runs that only need statistics).
    pub record_views: bool,
    /// Whether stop^sep uses the coverage index (see [`Cpa::index_shape`]);
    /// it never changes the outcome or the trace, only the speed.
    pub coverage_index: bool,
    /// `cpa.bam`: block-abstraction memoization (see the `bam` module:
    /// blocks are analysed once per reduced entry state and their
    /// summaries reused).
    pub bam: bool,
    /// `cpa.bam.blockHeuristic`: which blocks BAM makes (function bodies,
    /// loops, or both).
    pub bam_blocks: crate::block::BlockHeuristic,
}

impl Default for AlgorithmOptions {
    fn default() -> Self {
        AlgorithmOptions {
            order: TraversalOrder::Dfs,
            reverse_postorder: false,
            max_steps: None,
            max_states: None,
            record_views: true,
            coverage_index: true,
            bam: false,
            bam_blocks: crate::block::BlockHeuristic::Functions,
        }
    }
}

/// One state the algorithm created: the abstract state, its precision, its
/// location and how it came to be (the ARG).
#[derive(Clone, Debug)]
pub struct StateRecord<S, P> {
    /// The abstract state.
    pub state: S,
    /// Its precision π.
    pub precision: Arc<P>,
    /// Its location (the reached-set partition it belongs to).
    pub location: Option<NodeId>,
    /// Its ARG parents.
    pub origin: Origin,
}

/// Where the main loop is (its explicit program counter).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Nothing done yet: next, create e₀ and put it in waitlist and reached.
    Start,
    /// At the loop head: next, pop from the waitlist (or finish).
    Pop,
    /// Computing the successors of `popped` along its outgoing `edges`;
    /// `next` is the edge to do next.
    Edges {
        /// The popped state.
        popped: StateId,
        /// Its location's outgoing edges.
        edges: Vec<EdgeId>,
        /// The index of the edge to do next.
        next: usize,
    },
    /// Handling (prec, merge, stop) the successors `succs` of `popped` along
    /// `edges[edge]`; `k` is the successor to handle next.
    Successors {
        /// The popped state.
        popped: StateId,
        /// Its location's outgoing edges.
        edges: Vec<EdgeId>,
        /// The index of the edge whose successors these are.
        edge: usize,
        /// The successors along that edge.
        succs: Vec<StateId>,
        /// The index of the successor to handle next.
        k: usize,
    },
    /// Parked on a solver query raised by the transfer of `popped` along
    /// `edges[next]`: once [`Stepper::answer_query`] gives the answer,
    /// the machine goes back to `Edges { popped, edges, next }` and redoes
    /// that transfer.
    AwaitSolver {
        /// The popped state.
        popped: StateId,
        /// Its location's outgoing edges.
        edges: Vec<EdgeId>,
        /// The index of the edge whose transfer needs the answer.
        next: usize,
        /// The query (SMT-LIB2 text).
        query: SolverQuery,
    },
    /// The run is over.
    Done,
}

/// The CPA+ reachability algorithm over the CPA `C`, as a steppable object.
pub struct Reachability<C: Cpa> {
    cpa: C,
    program: Arc<Program>,
    options: AlgorithmOptions,
    info: RunInfo,
    states: Vec<StateRecord<C::State, C::Precision>>,
    /// The reached set, partitioned by location.
    reached: ReachedSet,
    waitlist: Waitlist,
    phase: Phase,
    pending: VecDeque<Event>,
    steps: u64,
    outcome: Option<(Verdict, String)>,
    target: Option<StateId>,
    /// The CPA's solver oracle (answers cache, pending query).
    oracle: Option<Arc<SolverOracle>>,
    /// Answers parked queries synchronously when attached (native runs).
    solver: Option<Box<dyn SolverBackend + Send>>,
    /// Queries answered so far (the next query's id).
    queries: u32,
    /// Whether `step` returned in the middle of a pop (parked).
    mid_step: bool,
    /// Time spent in the attached back end, per query (native only).
    solver_times: Vec<std::time::Duration>,
    /// When the run must stop ([`Reachability::set_deadline`]): no query
    /// of the attached back end may outlast it (native only).
    #[cfg(not(target_arch = "wasm32"))]
    deadline: Option<std::time::Instant>,
    /// How many queries a lent back end answers per transfer before the
    /// transfer parks ([`Reachability::set_lend_queries`]).
    lend_queries: u32,
    /// Where the main loop goes on should the target state that ended the
    /// run be refuted (see [`Reachability::refute_target`]).
    resume: Option<Phase>,
    /// The state whose transfer failed and the edge it failed on, when a
    /// [`crate::cpa::TransferError`] ended the run.
    failed_transfer: Option<(StateId, EdgeId)>,
    /// Block-abstraction memoization: the cache and the open blocks.
    bam: Option<bam::Bam<C::State>>,
}

impl<C: Cpa> Reachability<C> {
    /// A fresh run of `cpa` on `program` (starting at `main`'s entry).
    /// `info` is recorded in the first event; its `order` is filled in here.
    pub fn new(cpa: C, program: Arc<Program>, options: AlgorithmOptions, mut info: RunInfo) -> Self {
        let rpo = options.reverse_postorder.then(|| reverse_postorder(&program));
        let bam = options.bam.then(|| bam::Bam::new(rpo.clone(), options.bam_blocks, &program));
        let waitlist = Waitlist::new(options.order, rpo);
        info.order = waitlist.describe();
        if info.merge.is_none() {
            info.merge = Some(cpa.merge_operator().kind());
        }
        Reachability {
            cpa,
            program,
            options,
            info,
            states: Vec::new(),
            reached: ReachedSet::new(),
            waitlist,
            phase: Phase::Start,
            pending: VecDeque::new(),
            steps: 0,
            outcome: None,
            target: None,
            oracle: None,
            solver: None,
            queries: 0,
            mid_step: false,
            solver_times: Vec::new(),
            #[cfg(not(target_arch = "wasm32"))]
            deadline: None,
            lend_queries: u32::MAX,
            resume: None,
            failed_transfer: None,
            bam,
        }
        .with_oracle()
    }

    fn with_oracle(mut self) -> Self {
        self.oracle = self.cpa.solver_oracle();
        self
    }

    /// Attaches a solver back end that answers parked queries inside
    /// [`Stepper::next_event`] (natively: a `z3` process). `None`
    /// detaches it: the run then parks until [`Stepper::answer_query`].
    pub fn set_solver(&mut self, backend: Option<Box<dyn SolverBackend + Send>>) {
        self.solver = backend;
    }

    /// Caps how many queries the attached back end answers inside one
    /// transfer before the transfer parks and is redone as in the page
    /// (default: no cap, only [`crate::solver::LEND_BUDGET`]); 0 parks on
    /// every query. For tests of the two paths.
    pub fn set_lend_queries(&mut self, n: u32) {
        self.lend_queries = n;
    }

    /// The time by which the run must stop (its stage's
    /// `restartAlgorithm.stageTimeMs`): each query the attached back end
    /// answers — lent inside a transfer or for a parked one — gets no more
    /// than what is left of it ([`smt::SolverBackend::limit_next`]), so a
    /// hard query cannot keep the run past its limit for `solver.timeout`.
    /// A query cut short answers `unknown`, which prunes nothing; the
    /// stage's limit then ends the run UNKNOWN. Native only: the page's
    /// back end is not attached.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        self.deadline = deadline;
    }

    /// Whether the CPA asks a solver (has a [`SolverOracle`]).
    pub fn needs_solver(&self) -> bool {
        self.oracle.is_some()
    }

    /// The run's solver oracle (answers so far), if the CPA has one.
    pub fn solver_oracle(&self) -> Option<&Arc<SolverOracle>> {
        self.oracle.as_ref()
    }

    /// Runs to the end with `backend` answering every parked query, handing
    /// each event to `f` (the native driver; the page answers
    /// asynchronously instead).
    pub fn run_with_solver(&mut self, backend: &mut dyn SolverBackend, mut f: impl FnMut(&Event)) {
        loop {
            while let Some(e) = self.next_event() {
                f(&e);
            }
            let Some(q) = self.pending_query() else { return };
            let script = q.smtlib.clone();
            let out = self.timed_solve(backend, &script);
            self.answer_query(&out);
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn timed_solve(&mut self, backend: &mut dyn SolverBackend, script: &str) -> String {
        let t = std::time::Instant::now();
        if let Some(deadline) = self.deadline {
            backend.limit_next(crate::solver::left_until(deadline, t));
        }
        let out = backend.solve_text(script);
        self.solver_times.push(t.elapsed());
        out
    }

    /// The successors of `state` along `edge` (the CPA's transfer). With
    /// a back end attached and CPA decisions allowed, the back end is lent
    /// to the oracle for the transfer ([`SolverOracle::lend_solver`]): its
    /// queries are answered as they are asked, so it runs once, not once
    /// per query.
    pub(crate) fn transfer(
        &mut self,
        state: StateId,
        edge: &cfa::Edge,
        precision: &C::Precision,
    ) -> Result<Vec<C::State>, crate::cpa::TransferError> {
        let lent = match (&self.oracle, self.solver.take()) {
            (Some(o), Some(b)) if o.may_decide() => {
                o.lend_solver(b, self.lend_queries);
                #[cfg(not(target_arch = "wasm32"))]
                o.limit_lent_until(self.deadline);
                true
            }
            (_, b) => {
                self.solver = b;
                false
            }
        };
        let result = self.cpa.transfer_relation().successors(&self.states[state.0 as usize].state, edge, precision);
        if lent {
            if let Some((b, times)) = self.oracle.as_ref().and_then(|o| o.reclaim_solver()) {
                self.solver = Some(b);
                self.solver_times.extend(times);
            }
        }
        result
    }

    /// Queries the oracle answered during a kept transfer — from its
    /// canonical cache, decided by a CPA, or by a lent back end — and those
    /// the lent back end answered before a transfer parks are in the trace
    /// like the parked ones (see `crate::solver`).
    /// `kept`: the transfer is kept (else it parks and will be redone).
    pub(crate) fn emit_oracle_answers(&mut self, kept: bool) {
        let answers = match &self.oracle {
            Some(o) if kept => o.take_cached(),
            Some(o) => o.take_solved_before_park(),
            None => Vec::new(),
        };
        for (smtlib, answer) in answers {
            self.emit(Event::SolverQuery { id: self.queries, smtlib, answer });
            self.queries += 1;
        }
    }

    #[cfg(target_arch = "wasm32")]
    fn timed_solve(&mut self, backend: &mut dyn SolverBackend, script: &str) -> String {
        backend.solve_text(script)
    }

    /// The wall-clock time each query took in a back end this run called
    /// itself (attached or via [`Reachability::run_with_solver`]); empty in
    /// the page.
    pub fn solver_times(&self) -> &[std::time::Duration] {
        &self.solver_times
    }

    /// How many solver queries were answered so far.
    pub fn solver_queries(&self) -> u32 {
        self.queries
    }

    /// Whether `advance` can make progress now (not done, not parked
    /// without a back end to answer).
    fn blocked(&self) -> bool {
        match self.phase {
            Phase::Done => true,
            Phase::AwaitSolver { .. } => self.solver.is_none(),
            _ => false,
        }
    }

    /// Turns the coverage index on or off (for comparisons; the trace is
    /// the same either way).
    pub fn set_coverage_index(&mut self, on: bool) {
        self.options.coverage_index = on;
    }

    /// The verdict and its reason, once decided.
    pub fn outcome(&self) -> Option<(Verdict, &str)> {
        self.outcome.as_ref().map(|(v, r)| (*v, r.as_str()))
    }

    /// The CPA being run.
    pub fn cpa(&self) -> &C {
        &self.cpa
    }

    /// The program being analysed.
    pub fn program(&self) -> &Arc<Program> {
        &self.program
    }

    /// Where the loop is.
    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    /// A created state by id.
    pub fn record(&self, id: StateId) -> Option<&StateRecord<C::State, C::Precision>> {
        self.states.get(id.0 as usize)
    }

    /// The states currently in the reached set, by location partition.
    pub fn reached(&self) -> impl Iterator<Item = (StateId, &C::State)> + '_ {
        self.reached.iter().map(move |id| (id, &self.states[id.0 as usize].state))
    }

    /// The reached set (ids by location partition).
    pub fn reached_set(&self) -> &ReachedSet {
        &self.reached
    }

    /// The size of the reached set.
    pub fn reached_len(&self) -> usize {
        self.reached.len()
    }

    /// The waitlist in pop order.
    pub fn waitlist(&self) -> Vec<StateId> {
        self.waitlist.iter().collect()
    }

    /// The target state that ended the run, if any.
    pub fn target(&self) -> Option<StateId> {
        self.target
    }

    /// The ARG path from the initial state to the target state as its
    /// transfers: each transfer successor with the CFA edge that produced
    /// it, in path order (following, for merge results, the newly merged
    /// state, and for adjusted states the state they were adjusted from).
    pub fn target_path(&self) -> Option<Vec<(StateId, EdgeId)>> {
        self.target_paths(1).into_iter().next()
    }

    /// Up to `limit` ARG paths from the initial state to the target state,
    /// as in [`Reachability::target_path`] but taking, at merge results,
    /// either the new or the reached operand (a merged state stands for the
    /// paths of both, e.g. the disjunction of two path formulas); the first
    /// follows the new operands, as `target_path` does.
    pub fn target_paths(&self, limit: usize) -> Vec<Vec<(StateId, EdgeId)>> {
        let Some(t) = self.target else { return Vec::new() };
        self.paths_to(t, limit)
    }

    /// The state whose transfer failed and the CFA edge it failed on, when
    /// a [`crate::cpa::TransferError`] (e.g. the call stack's recursion
    /// bound) ended the run with UNKNOWN.
    pub fn failed_transfer(&self) -> Option<(StateId, EdgeId)> {
        self.failed_transfer
    }

    /// Up to `limit` ARG paths from the initial state to the state `t`, as
    /// in [`Reachability::target_paths`].
    pub fn paths_to(&self, t: StateId, limit: usize) -> Vec<Vec<(StateId, EdgeId)>> {
        if t.0 as usize >= self.states.len() {
            return Vec::new();
        }
        let mut out = Vec::new();
        // BAM: `returns` are the blocks the walk is inside of, innermost
        // last: on reaching the block's initial state, the path goes on at
        // the call that reused the block, not at the call that computed it.
        type Walk = (StateId, Vec<(StateId, EdgeId)>, Vec<(StateId, StateId, EdgeId)>);
        let mut stack: Vec<Walk> = vec![(t, Vec::new(), Vec::new())];
        let summaries = self.bam.as_ref().map(|b| &b.summaries);
        while let Some((mut cur, mut steps, mut returns)) = stack.pop() {
            if out.len() >= limit {
                break;
            }
            // Each step goes to a state with a smaller id, so this terminates.
            loop {
                if let Some(&(initial, parent, edge)) = returns.last() {
                    if cur == initial {
                        returns.pop();
                        steps.push((cur, edge));
                        cur = parent;
                        continue;
                    }
                }
                match &self.states[cur.0 as usize].origin {
                    Origin::Initial => {
                        steps.reverse();
                        out.push(steps);
                        break;
                    }
                    Origin::Transfer { parent, edge } => {
                        if let Some(&(initial, exit)) = summaries.and_then(|m| m.get(&cur)) {
                            returns.push((initial, *parent, *edge));
                            cur = exit;
                            continue;
                        }
                        steps.push((cur, *edge));
                        cur = *parent;
                    }
                    Origin::Precision { of } => cur = *of,
                    Origin::Merge { new, reached } => {
                        if stack.len() < 4 * limit {
                            stack.push((*reached, steps.clone(), returns.clone()));
                        }
                        cur = *new;
                    }
                }
            }
        }
        out
    }

    /// Up to `limit` error paths to the target state (the CFA edges of
    /// [`Reachability::target_paths`]); the first is
    /// [`Reachability::error_path`].
    pub fn error_paths(&self, limit: usize) -> Vec<Vec<EdgeId>> {
        self.target_paths(limit).into_iter().map(|p| p.into_iter().map(|(_, e)| e).collect()).collect()
    }

    /// The CFA edges from the initial state to the target state along the
    /// ARG (see [`Reachability::target_path`]): the error path.
    pub fn error_path(&self) -> Option<Vec<EdgeId>> {
        Some(self.target_path()?.into_iter().map(|(_, e)| e).collect())
    }

    /// CEGAR's restart from the pivot (merge^sep only): removes the ARG
    /// subtree rooted at `pivot` (a transfer successor) from the reached
    /// set and the waitlist, gives the pivot's ARG parent the refined
    /// `precision` and puts it back on the waitlist, and puts back the
    /// parents of covered states that a removed state may have covered
    /// (conservatively: every covered state at a location that lost a
    /// state), so the reached set is again closed up to the waitlist. Then
    /// the run continues (the previous verdict is void). Emits
    /// [`Event::ArgPruned`] and the [`Event::WaitlistRemove`] /
    /// [`Event::WaitlistPush`] events. Returns the states put back.
    pub fn prune_subtree(&mut self, pivot: StateId, precision: C::Precision) -> Result<Vec<StateId>, String> {
        if self.cpa.merge_operator().kind() != MergeKind::Sep {
            return Err("restart from the pivot needs merge^sep (merged states have several ARG parents)".into());
        }
        let Some(Origin::Transfer { parent, .. }) = self.states.get(pivot.0 as usize).map(|r| r.origin.clone()) else {
            return Err(format!("{pivot} is not a transfer successor"));
        };
        let n = self.states.len();
        // The subtree: ids grow along ARG links, so one pass finds it.
        let mut in_tree = vec![false; n];
        let mut has_prec_child = vec![false; n];
        for i in (pivot.0 as usize)..n {
            let parents = self.states[i].origin.parents();
            in_tree[i] = i == pivot.0 as usize || parents.iter().any(|p| in_tree[p.0 as usize]);
        }
        for r in &self.states {
            if let Origin::Precision { of } = r.origin {
                has_prec_child[of.0 as usize] = true;
            }
        }
        let removed: Vec<StateId> =
            (0..n).map(|i| StateId(i as u32)).filter(|id| in_tree[id.0 as usize] && self.reached.contains(*id)).collect();
        let located: Vec<(StateId, Option<NodeId>)> =
            removed.iter().map(|id| (*id, self.states[id.0 as usize].location)).collect();
        let lost_locations: std::collections::BTreeSet<Option<NodeId>> = located.iter().map(|(_, l)| *l).collect();
        self.reached.remove_subtree(&located);
        // Covered states outside the subtree whose coverer may be gone: their
        // transfer parent goes back on the waitlist.
        let mut readd = vec![parent];
        for i in 0..n {
            let r = &self.states[i];
            if in_tree[i]
                || self.reached.contains(StateId(i as u32))
                || has_prec_child[i]
                || !lost_locations.contains(&r.location)
            {
                continue;
            }
            let from = match &r.origin {
                Origin::Transfer { parent, .. } => Some(*parent),
                Origin::Precision { of } => match self.states.get(of.0 as usize).map(|x| &x.origin) {
                    Some(Origin::Transfer { parent, .. }) => Some(*parent),
                    _ => None,
                },
                _ => None,
            };
            if let Some(p) = from {
                if !readd.contains(&p) {
                    readd.push(p);
                }
            }
        }
        readd.retain(|p| self.reached.contains(*p));
        readd.sort();
        self.emit(Event::ArgPruned { pivot, removed: removed.clone(), readded: readd.clone() });
        for id in &removed {
            if self.waitlist.remove(*id) {
                self.emit(Event::WaitlistRemove { state: *id });
            }
        }
        let precision = Arc::new(precision);
        for id in &readd {
            self.states[id.0 as usize].precision = precision.clone();
            if !self.waitlist.iter().any(|w| w == *id) {
                let loc = self.states[id.0 as usize].location;
                let index = self.waitlist.push(*id, loc);
                self.emit(Event::WaitlistPush { state: *id, index });
            }
        }
        self.outcome = None;
        self.failed_transfer = None;
        self.target = None;
        self.phase = Phase::Pop;
        Ok(readd)
    }

    /// The target state that ended the run is infeasible (a precise check
    /// found its abstract state empty): it leaves the reached set and the
    /// waitlist ([`Event::TargetRefuted`]) and the run goes on where the
    /// target interrupted it, as if the transfer had not produced it. Only
    /// for merge^sep (a merged state would stand for other states too).
    /// Sound when the refuted state is really ⊥: its error location has no
    /// successors, and nothing was checked against it for coverage.
    pub fn refute_target(&mut self, reason: String) -> Result<(), String> {
        let Some(target) = self.target else { return Err("no target state ended the run".into()) };
        let Some(resume) = self.resume.take() else {
            return Err(format!("the run cannot go on after {target} (merge is not merge^sep)"));
        };
        let loc = self.states[target.0 as usize].location;
        let key = self.index_key(target);
        self.reached.remove(target, loc, &key);
        self.waitlist.remove(target);
        self.emit(Event::TargetRefuted { state: target, reason });
        self.outcome = None;
        self.failed_transfer = None;
        self.target = None;
        self.phase = resume;
        Ok(())
    }

    // -- the machine -------------------------------------------------------

    fn emit(&mut self, e: Event) {
        self.pending.push_back(e);
    }

    fn finish(&mut self, verdict: Verdict, mut reason: String) {
        if let Some(o) = &self.oracle {
            for note in o.summary() {
                reason.push_str("; ");
                reason.push_str(&note);
            }
        }
        let int_model_caveat =
            (verdict == Verdict::True && self.info.int_model == IntModel::Math).then(|| self.int_model_caveat()).flatten();
        if let Some(c) = &int_model_caveat {
            reason.push_str("; ");
            reason.push_str(&c.message());
        }
        self.outcome = Some((verdict, reason.clone()));
        self.emit(Event::AnalysisFinished { verdict, reason, int_model_caveat });
        self.phase = Phase::Done;
    }

    /// After a TRUE under mathematical integers: the first reached operation
    /// whose C result could differ, judged by what the reached states at its
    /// location know of its operands (see [`crate::int_caveat`]).
    fn int_model_caveat(&self) -> Option<IntModelCaveat> {
        // A CPA without locations keeps every state in one partition: then
        // every node counts as reached, bounded by all states.
        let unlocated = Some(self.reached.at(None)).filter(|ids| !ids.is_empty());
        // BAM: the blocks' reached sets are part of the fixpoint too.
        let blocks = self.bam_reached_by_location();
        let states_at = |n: NodeId| {
            let mut ids = unlocated.unwrap_or_else(|| self.reached.at(Some(n))).to_vec();
            ids.extend(blocks.get(&n).into_iter().flatten());
            ids
        };
        let reached = |n: NodeId| !states_at(n).is_empty();
        let bounds = |n: NodeId, v: VarId| {
            states_at(n)
                .iter()
                .map(|id| self.cpa.var_range(&self.states[id.0 as usize].state, v))
                .reduce(Range::hull)
                .unwrap_or(Range::TOP)
        };
        int_caveat::find(&self.program, &reached, &bounds)
    }

    fn create(&mut self, state: C::State, precision: Arc<C::Precision>, origin: Origin) -> StateId {
        let id = StateId(self.states.len() as u32);
        let location = self.cpa.location(&state);
        let callstack = self.cpa.call_stack(&state).unwrap_or_default();
        let view = self.options.record_views.then(|| self.cpa.state_view(&state));
        self.emit(Event::StateCreated { state: id, location, callstack, origin: origin.clone(), view });
        self.states.push(StateRecord { state, precision, location, origin });
        id
    }

    /// The coverage-index key of the created state `id`.
    fn index_key(&self, id: StateId) -> IndexKey {
        let state = &self.states[id.0 as usize].state;
        let shape = self.cpa.index_shape(state);
        let hash = self.cpa.index_hash(state, &shape);
        IndexKey { shape, hash }
    }

    fn add_to_reached(&mut self, id: StateId) {
        let loc = self.states[id.0 as usize].location;
        let key = self.index_key(id);
        self.reached.add(id, loc, key);
        self.emit(Event::ReachedAdd { state: id });
        let index = self.waitlist.push(id, loc);
        self.emit(Event::WaitlistPush { state: id, index });
    }

    fn remove_from_reached(&mut self, id: StateId, replaced_by: StateId) {
        let loc = self.states[id.0 as usize].location;
        let key = self.index_key(id);
        self.reached.remove(id, loc, &key);
        self.emit(Event::ReachedRemove { state: id, replaced_by });
        if self.waitlist.remove(id) {
            self.emit(Event::WaitlistRemove { state: id });
        }
    }

    /// After `id` entered the reached set: target check and state limit.
    /// Returns true when the run ended.
    fn after_add(&mut self, id: StateId) -> bool {
        if self.cpa.is_target(&self.states[id.0 as usize].state) {
            self.target = Some(id);
            // The caller says where the search would go on (see `refute_target`).
            self.resume = None;
            let loc = self.states[id.0 as usize].location.unwrap_or(NodeId(0));
            let line = self.program.nodes.get(loc.0 as usize).map(|n| n.line).unwrap_or(0);
            self.emit(Event::TargetReached { state: id, location: loc });
            self.finish(
                Verdict::False,
                format!(
                    "error location {loc} (line {line}) reached by {id}; the error path is unconfirmed (no feasibility check was run)"
                ),
            );
            return true;
        }
        if let Some(max) = self.options.max_states {
            if self.reached.len() > max {
                self.finish(
                    Verdict::Unknown,
                    format!("state limit reached: limits.states = {max} (the reached set grew beyond it)"),
                );
                return true;
            }
        }
        false
    }

    /// One action of the main loop.
    fn advance(&mut self) {
        match std::mem::replace(&mut self.phase, Phase::Done) {
            Phase::Start => {
                self.emit(Event::AnalysisStarted { info: self.info.clone() });
                let entry = match self.program.functions.get(self.program.main.0 as usize) {
                    Some(f) => f.entry,
                    None => return self.finish(Verdict::Unknown, "the program has no main function".into()),
                };
                let e0 = self.cpa.initial_state(entry);
                let p0 = Arc::new(self.cpa.initial_precision(entry));
                let id = self.create(e0, p0, Origin::Initial);
                self.add_to_reached(id);
                if !self.after_add(id) {
                    self.phase = Phase::Pop;
                } else if self.target.is_some() {
                    self.resume = Some(Phase::Pop);
                }
            }
            Phase::Pop => {
                if self.waitlist.is_empty() {
                    if self.bam_block_finished() {
                        return;
                    }
                    return self.finish(
                        Verdict::True,
                        "the waitlist is empty: the reached set is a fixpoint without any target state".into(),
                    );
                }
                if let Some(max) = self.options.max_steps {
                    if self.steps >= max {
                        let left = self.waitlist.len();
                        return self.finish(
                            Verdict::Unknown,
                            format!("step limit reached: limits.steps = {max} waitlist pops ({left} states still waiting)"),
                        );
                    }
                }
                let popped = self.waitlist.pop().expect("waitlist not empty");
                self.steps += 1;
                self.emit(Event::WaitlistPop { state: popped, step: self.steps });
                let edges = match self.states[popped.0 as usize].location {
                    _ if self.bam_is_block_exit(popped) => Vec::new(),
                    Some(l) => self.program.nodes.get(l.0 as usize).map(|n| n.outgoing.clone()).unwrap_or_default(),
                    None => Vec::new(),
                };
                self.phase = Phase::Edges { popped, edges, next: 0 };
            }
            Phase::Edges { popped, edges, next } => {
                if next >= edges.len() {
                    self.phase = Phase::Pop;
                    return;
                }
                // The transfer e ⇝ e' along one edge. It may raise a solver
                // query: then park (see the module docs) and redo it later.
                let edge = self.program.edge(edges[next]).clone();
                if let Some(block) = self.bam_block_of(&edge) {
                    return self.bam_call(popped, edges, next, edge, block);
                }
                let precision = self.states[popped.0 as usize].precision.clone();
                let result = self.transfer(popped, &edge, &precision);
                if let Some(script) = self.oracle.as_ref().and_then(|o| o.take_pending()) {
                    self.emit_oracle_answers(false);
                    let query = SolverQuery { id: self.queries, smtlib: script };
                    self.phase = Phase::AwaitSolver { popped, edges, next, query };
                    return;
                }
                self.emit_oracle_answers(true);
                let pruned = self.cpa.take_prune_report();
                let succ_states = match result {
                    Ok(s) => s,
                    Err(err) => {
                        self.failed_transfer = Some((popped, edge.id));
                        return self.finish(Verdict::Unknown, err.reason);
                    }
                };
                let mut succs = Vec::with_capacity(succ_states.len());
                for s in succ_states {
                    let id = self.create(s, precision.clone(), Origin::Transfer { parent: popped, edge: edge.id });
                    succs.push(id);
                }
                self.emit(Event::Transfer {
                    from: popped,
                    edge: edge.id,
                    source: edge.source,
                    target: edge.target,
                    label: edge.label.clone(),
                    successors: succs.clone(),
                });
                if let (true, Some(p)) = (succs.is_empty(), pruned) {
                    self.emit(Event::BranchPruned {
                        from: popped,
                        edge: edge.id,
                        location: edge.target,
                        reason: p.reason,
                        detail: p.detail,
                    });
                }
                for s in &succs {
                    if let Some(abstraction) = self.cpa.abstraction_report(&self.states[s.0 as usize].state) {
                        self.emit(Event::Abstraction { state: *s, abstraction });
                    }
                    if let Some(point) = self.cpa.abstraction_point_report(&self.states[s.0 as usize].state) {
                        self.emit(Event::AbstractionPoint { state: *s, point });
                    }
                }
                self.phase = Phase::Successors { popped, edges, edge: next, succs, k: 0 };
            }
            Phase::Successors { popped, edges, edge, succs, k } => {
                if k >= succs.len() {
                    self.phase = Phase::Edges { popped, edges, next: edge + 1 };
                    return;
                }
                if self.handle_successor(succs[k]) {
                    // Finished; a target may yet be refuted (merge^sep
                    // only: then no merge was interrupted).
                    if self.target.is_some() && self.cpa.merge_operator().kind() == MergeKind::Sep {
                        self.resume = Some(Phase::Successors { popped, edges, edge, succs, k: k + 1 });
                    }
                    return;
                }
                self.phase = Phase::Successors { popped, edges, edge, succs, k: k + 1 };
            }
            Phase::AwaitSolver { popped, edges, next, query } => {
                // Only reached with an attached back end (see `blocked`).
                let Some(mut backend) = self.solver.take() else {
                    self.phase = Phase::AwaitSolver { popped, edges, next, query };
                    return;
                };
                let script = query.smtlib.clone();
                self.phase = Phase::AwaitSolver { popped, edges, next, query };
                let out = self.timed_solve(&mut *backend, &script);
                self.solver = Some(backend);
                self.answer_query(&out);
            }
            Phase::Done => {}
        }
    }

    /// The reached states at `loc` that stop must consider for `e`, in
    /// insertion order. For stop^sep only those the coverage index cannot
    /// rule out (a state `e'` with `e ⊑ e'` is always among them); for other
    /// stop operators all of them.
    fn stop_candidates(&self, e: StateId, loc: Option<NodeId>, kind: StopKind) -> Vec<StateId> {
        if !self.options.coverage_index || kind != StopKind::Sep {
            return self.reached.at(loc).to_vec();
        }
        let state = &self.states[e.0 as usize].state;
        let shape = self.cpa.index_shape(state);
        self.reached.cover_candidates(loc, &shape, |s, g| self.cpa.index_may_cover(s, g), |g| self.cpa.index_hash(state, g))
    }

    /// prec, merge and stop for one successor e'. Returns true when the run ended.
    fn handle_successor(&mut self, succ: StateId) -> bool {
        // (ê, π̂) := prec(e', π)
        let rec = &self.states[succ.0 as usize];
        let (s_hat, p_hat) = self.cpa.precision_adjustment().prec(&rec.state, &rec.precision);
        let e_hat = if s_hat != rec.state || p_hat != *rec.precision {
            let desc = self.cpa.describe_precision(&p_hat);
            let id = self.create(s_hat, Arc::new(p_hat), Origin::Precision { of: succ });
            self.emit(Event::PrecisionAdjusted { state: succ, result: id, precision: desc });
            id
        } else {
            succ
        };
        let loc = self.states[e_hat.0 as usize].location;
        let precision = self.states[e_hat.0 as usize].precision.clone();

        // for each e'' ∈ reached (at the same location): merge
        if self.cpa.merge_operator().kind() != MergeKind::Sep {
            let partition: Vec<StateId> = self.reached.at(loc).to_vec();
            for r in partition {
                if !self.reached.contains(r) {
                    continue;
                }
                let (new_s, reached_s) = (&self.states[e_hat.0 as usize].state, &self.states[r.0 as usize].state);
                let op = self.cpa.merge_operator();
                let kind = op.kind_for(new_s, reached_s);
                if kind == MergeKind::Sep {
                    continue;
                }
                let merged = op.merge(new_s, reached_s, &precision);
                if merged == *reached_s {
                    self.emit(Event::Merge { operator: kind, new: e_hat, reached: r, result: r, replaced: false });
                    continue;
                }
                let m = self.create(merged, precision.clone(), Origin::Merge { new: e_hat, reached: r });
                self.emit(Event::Merge { operator: kind, new: e_hat, reached: r, result: m, replaced: true });
                self.remove_from_reached(r, m);
                self.add_to_reached(m);
                if self.after_add(m) {
                    return true;
                }
            }
        }

        // if ¬stop(ê, reached, π̂): add ê to waitlist and reached
        let stop = self.cpa.stop_operator();
        let partition = self.stop_candidates(e_hat, loc, stop.kind());
        let reached_states: Vec<&C::State> = partition.iter().map(|r| &self.states[r.0 as usize].state).collect();
        let coverage = stop.stop(&self.states[e_hat.0 as usize].state, &reached_states, &precision);
        let covered_by: Vec<StateId> = coverage.by.iter().filter_map(|i| partition.get(*i).copied()).collect();
        let decided_by = match covered_by.first() {
            Some(c) if coverage.covered => {
                self.cpa.coverage_check(&self.states[e_hat.0 as usize].state, &self.states[c.0 as usize].state)
            }
            _ => None,
        };
        self.emit(Event::Stop { state: e_hat, operator: stop.kind(), covered: coverage.covered, covered_by, decided_by });
        if coverage.covered {
            return false;
        }
        self.add_to_reached(e_hat);
        self.after_add(e_hat)
    }
}

impl<C: Cpa> Stepper for Reachability<C> {
    /// The next event, or `None` once [`Event::AnalysisFinished`] was
    /// returned — or while the run is parked on a solver query that no
    /// attached back end answers (see [`Stepper::pending_query`]).
    fn next_event(&mut self) -> Option<Event> {
        self.peek_event()?;
        self.pending.pop_front()
    }

    fn peek_event(&mut self) -> Option<&Event> {
        while self.pending.is_empty() {
            if self.blocked() {
                return None;
            }
            self.advance();
        }
        self.pending.front()
    }

    /// The query the run is parked on (see the module docs), if any.
    fn pending_query(&self) -> Option<&SolverQuery> {
        match &self.phase {
            Phase::AwaitSolver { query, .. } => Some(query),
            _ => None,
        }
    }

    /// Gives the solver's output text (`sat`/`unsat`/`unknown` first, then
    /// optionally a model or `(error …)` lines) for the pending query:
    /// records it, emits [`Event::SolverQuery`] and resumes the parked
    /// transfer. Does nothing when no query is pending. Garbage output
    /// counts as `unknown`, which the CPAs treat soundly.
    fn answer_query(&mut self, solver_output: &str) {
        if !matches!(self.phase, Phase::AwaitSolver { .. }) {
            return;
        }
        let Phase::AwaitSolver { popped, edges, next, query } = std::mem::replace(&mut self.phase, Phase::Done) else {
            return;
        };
        let response = smt::parse_response(solver_output);
        let answer = response.status().as_str().to_string();
        if let Some(o) = &self.oracle {
            o.record(&query.smtlib, response);
        }
        self.queries += 1;
        self.emit(Event::SolverQuery { id: query.id, smtlib: query.smtlib, answer });
        self.phase = Phase::Edges { popped, edges, next };
    }

    fn is_finished(&self) -> bool {
        self.phase == Phase::Done && self.pending.is_empty()
    }

    fn parked_mid_step(&mut self) -> &mut bool {
        &mut self.mid_step
    }
}
