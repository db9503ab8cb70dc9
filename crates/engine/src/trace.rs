//! The event trace: everything the reachability algorithm does, as a list of
//! serializable [`Event`]s.
//!
//! A run is deterministic: the same program, configuration (and, later,
//! solver answers) give the same list of events. The events are fine enough
//! to *replay* the algorithm without re-running any CPA: every created state
//! carries a serializable [`StateView`], every waitlist push says where the
//! state went in the waitlist's order, every merge names its inputs and its
//! result. The fold in [`crate::view`] rebuilds "what the UI shows at step k"
//! from a prefix of the trace, and [`crate::view::Statistics`] counts events —
//! statistics are never kept by hand anywhere else.

pub use crate::cpa::{MergeKind, StopKind};
pub use crate::state_view::{
    ComponentView, OctagonView, RegionCellsView, StateView, SymbolicBinding, ValueBinding, VarBounds, ViewContent,
};
use cfa::{EdgeId, NodeId};
use minic::IntModel;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// The identity of an abstract state within one run: `s0`, `s1`, … in order
/// of creation. Every state the algorithm ever computes (transfer
/// successors, precision-adjusted states, merge results) gets a fresh id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct StateId(pub u32);

impl fmt::Display for StateId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "s{}", self.0)
    }
}

/// The answer of a verification run, as CPAchecker prints it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// The reached set is a fixpoint that contains no target state: the
    /// error location is unreachable (for the chosen integer model).
    True,
    /// A target state was reached (its error path may be spurious unless a
    /// precise check confirmed it).
    False,
    /// The analysis gave up (a limit, unsupported recursion, …).
    Unknown,
}

impl Verdict {
    /// `TRUE`, `FALSE` or `UNKNOWN`.
    pub fn upper(self) -> &'static str {
        match self {
            Verdict::True => "TRUE",
            Verdict::False => "FALSE",
            Verdict::Unknown => "UNKNOWN",
        }
    }
    /// `true`, `false` or `unknown` (the JSON spelling).
    pub fn lower(self) -> &'static str {
        match self {
            Verdict::True => "true",
            Verdict::False => "false",
            Verdict::Unknown => "unknown",
        }
    }
}

/// How a state came to be: its incoming ARG links.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Origin {
    /// The initial state e₀ at the entry of `main`.
    Initial,
    /// A successor of `parent` along the CFA edge `edge` (transfer relation).
    Transfer {
        /// The state the transfer started from.
        parent: StateId,
        /// The CFA edge taken.
        edge: EdgeId,
    },
    /// The result of the precision adjustment `prec` applied to `of`.
    Precision {
        /// The state before the adjustment.
        of: StateId,
    },
    /// The result of `merge(new, reached)`; it replaces `reached`.
    Merge {
        /// The new state e (the transfer successor after prec).
        new: StateId,
        /// The reached state e' it was merged into.
        reached: StateId,
    },
}

impl Origin {
    /// The ARG parents of the state (two for a merge).
    pub fn parents(&self) -> Vec<StateId> {
        match self {
            Origin::Initial => vec![],
            Origin::Transfer { parent, .. } => vec![*parent],
            Origin::Precision { of } => vec![*of],
            Origin::Merge { new, reached } => vec![*new, *reached],
        }
    }
}

/// One entry of a refined precision: variable `name` is tracked at
/// `location` (`None`: at every location).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrecisionEntry {
    /// The location, or `None` for "everywhere".
    pub location: Option<NodeId>,
    /// The variable.
    pub var: cfa::VarId,
    /// Its qualified name.
    pub name: String,
}

/// One interpolant of a refuted error path, for display on the CFA.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InterpolantView {
    /// The path position (0-based edge index).
    pub position: usize,
    /// The edge after which it holds.
    pub edge: EdgeId,
    /// The location after the edge.
    pub location: NodeId,
    /// `{flag=1}`, `{}` (true) or `false`.
    pub text: String,
}

pub use crate::state_view::{AbstractionPointView, AbstractionView, PruneReason};

/// One row of the precision function p : L ⇀ ℕ₀ × 𝒫(formulas) of symbolic
/// execution with implicit predicate abstraction (SYMEXPA): an abstraction
/// location with its threshold and predicates.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrecisionRow {
    /// The abstraction location l ∈ dom(p).
    pub location: NodeId,
    /// The threshold c: abstract once l was visited at least c times before
    /// on the path.
    pub threshold: u32,
    /// The predicates P(l), in mini-C.
    pub predicates: Vec<String>,
}

/// One predicate of a predicate-analysis precision, for the trace.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PredicateEntry {
    /// The location, or `None` for a function-wide or global predicate.
    pub location: Option<NodeId>,
    /// Where it applies in words (`at N7`, `in main`, `everywhere`).
    pub scope: String,
    /// The predicate in mini-C.
    pub predicate: String,
}

/// A summary of the configuration a run uses, recorded in
/// [`Event::AnalysisStarted`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunInfo {
    /// The component CPAs, in order.
    pub cpas: Vec<String>,
    /// The merge operator of the composite (the strongest of its components).
    pub merge: Option<MergeKind>,
    /// The waitlist order (`DFS`, `BFS`, `RPO+DFS`, `RPO+BFS`).
    pub order: String,
    /// The integer model the run uses.
    pub int_model: IntModel,
    /// The effective configuration properties (may be empty when the
    /// algorithm was built without a configuration, e.g. in tests).
    pub properties: BTreeMap<String, String>,
}

/// One thing the CPA+ reachability algorithm did. The UI shows at step k a
/// pure function of the first k events (see [`crate::view::Snapshot`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "event")]
pub enum Event {
    /// The run begins. Always the first event.
    AnalysisStarted {
        /// The configuration summary.
        info: RunInfo,
    },
    /// A new abstract state exists (not yet in the reached set).
    StateCreated {
        /// The new state's id.
        state: StateId,
        /// Its CFA location (the Location CPA's component).
        location: Option<NodeId>,
        /// Its call stack (call sites, outermost first), if a Callstack CPA runs.
        callstack: Vec<NodeId>,
        /// How it came to be (its ARG parents).
        origin: Origin,
        /// What it holds, for display; `None` when the run was configured not
        /// to record views (batch runs).
        view: Option<StateView>,
    },
    /// A state was added to the waitlist at position `index` of the
    /// waitlist's order (0 = popped next).
    WaitlistPush {
        /// The state.
        state: StateId,
        /// Its position in pop order (0 = next).
        index: usize,
    },
    /// The algorithm's main loop took `state` from the waitlist; this begins
    /// step number `step` (1-based).
    WaitlistPop {
        /// The popped state.
        state: StateId,
        /// The step number (1-based).
        step: u64,
    },
    /// A state left the waitlist without being popped (merge replaced it).
    WaitlistRemove {
        /// The removed state.
        state: StateId,
    },
    /// The transfer relation computed the successors of `from` along `edge`
    /// (`source → target`, labelled `label`); an empty `successors` list
    /// means the edge is infeasible from `from` (⊥).
    Transfer {
        /// The popped state.
        from: StateId,
        /// The CFA edge.
        edge: EdgeId,
        /// The edge's source node.
        source: NodeId,
        /// The edge's target node.
        target: NodeId,
        /// The edge's operation as C-like text.
        label: String,
        /// The successor states (empty: infeasible).
        successors: Vec<StateId>,
    },
    /// The precision adjustment turned `state` into `result` (only recorded
    /// when it changed the state or the precision).
    PrecisionAdjusted {
        /// The state before prec.
        state: StateId,
        /// The adjusted state.
        result: StateId,
        /// The (new) precision in words.
        precision: String,
    },
    /// merge(new, reached) was computed with operator `operator`; `result`
    /// is `reached` itself when nothing changed, otherwise a fresh state that
    /// replaces `reached` in the reached set and the waitlist.
    Merge {
        /// The operator applied to this pair.
        operator: MergeKind,
        /// The new state e (the transfer successor after prec).
        new: StateId,
        /// The reached state e' it was merged into.
        reached: StateId,
        /// The merge result (`reached` when unchanged).
        result: StateId,
        /// Whether the result replaced `reached`.
        replaced: bool,
    },
    /// stop(state, R) was decided: `covered` with the reached states that
    /// cover it (one for stop^sep).
    Stop {
        /// The state checked.
        state: StateId,
        /// The stop operator.
        operator: StopKind,
        /// Whether it is covered (and so not added).
        covered: bool,
        /// The reached states covering it.
        covered_by: Vec<StateId>,
        /// How ⊑ was decided for the covering state, when the CPA says
        /// ([`crate::cpa::Cpa::coverage_check`]; predicate analysis:
        /// `syntactic equality` or `propositional implication over the
        /// predicates`). Absent for the other analyses, whose traces are
        /// unchanged by it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        decided_by: Option<String>,
    },
    /// A state was added to the reached set.
    ReachedAdd {
        /// The added state.
        state: StateId,
    },
    /// A state left the reached set, replaced by a merge result.
    ReachedRemove {
        /// The removed state.
        state: StateId,
        /// The merge result that replaced it.
        replaced_by: StateId,
    },
    /// A target state (at an error location) entered the reached set.
    TargetReached {
        /// The target state.
        state: StateId,
        /// Its error location.
        location: NodeId,
    },
    /// A precise check refuted the target `state` (its path constraints
    /// are unsatisfiable together): it left the reached set and the
    /// waitlist, and the search goes on (symbolic execution's check of a
    /// target before it reports FALSE).
    TargetRefuted {
        /// The refuted target state.
        state: StateId,
        /// Why, in words.
        reason: String,
    },
    /// Predicate abstraction computed the abstraction formula ψ' of a new
    /// abstraction state at a block end (its queries are the
    /// [`Event::SolverQuery`] events just before).
    Abstraction {
        /// The abstraction state (a transfer successor).
        state: StateId,
        /// What was computed.
        abstraction: AbstractionView,
    },
    /// Symbolic execution with implicit predicate abstraction: the
    /// transfer into `state` abstracted its memory (ABSTRACT? held: the
    /// location is in dom(p) and was visited at least `threshold` times
    /// before on the path): fresh symbolic values for every variable, tied
    /// to the old ones by `eq` and kept apart from earlier abstractions at
    /// the same location by `simple`.
    AbstractionPoint {
        /// The abstraction state (a transfer successor).
        state: StateId,
        /// What was added.
        point: AbstractionPointView,
    },
    /// The transfer from `from` along `edge` has no successor, and why:
    /// the path condition became unsatisfiable (infeasible), or the
    /// abstraction made it so because the path is not p-simple (pruned).
    /// Follows the [`Event::Transfer`] with no successors.
    BranchPruned {
        /// The state the transfer started from.
        from: StateId,
        /// The CFA edge.
        edge: EdgeId,
        /// The location the branch would have reached.
        location: NodeId,
        /// Infeasible or not p-simple.
        reason: PruneReason,
        /// What decided it, in words.
        detail: String,
    },
    /// A query to an SMT solver (SMT-LIB2 text) and its answer (`sat`,
    /// `unsat`, `unknown`). Reserved for the symbolic analyses.
    SolverQuery {
        /// The query number in this run.
        id: u32,
        /// The query as SMT-LIB2 text.
        smtlib: String,
        /// `sat`, `unsat` or `unknown`.
        answer: String,
    },
    /// The verdict of a counterexample (feasibility) check for the error
    /// path ending in `target` (CEGAR and the counterexample check).
    Counterexample {
        /// The target state whose path was checked.
        target: StateId,
        /// Feasible, infeasible, or undecided (`None`).
        feasible: Option<bool>,
        /// What the check found, in words.
        description: String,
        /// The error path: CFA edges from `main`'s entry to the target.
        #[serde(default)]
        path: Vec<EdgeId>,
        /// Which check decided (`value`, `octagon`, `smt+replay`, the
        /// second configuration's name, …).
        #[serde(default)]
        check: String,
        /// The nondet inputs that replay the path (decimal), when found.
        #[serde(default)]
        inputs: Vec<String>,
        /// Whether the concrete interpreter reached the error location on
        /// those inputs (a *confirmed* counterexample).
        #[serde(default)]
        confirmed: bool,
    },
    /// CEGAR computed a new precision.
    Refinement {
        /// The new precision in words.
        precision: String,
        /// Why (e.g. the interpolants found).
        reason: String,
        /// The CEGAR iteration that ends with this refinement (1-based).
        #[serde(default)]
        iteration: u32,
        /// `interpolation` (explicit values) or `assumptions` (the octagon
        /// backup refiner).
        #[serde(default)]
        refiner: String,
        /// The infeasible error path that was refuted.
        #[serde(default)]
        path: Vec<EdgeId>,
        /// The interpolants along it (empty for the backup refiner).
        #[serde(default)]
        interpolants: Vec<InterpolantView>,
        /// What the refinement added to the precision.
        #[serde(default)]
        added: Vec<PrecisionEntry>,
        /// The whole new precision, per location.
        #[serde(default)]
        tracked: Vec<PrecisionEntry>,
        /// Predicate analysis: the predicates this refinement added.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        predicates_added: Vec<PredicateEntry>,
        /// Predicate analysis: the whole new predicate precision.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        predicates: Vec<PredicateEntry>,
        /// Symbolic execution with predicate abstraction: the abstraction
        /// locations whose threshold this refinement raised (with the new
        /// threshold).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        thresholds_raised: Vec<PrecisionRow>,
        /// Symbolic execution with predicate abstraction: the whole new
        /// precision function p, one row per abstraction location.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        precision_function: Vec<PrecisionRow>,
        /// Predicate analysis: the predicates of `predicates_added` that
        /// came from path invariants of the path program
        /// (`cpa.predicate.refinement.pathInvariants`), not from interpolants.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        from_path_invariants: Vec<PredicateEntry>,
    },
    /// The algorithm starts over with an empty reached set and waitlist:
    /// a new CEGAR iteration (same configuration, refined precision) or
    /// the next stage of a sequential combination (restart algorithm).
    Restart {
        /// The configuration that runs next (in words).
        configuration: String,
        /// The iteration (CEGAR) or stage (restart algorithm) that begins,
        /// 1-based; the first run is iteration 1 and has no restart event.
        #[serde(default)]
        iteration: u32,
    },
    /// CEGAR restarted from the pivot: the ARG subtree below `pivot` left
    /// the reached set and the waitlist (`removed`: the reached states among
    /// it), and `readded` (the pivot's parent, with the refined precision,
    /// and parents of states a removed state may have covered) went back on
    /// the waitlist. A new CEGAR iteration begins; state ids continue.
    ArgPruned {
        /// The root of the removed subtree.
        pivot: StateId,
        /// The reached states that were removed.
        removed: Vec<StateId>,
        /// The states put back on the waitlist.
        readded: Vec<StateId>,
    },
    /// Block-abstraction memoization (BAM): the call of `from` along the
    /// call edge `edge` enters the block of function `block`; its reduced
    /// entry state (call site's context dropped) is not in the cache, so
    /// cache entry `entry` is made for it.
    CacheMiss {
        /// The block (its function's name).
        block: String,
        /// The calling state.
        from: StateId,
        /// The call edge.
        edge: EdgeId,
        /// The new cache entry's number.
        entry: u32,
    },
    /// BAM: a nested reachability analysis of the block starts from the
    /// reduced entry state `state` (a new state at the function's entry);
    /// the states created until [`Event::BlockExited`] belong to the block,
    /// `depth` blocks deep (1: called from `main`).
    BlockEntered {
        /// The block (its function's name).
        block: String,
        /// The cache entry being computed.
        entry: u32,
        /// The block's initial state: the reduced entry state.
        state: StateId,
        /// The call site (the caller's node).
        call_site: NodeId,
        /// How many blocks are open, this one included.
        depth: u32,
    },
    /// BAM: the block's reachability analysis ended (its waitlist is
    /// empty); `exits` are its reached states at the function's exit — the
    /// summary stored in cache entry `entry`.
    BlockExited {
        /// The block (its function's name).
        block: String,
        /// The cache entry now complete.
        entry: u32,
        /// The block's exit states.
        exits: Vec<StateId>,
        /// How many blocks were open, this one included.
        depth: u32,
    },
    /// BAM: the block's reduced entry state (with the same precision) is in
    /// cache entry `entry`: its summary is reused without analysing the
    /// block again.
    CacheHit {
        /// The block (its function's name).
        block: String,
        /// The calling state.
        from: StateId,
        /// The call edge.
        edge: EdgeId,
        /// The cache entry reused.
        entry: u32,
    },
    /// BAM: each exit state of cache entry `entry` expanded into the
    /// caller's context (what reduce dropped restored from `from`'s call
    /// successor): `successors[i]` is `exits[i]` expanded, a state at the
    /// function's exit in the caller's call stack (its transfer along
    /// the call edge is the preceding [`Event::Transfer`]).
    BlockExpanded {
        /// The block (its function's name).
        block: String,
        /// The calling state.
        from: StateId,
        /// The cache entry used.
        entry: u32,
        /// The block's exit states.
        exits: Vec<StateId>,
        /// Their expansions.
        successors: Vec<StateId>,
    },
    /// BAM: a refinement changed the reduced precision of `blocks`, so
    /// before the next CEGAR iteration their `entries` cache entries are
    /// dropped; the `kept` entries of other blocks stay valid and are
    /// reused ([`Event::CacheRestored`]).
    CacheInvalidated {
        /// The blocks whose reduced precision changed.
        blocks: Vec<String>,
        /// How many cache entries were dropped.
        entries: u32,
        /// How many cache entries were kept for the next iteration.
        kept: u32,
    },
    /// BAM: cache entry `entry` is a block analysis of an earlier CEGAR
    /// iteration that the refinement kept (the block's reduced precision
    /// did not change); its `states` states are re-created here — new ids
    /// from `initial` on, the same states and ARG edges, with no transfer
    /// and no solver query — and `exits` is its summary. A
    /// [`Event::CacheHit`] of the entry follows (or of the entry that
    /// contains it).
    CacheRestored {
        /// The block (its function's name).
        block: String,
        /// The cache entry in this iteration.
        entry: u32,
        /// The block's initial state (the reduced entry state).
        initial: StateId,
        /// The block's exit states.
        exits: Vec<StateId>,
        /// How many states were re-created.
        states: u32,
    },
    /// The run ended. Always the last event.
    AnalysisFinished {
        /// The verdict.
        verdict: Verdict,
        /// Why, in words.
        reason: String,
        /// For a TRUE under mathematical integers: the first reached
        /// operation whose C result could differ (absent otherwise).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        int_model_caveat: Option<crate::int_caveat::IntModelCaveat>,
    },
}

impl Event {
    /// The event's tag as it appears in JSON (`state_created`, …).
    pub fn kind(&self) -> &'static str {
        match self {
            Event::AnalysisStarted { .. } => "analysis_started",
            Event::StateCreated { .. } => "state_created",
            Event::WaitlistPush { .. } => "waitlist_push",
            Event::WaitlistPop { .. } => "waitlist_pop",
            Event::WaitlistRemove { .. } => "waitlist_remove",
            Event::Transfer { .. } => "transfer",
            Event::PrecisionAdjusted { .. } => "precision_adjusted",
            Event::Merge { .. } => "merge",
            Event::Stop { .. } => "stop",
            Event::ReachedAdd { .. } => "reached_add",
            Event::ReachedRemove { .. } => "reached_remove",
            Event::TargetReached { .. } => "target_reached",
            Event::TargetRefuted { .. } => "target_refuted",
            Event::Abstraction { .. } => "abstraction",
            Event::AbstractionPoint { .. } => "abstraction_point",
            Event::BranchPruned { .. } => "branch_pruned",
            Event::SolverQuery { .. } => "solver_query",
            Event::Counterexample { .. } => "counterexample",
            Event::Refinement { .. } => "refinement",
            Event::Restart { .. } => "restart",
            Event::ArgPruned { .. } => "arg_pruned",
            Event::CacheMiss { .. } => "cache_miss",
            Event::BlockEntered { .. } => "block_entered",
            Event::BlockExited { .. } => "block_exited",
            Event::CacheHit { .. } => "cache_hit",
            Event::BlockExpanded { .. } => "block_expanded",
            Event::CacheInvalidated { .. } => "cache_invalidated",
            Event::CacheRestored { .. } => "cache_restored",
            Event::AnalysisFinished { .. } => "analysis_finished",
        }
    }
}
