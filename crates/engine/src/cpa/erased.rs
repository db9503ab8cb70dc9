//! Type erasure: every typed [`Cpa`] is also a [`DynCpa`], so a composite
//! is assembled from configuration names at run time.

use super::*;
use crate::int_caveat::Range;
use crate::state_view::ComponentView;
use cfa::{Edge, NodeId};
use std::any::Any;
use std::fmt::Debug;
use std::sync::Arc;

/// An abstract state whose type is known only to its CPA: comparable for
/// equality and printable, and downcastable with [`DynState::as_any`].
pub trait DynState: Any + Debug + Send + Sync {
    /// The state as `Any`, to downcast to its concrete type.
    fn as_any(&self) -> &dyn Any;
    /// Equality with another erased state (false for different types).
    fn dyn_eq(&self, other: &dyn DynState) -> bool;
}

impl<T: Any + Debug + PartialEq + Send + Sync> DynState for T {
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn dyn_eq(&self, other: &dyn DynState) -> bool {
        other.as_any().downcast_ref::<T>().is_some_and(|o| o == self)
    }
}

/// A type-erased abstract state (cheap to clone).
pub type ErasedState = Arc<dyn DynState>;
/// A type-erased precision (cheap to clone).
pub type ErasedPrecision = Arc<dyn DynState>;

/// The object-safe face of a [`Cpa`], so a composite can be assembled from
/// configuration names at run time. Every typed [`Cpa`] implements it; its
/// methods are the [`Cpa`]'s, with states downcast on the way in and boxed on
/// the way out.
pub trait DynCpa: Send + Sync {
    /// See [`Cpa::name`].
    fn name(&self) -> &'static str;
    /// See [`Cpa::initial_state`].
    fn initial_state(&self, entry: NodeId) -> ErasedState;
    /// See [`Cpa::initial_precision`].
    fn initial_precision(&self, entry: NodeId) -> ErasedPrecision;
    /// See [`TransferRelation::successors`].
    fn successors(&self, state: &dyn DynState, edge: &Edge, precision: &dyn DynState) -> Result<Vec<ErasedState>, TransferError>;
    /// See [`TransferRelation::strengthen`].
    fn strengthen(&self, state: &dyn DynState, others: &[&dyn Any], edge: &Edge, precision: &dyn DynState)
        -> Option<ErasedState>;
    /// See [`AbstractDomain::is_less_or_equal`].
    fn is_less_or_equal(&self, a: &dyn DynState, b: &dyn DynState) -> bool;
    /// See [`AbstractDomain::join`].
    fn join(&self, a: &dyn DynState, b: &dyn DynState) -> ErasedState;
    /// See [`MergeOperator::kind`].
    fn merge_kind(&self) -> MergeKind;
    /// See [`MergeOperator::kind_for`].
    fn merge_kind_for(&self, new: &dyn DynState, reached: &dyn DynState) -> MergeKind;
    /// See [`MergeOperator::merge`].
    fn merge(&self, new: &dyn DynState, reached: &dyn DynState, precision: &dyn DynState) -> ErasedState;
    /// See [`StopOperator::stop`].
    fn stop(&self, state: &dyn DynState, reached: &[&dyn DynState], precision: &dyn DynState) -> Coverage;
    /// See [`PrecisionAdjustment::prec`].
    fn prec(&self, state: &dyn DynState, precision: &dyn DynState) -> (ErasedState, ErasedPrecision);
    /// See [`PrecisionAdjustment::prec_at`].
    fn prec_at(&self, state: &dyn DynState, precision: &dyn DynState, location: Option<NodeId>)
        -> (ErasedState, ErasedPrecision);
    /// See [`Cpa::location`].
    fn location(&self, state: &dyn DynState) -> Option<NodeId>;
    /// See [`Cpa::call_stack`].
    fn call_stack(&self, state: &dyn DynState) -> Option<Vec<NodeId>>;
    /// See [`Cpa::is_target`].
    fn is_target(&self, state: &dyn DynState) -> bool;
    /// See [`Cpa::solver_oracle`].
    fn solver_oracle(&self) -> Option<Arc<crate::solver::SolverOracle>>;
    /// See [`Cpa::var_range`].
    fn var_range(&self, state: &dyn DynState, var: cfa::VarId) -> Range;
    /// See [`Cpa::reduce`].
    fn reduce(&self, state: &dyn DynState, program: &cfa::Program, block: &crate::block::Block) -> ErasedState;
    /// See [`Cpa::expand`].
    fn expand(
        &self,
        entry: &dyn DynState,
        exit: &dyn DynState,
        program: &cfa::Program,
        block: &crate::block::Block,
    ) -> ErasedState;
    /// See [`Cpa::block_precision_key`].
    fn block_precision_key(
        &self,
        precision: &dyn DynState,
        program: &cfa::Program,
        functions: &std::collections::BTreeSet<cfa::FuncId>,
    ) -> String;
    /// See [`Cpa::view`].
    fn view(&self, state: &dyn DynState) -> ComponentView;
    /// See [`Cpa::describe_precision`].
    fn describe_precision(&self, precision: &dyn DynState) -> String;
    /// See [`Cpa::abstraction_report`].
    fn abstraction_report(&self, state: &dyn DynState) -> Option<crate::state_view::AbstractionView>;
    /// See [`Cpa::abstraction_point_report`].
    fn abstraction_point_report(&self, state: &dyn DynState) -> Option<crate::state_view::AbstractionPointView>;
    /// See [`Cpa::take_prune_report`].
    fn take_prune_report(&self) -> Option<crate::state_view::PruneView>;
    /// See [`Cpa::coverage_check`].
    fn coverage_check(&self, covered: &dyn DynState, covering: &dyn DynState) -> Option<String>;
    /// See [`Cpa::index_shape`].
    fn index_shape(&self, state: &dyn DynState) -> Vec<u32>;
    /// See [`Cpa::index_may_cover`].
    fn index_may_cover(&self, covered: &[u32], covering: &[u32]) -> bool;
    /// See [`Cpa::index_hash`].
    fn index_hash(&self, state: &dyn DynState, shape: &[u32]) -> u64;
}

fn down<'a, T: 'static>(cpa: &str, s: &'a dyn DynState) -> &'a T {
    match s.as_any().downcast_ref::<T>() {
        Some(t) => t,
        // A composite only ever hands a component its own states; reaching
        // this is a bug in the engine, not something user input can cause.
        None => unreachable!("{cpa}: state of a different CPA passed to it"),
    }
}

impl<C: Cpa + Send + Sync> DynCpa for C {
    fn name(&self) -> &'static str {
        Cpa::name(self)
    }
    fn initial_state(&self, entry: NodeId) -> ErasedState {
        Arc::new(Cpa::initial_state(self, entry))
    }
    fn initial_precision(&self, entry: NodeId) -> ErasedPrecision {
        Arc::new(Cpa::initial_precision(self, entry))
    }
    fn successors(&self, state: &dyn DynState, edge: &Edge, precision: &dyn DynState) -> Result<Vec<ErasedState>, TransferError> {
        let s = down::<C::State>(Cpa::name(self), state);
        let p = down::<C::Precision>(Cpa::name(self), precision);
        Ok(self.transfer_relation().successors(s, edge, p)?.into_iter().map(|x| Arc::new(x) as ErasedState).collect())
    }
    fn strengthen(
        &self,
        state: &dyn DynState,
        others: &[&dyn Any],
        edge: &Edge,
        precision: &dyn DynState,
    ) -> Option<ErasedState> {
        let s = down::<C::State>(Cpa::name(self), state);
        let p = down::<C::Precision>(Cpa::name(self), precision);
        self.transfer_relation().strengthen(s, others, edge, p).map(|x| Arc::new(x) as ErasedState)
    }
    fn is_less_or_equal(&self, a: &dyn DynState, b: &dyn DynState) -> bool {
        let n = Cpa::name(self);
        self.domain().is_less_or_equal(down::<C::State>(n, a), down::<C::State>(n, b))
    }
    fn join(&self, a: &dyn DynState, b: &dyn DynState) -> ErasedState {
        let n = Cpa::name(self);
        Arc::new(self.domain().join(down::<C::State>(n, a), down::<C::State>(n, b)))
    }
    fn merge_kind(&self) -> MergeKind {
        self.merge_operator().kind()
    }
    fn merge_kind_for(&self, new: &dyn DynState, reached: &dyn DynState) -> MergeKind {
        let n = Cpa::name(self);
        self.merge_operator().kind_for(down::<C::State>(n, new), down::<C::State>(n, reached))
    }
    fn merge(&self, new: &dyn DynState, reached: &dyn DynState, precision: &dyn DynState) -> ErasedState {
        let n = Cpa::name(self);
        Arc::new(self.merge_operator().merge(
            down::<C::State>(n, new),
            down::<C::State>(n, reached),
            down::<C::Precision>(n, precision),
        ))
    }
    fn stop(&self, state: &dyn DynState, reached: &[&dyn DynState], precision: &dyn DynState) -> Coverage {
        let n = Cpa::name(self);
        let r: Vec<&C::State> = reached.iter().map(|x| down::<C::State>(n, *x)).collect();
        self.stop_operator().stop(down::<C::State>(n, state), &r, down::<C::Precision>(n, precision))
    }
    fn prec(&self, state: &dyn DynState, precision: &dyn DynState) -> (ErasedState, ErasedPrecision) {
        let n = Cpa::name(self);
        let (s, p) = self.precision_adjustment().prec(down::<C::State>(n, state), down::<C::Precision>(n, precision));
        (Arc::new(s), Arc::new(p))
    }
    fn prec_at(
        &self,
        state: &dyn DynState,
        precision: &dyn DynState,
        location: Option<NodeId>,
    ) -> (ErasedState, ErasedPrecision) {
        let n = Cpa::name(self);
        let (s, p) =
            self.precision_adjustment().prec_at(down::<C::State>(n, state), down::<C::Precision>(n, precision), location);
        (Arc::new(s), Arc::new(p))
    }
    fn location(&self, state: &dyn DynState) -> Option<NodeId> {
        Cpa::location(self, down::<C::State>(Cpa::name(self), state))
    }
    fn call_stack(&self, state: &dyn DynState) -> Option<Vec<NodeId>> {
        Cpa::call_stack(self, down::<C::State>(Cpa::name(self), state))
    }
    fn is_target(&self, state: &dyn DynState) -> bool {
        Cpa::is_target(self, down::<C::State>(Cpa::name(self), state))
    }
    fn solver_oracle(&self) -> Option<Arc<crate::solver::SolverOracle>> {
        Cpa::solver_oracle(self)
    }
    fn var_range(&self, state: &dyn DynState, var: cfa::VarId) -> Range {
        Cpa::var_range(self, down::<C::State>(Cpa::name(self), state), var)
    }
    fn reduce(&self, state: &dyn DynState, program: &cfa::Program, block: &crate::block::Block) -> ErasedState {
        Arc::new(Cpa::reduce(self, down::<C::State>(Cpa::name(self), state), program, block))
    }
    fn expand(
        &self,
        entry: &dyn DynState,
        exit: &dyn DynState,
        program: &cfa::Program,
        block: &crate::block::Block,
    ) -> ErasedState {
        let n = Cpa::name(self);
        Arc::new(Cpa::expand(self, down::<C::State>(n, entry), down::<C::State>(n, exit), program, block))
    }
    fn block_precision_key(
        &self,
        precision: &dyn DynState,
        program: &cfa::Program,
        functions: &std::collections::BTreeSet<cfa::FuncId>,
    ) -> String {
        Cpa::block_precision_key(self, down::<C::Precision>(Cpa::name(self), precision), program, functions)
    }
    fn view(&self, state: &dyn DynState) -> ComponentView {
        Cpa::view(self, down::<C::State>(Cpa::name(self), state))
    }
    fn describe_precision(&self, precision: &dyn DynState) -> String {
        Cpa::describe_precision(self, down::<C::Precision>(Cpa::name(self), precision))
    }
    fn abstraction_report(&self, state: &dyn DynState) -> Option<crate::state_view::AbstractionView> {
        Cpa::abstraction_report(self, down::<C::State>(Cpa::name(self), state))
    }
    fn abstraction_point_report(&self, state: &dyn DynState) -> Option<crate::state_view::AbstractionPointView> {
        Cpa::abstraction_point_report(self, down::<C::State>(Cpa::name(self), state))
    }
    fn take_prune_report(&self) -> Option<crate::state_view::PruneView> {
        Cpa::take_prune_report(self)
    }
    fn coverage_check(&self, covered: &dyn DynState, covering: &dyn DynState) -> Option<String> {
        let name = Cpa::name(self);
        Cpa::coverage_check(self, down::<C::State>(name, covered), down::<C::State>(name, covering))
    }
    fn index_shape(&self, state: &dyn DynState) -> Vec<u32> {
        Cpa::index_shape(self, down::<C::State>(Cpa::name(self), state))
    }
    fn index_may_cover(&self, covered: &[u32], covering: &[u32]) -> bool {
        Cpa::index_may_cover(self, covered, covering)
    }
    fn index_hash(&self, state: &dyn DynState, shape: &[u32]) -> u64 {
        Cpa::index_hash(self, down::<C::State>(Cpa::name(self), state), shape)
    }
}
