//! The CPA interfaces: one small trait per formal concept of the CPA+
//! formalism (Beyer, Henzinger, Théoduloz: *Program analysis with dynamic
//! precision adjustment*), and the stock operators.
//!
//! A configurable program analysis D = (A, ⇝, merge, stop, prec) consists of
//!
//! * an abstract domain A = (C, E, ⊑, ⊔, γ) — [`AbstractDomain`]: a
//!   semilattice of abstract states with the order ⊑ and the join ⊔, where
//!   γ maps a state to the concrete states it represents;
//! * a transfer relation ⇝ ⊆ E × G × E × Π — [`TransferRelation`]: for a
//!   state and a CFA edge, 0..n successor states (0 = the edge is infeasible);
//! * a merge operator — [`MergeOperator`]: may combine a new state with a
//!   reached one, with the contract `e' ⊑ merge(e, e', π)`;
//! * a stop operator — [`StopOperator`]: decides coverage, with the contract
//!   `stop(e, R, π) ⇒ γ(e) ⊆ ∪{γ(e') | e' ∈ R}`;
//! * a precision adjustment prec — [`PrecisionAdjustment`]: may abstract a
//!   state further under a (possibly new) precision π ∈ Π, with the contract
//!   that `γ(e) ⊆ γ(ê)` for `(ê, π̂) = prec(e, π, R)`.
//!
//! [`Cpa`] ties the five together with associated types (where CPAchecker
//! casts). Because the configuration is chosen at run time from properties,
//! every typed [`Cpa`] is also usable through the object-safe [`DynCpa`]
//! (blanket implementation), which the [`crate::cpas::composite::CompositeCpa`]
//! combines into a product chosen at run time.
//!
//! One file per concept: [`domain`](AbstractDomain), `transfer.rs`
//! ([`TransferRelation`]), `merge.rs` ([`MergeOperator`], [`MergeKind`]),
//! `stop.rs` ([`StopOperator`], [`StopKind`]), `precision_adjustment.rs`
//! ([`PrecisionAdjustment`]); the [`Cpa`] that ties them together is here,
//! its type-erased face in `erased.rs`.

mod domain;
mod erased;
mod merge;
mod precision_adjustment;
mod stop;
mod transfer;

pub use domain::AbstractDomain;
pub use erased::{DynCpa, DynState, ErasedPrecision, ErasedState};
pub use merge::{MergeJoin, MergeKind, MergeOperator, MergeSep};
pub use precision_adjustment::{PrecisionAdjustment, StaticPrecision};
pub use stop::{Coverage, StopJoin, StopKind, StopNever, StopOperator, StopSep};
pub use transfer::{TransferError, TransferRelation};

use crate::int_caveat::Range;
use crate::state_view::{ComponentView, StateView};
use cfa::NodeId;
use std::fmt::Debug;
use std::sync::Arc;

/// A configurable program analysis: the domain, the transfer relation and
/// the three operators, plus the initial state and precision.
pub trait Cpa {
    /// The abstract states E.
    type State: Clone + PartialEq + Debug + Send + Sync + 'static;
    /// The precisions Π.
    type Precision: Clone + PartialEq + Debug + Send + Sync + 'static;

    /// The name as in CPAchecker's configuration (`ValueAnalysisCPA`).
    fn name(&self) -> &'static str;
    /// The abstract domain (⊑, ⊔).
    fn domain(&self) -> &dyn AbstractDomain<State = Self::State>;
    /// The transfer relation ⇝ (with strengthening).
    fn transfer_relation(&self) -> &dyn TransferRelation<State = Self::State, Precision = Self::Precision>;
    /// The merge operator chosen for this run.
    fn merge_operator(&self) -> &dyn MergeOperator<Self::State, Self::Precision>;
    /// The stop operator chosen for this run.
    fn stop_operator(&self) -> &dyn StopOperator<Self::State, Self::Precision>;
    /// The precision adjustment (static by default).
    fn precision_adjustment(&self) -> &dyn PrecisionAdjustment<Self::State, Self::Precision> {
        &StaticPrecision
    }
    /// The initial abstract state e₀ at the program's entry node.
    fn initial_state(&self, entry: NodeId) -> Self::State;
    /// The initial precision π₀.
    fn initial_precision(&self, entry: NodeId) -> Self::Precision;

    /// The CFA location a state is at, if this CPA tracks locations (the
    /// reached set is partitioned by it).
    fn location(&self, _state: &Self::State) -> Option<NodeId> {
        None
    }
    /// The call stack (call sites, outermost first), if this CPA tracks it.
    fn call_stack(&self, _state: &Self::State) -> Option<Vec<NodeId>> {
        None
    }
    /// Whether the state is a target state (at an error location).
    fn is_target(&self, _state: &Self::State) -> bool {
        false
    }
    /// The solver oracle this CPA asks (see [`crate::solver`]), if it uses
    /// an SMT solver; the reachability algorithm parks on its pending
    /// queries. A composite hands out its first component's.
    fn solver_oracle(&self) -> Option<Arc<crate::solver::SolverOracle>> {
        None
    }
    /// What the state knows of `var`'s value, as an interval ([`Range::TOP`]
    /// when nothing): the concretization γ(e) projected on `var`, or any
    /// interval containing it. Used to judge which operations of a TRUE under
    /// mathematical integers could behave differently in C
    /// ([`crate::int_caveat`]).
    fn var_range(&self, _state: &Self::State, _var: cfa::VarId) -> Range {
        Range::TOP
    }
    /// Block-abstraction memoization (BAM, [`crate::algorithm`]'s block
    /// runs): the state `state` at the entry of `block` (a function body or a
    /// loop, [`crate::block::Block`]) *reduced* to what the block can see, so that call sites whose states
    /// agree on it share one cached block analysis. Contract: the block's
    /// analysis from the reduced state, expanded again with
    /// [`Cpa::expand`], over-approximates the block's effect on `state`.
    /// The default keeps everything (no reduction; always sound).
    fn reduce(&self, state: &Self::State, _program: &cfa::Program, _block: &crate::block::Block) -> Self::State {
        state.clone()
    }
    /// BAM's *expand*: the block's exit state `exit` (computed from the
    /// reduced entry) put back into the context of the unreduced block
    /// entry state `entry` (what reduce dropped comes back from `entry`).
    /// The default takes the exit state as it is (right when reduce keeps
    /// everything).
    fn expand(
        &self,
        _entry: &Self::State,
        exit: &Self::State,
        _program: &cfa::Program,
        _block: &crate::block::Block,
    ) -> Self::State {
        exit.clone()
    }
    /// BAM's *reduced precision*, as a comparable key: the part of
    /// `precision` that a block's analysis consults — at the locations of
    /// `functions` (the block's function and every function it may call).
    /// Precisions with equal keys give the same block analysis, so a cache
    /// entry made under one is reused under the other, also after a CEGAR
    /// refinement that only changed other blocks' precision. The default is
    /// the whole precision (never wrong; reuses less).
    fn block_precision_key(
        &self,
        precision: &Self::Precision,
        _program: &cfa::Program,
        _functions: &std::collections::BTreeSet<cfa::FuncId>,
    ) -> String {
        format!("{precision:?}")
    }
    /// A serializable picture of the state for the trace and the UI.
    fn view(&self, state: &Self::State) -> ComponentView;
    /// The whole state's view (one component per CPA of a composite).
    fn state_view(&self, state: &Self::State) -> StateView {
        StateView { components: vec![self.view(state)] }
    }
    /// For a state that a transfer just made by computing a predicate
    /// abstraction: what was computed, for [`crate::trace::Event::Abstraction`].
    fn abstraction_report(&self, _state: &Self::State) -> Option<crate::state_view::AbstractionView> {
        None
    }
    /// For a state that a transfer just made an abstraction point of
    /// symbolic execution with implicit predicate abstraction: what the
    /// abstraction added, for [`crate::trace::Event::AbstractionPoint`].
    fn abstraction_point_report(&self, _state: &Self::State) -> Option<crate::state_view::AbstractionPointView> {
        None
    }
    /// After a transfer without successors: why this CPA had none (and
    /// forgets it), for [`crate::trace::Event::BranchPruned`]. Asked after
    /// every transfer, so a stale report never outlives its transfer.
    fn take_prune_report(&self) -> Option<crate::state_view::PruneView> {
        None
    }
    /// For a state `covered` that stop found covered by `covering`: how
    /// `covered ⊑ covering` was decided, in words, for
    /// [`crate::trace::Event::Stop`] (`None`: the domain's one check, not
    /// worth saying).
    fn coverage_check(&self, _covered: &Self::State, _covering: &Self::State) -> Option<String> {
        None
    }
    /// The precision in words, for [`crate::trace::Event::PrecisionAdjusted`].
    fn describe_precision(&self, precision: &Self::Precision) -> String {
        format!("{precision:?}")
    }

    // -- optional coverage index (speeds up stop^sep, never changes it) ----

    /// The *shape* of a state for the reached set's coverage index: reached
    /// states are grouped by shape, and stop^sep only looks at groups whose
    /// shape [may cover](Cpa::index_may_cover) the new state's. The default
    /// (one shape for all) disables the index.
    fn index_shape(&self, _state: &Self::State) -> Vec<u32> {
        Vec::new()
    }
    /// Whether a state of shape `covering` can be ⊒ a state of shape `covered`.
    /// Contract: `e ⊑ e'` ⇒ `index_may_cover(shape(e), shape(e'))`.
    fn index_may_cover(&self, _covered: &[u32], _covering: &[u32]) -> bool {
        true
    }
    /// A hash of `state` seen through the shape `shape` of a potential
    /// covering state. Contract: `e ⊑ e'` ⇒
    /// `index_hash(e, shape(e')) == index_hash(e', shape(e'))`.
    fn index_hash(&self, _state: &Self::State, _shape: &[u32]) -> u64 {
        0
    }
}

/// A deterministic hash (SipHash with fixed keys) for coverage indexes.
pub fn stable_hash<T: std::hash::Hash + ?Sized>(value: &T) -> u64 {
    use std::hash::Hasher;
    #[allow(deprecated)]
    let mut h = std::hash::SipHasher::new();
    value.hash(&mut h);
    h.finish()
}
