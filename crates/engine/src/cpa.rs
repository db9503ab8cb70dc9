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

use crate::int_caveat::Range;
use crate::trace::{ComponentView, MergeKind, StateView, StopKind};
use cfa::{Edge, NodeId};
use std::any::Any;
use std::fmt::Debug;
use std::sync::Arc;

/// Why a transfer could not be computed soundly: the analysis must stop with
/// UNKNOWN and this reason (e.g. "recursion deeper than 32").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TransferError {
    /// The reason, in words, shown as the UNKNOWN verdict's reason.
    pub reason: String,
}

impl TransferError {
    /// A transfer error with this reason.
    pub fn new(reason: impl Into<String>) -> Self {
        TransferError { reason: reason.into() }
    }
}

/// An abstract domain: the partial order ⊑ and the join ⊔ on abstract states.
///
/// Contract: ⊑ is a preorder that agrees with the concretization
/// (`e ⊑ e' ⇒ γ(e) ⊆ γ(e')`); `join(a, b)` is an upper bound of both
/// (`a ⊑ a ⊔ b` and `b ⊑ a ⊔ b`).
pub trait AbstractDomain {
    /// The abstract states E.
    type State;
    /// `a ⊑ b`: every concrete state `a` represents is represented by `b`.
    fn is_less_or_equal(&self, a: &Self::State, b: &Self::State) -> bool;
    /// `a ⊔ b`: an upper bound of both (the least one where it exists).
    fn join(&self, a: &Self::State, b: &Self::State) -> Self::State;
}

/// The transfer relation ⇝: the abstract successors of a state along one CFA
/// edge, under a precision.
///
/// Soundness contract: for every concrete state c ∈ γ(e) and every concrete
/// step c —g→ c', some returned successor e' has c' ∈ γ(e'). Returning no
/// successor claims the edge cannot be taken from any c ∈ γ(e).
pub trait TransferRelation {
    /// The abstract states.
    type State;
    /// The precision the transfer may consult (e.g. which variables to track).
    type Precision;

    /// The successors of `state` along `edge` (whose source is the state's
    /// location). An `Err` stops the whole analysis with UNKNOWN.
    fn successors(
        &self,
        state: &Self::State,
        edge: &Edge,
        precision: &Self::Precision,
    ) -> Result<Vec<Self::State>, TransferError>;

    /// Strengthening ↓ (composite CPAs): after every component computed its
    /// successor along `edge`, a component may refine its own part using the
    /// other components' parts (`others`, downcast what you know). `None`
    /// means the combination is infeasible (⊥).
    ///
    /// Contract: the result must still contain every concrete state that the
    /// product of all components represents. The default changes nothing.
    fn strengthen(
        &self,
        state: &Self::State,
        _others: &[&dyn Any],
        _edge: &Edge,
        _precision: &Self::Precision,
    ) -> Option<Self::State>
    where
        Self::State: Clone,
    {
        Some(state.clone())
    }
}

/// A merge operator: `merge(e, e', π)` combines a new state `e` with a
/// reached state `e'`; the result replaces `e'` when it differs.
///
/// Contract: `e' ⊑ merge(e, e', π)` (the result may only lose precision
/// with respect to the reached state, so nothing reached is forgotten).
pub trait MergeOperator<S, P> {
    /// Which operator this is, for the trace.
    fn kind(&self) -> MergeKind;
    /// Which operator applies to this particular pair (e.g. a composite
    /// applies merge^sep when the locations or call stacks disagree, an
    /// octagon merge may join only at loop heads). Defaults to [`Self::kind`].
    fn kind_for(&self, _new: &S, _reached: &S) -> MergeKind {
        self.kind()
    }
    /// `merge(new, reached, precision)`.
    fn merge(&self, new: &S, reached: &S, precision: &P) -> S;
}

/// The answer of a stop operator: whether the state is covered and by which
/// reached states (indices into the slice passed to [`StopOperator::stop`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    /// `stop(e, R)`.
    pub covered: bool,
    /// The reached states that cover `e` (the witness for stop^sep, all of
    /// `R` for stop^join).
    pub by: Vec<usize>,
}

/// A stop operator: decides whether a new state is already covered by the
/// reached set.
///
/// Contract: `stop(e, R, π) ⇒ γ(e) ⊆ ∪{γ(e') | e' ∈ R}`.
pub trait StopOperator<S, P> {
    /// Which operator this is, for the trace.
    fn kind(&self) -> StopKind;
    /// `stop(state, reached, precision)`.
    fn stop(&self, state: &S, reached: &[&S], precision: &P) -> Coverage;
}

/// The precision adjustment `prec(e, π, R) = (ê, π̂)`: may widen a state
/// under a (possibly changed) precision.
///
/// Contract: `γ(e) ⊆ γ(ê)`. (Our CPAs do not consult the reached set; it is
/// omitted from the signature.)
pub trait PrecisionAdjustment<S, P> {
    /// `(ê, π̂)`; return clones when nothing changes.
    fn prec(&self, state: &S, precision: &P) -> (S, P);
    /// `prec` for a state at a known CFA `location` (the composite passes
    /// its location component's node), for precisions that differ per
    /// location (`π : L → 2^X`, as CEGAR refines them). Defaults to
    /// [`Self::prec`]; same contract.
    fn prec_at(&self, state: &S, precision: &P, _location: Option<NodeId>) -> (S, P) {
        self.prec(state, precision)
    }
}

// ---------------------------------------------------------------------------
// Stock operators (CPAchecker's core/defaults)
// ---------------------------------------------------------------------------

/// merge^sep(e, e') = e': never combine (path-sensitive, precise, may not
/// terminate on loops without a stop that covers).
#[derive(Clone, Copy, Debug, Default)]
pub struct MergeSep;

impl<S: Clone, P> MergeOperator<S, P> for MergeSep {
    fn kind(&self) -> MergeKind {
        MergeKind::Sep
    }
    fn merge(&self, _new: &S, reached: &S, _precision: &P) -> S {
        reached.clone()
    }
}

/// merge^join(e, e') = e ⊔ e': combine every new state with the reached
/// ones at the same location (data-flow analysis style).
#[derive(Clone, Debug, Default)]
pub struct MergeJoin<D>(pub D);

impl<D: AbstractDomain, P> MergeOperator<D::State, P> for MergeJoin<D> {
    fn kind(&self) -> MergeKind {
        MergeKind::Join
    }
    fn merge(&self, new: &D::State, reached: &D::State, _precision: &P) -> D::State {
        self.0.join(new, reached)
    }
}

/// stop^sep(e, R) = ∃e' ∈ R: e ⊑ e'.
#[derive(Clone, Debug, Default)]
pub struct StopSep<D>(pub D);

impl<D: AbstractDomain, P> StopOperator<D::State, P> for StopSep<D> {
    fn kind(&self) -> StopKind {
        StopKind::Sep
    }
    fn stop(&self, state: &D::State, reached: &[&D::State], _precision: &P) -> Coverage {
        match reached.iter().position(|r| self.0.is_less_or_equal(state, r)) {
            Some(i) => Coverage { covered: true, by: vec![i] },
            None => Coverage::default(),
        }
    }
}

/// stop^join(e, R) = e ⊑ ⊔R: covered by the join of all reached states.
///
/// Contract caveat: γ(e) ⊆ γ(⊔R) implies the stop contract
/// γ(e) ⊆ ∪γ(R) only when the domain's join is exact (γ(⊔R) = ∪γ(R), as
/// for powerset domains like the mock's tag sets). For domains whose join
/// over-approximates (values, octagons) stop^join may cover states no
/// reached state covers — it is offered for teaching that very point.
#[derive(Clone, Debug, Default)]
pub struct StopJoin<D>(pub D);

impl<D: AbstractDomain, P> StopOperator<D::State, P> for StopJoin<D>
where
    D::State: Clone,
{
    fn kind(&self) -> StopKind {
        StopKind::Join
    }
    fn stop(&self, state: &D::State, reached: &[&D::State], _precision: &P) -> Coverage {
        let Some((first, rest)) = reached.split_first() else {
            return Coverage::default();
        };
        let mut acc: D::State = (*first).clone();
        for r in rest {
            acc = self.0.join(&acc, r);
        }
        if self.0.is_less_or_equal(state, &acc) {
            Coverage { covered: true, by: (0..reached.len()).collect() }
        } else {
            Coverage::default()
        }
    }
}

/// The static precision adjustment: `prec(e, π) = (e, π)`.
#[derive(Clone, Copy, Debug, Default)]
pub struct StaticPrecision;

impl<S: Clone, P: Clone> PrecisionAdjustment<S, P> for StaticPrecision {
    fn prec(&self, state: &S, precision: &P) -> (S, P) {
        (state.clone(), precision.clone())
    }
}

// ---------------------------------------------------------------------------
// The CPA
// ---------------------------------------------------------------------------

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
    /// A serializable picture of the state for the trace and the UI.
    fn view(&self, state: &Self::State) -> ComponentView;
    /// The whole state's view (one component per CPA of a composite).
    fn state_view(&self, state: &Self::State) -> StateView {
        StateView { components: vec![self.view(state)] }
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

// ---------------------------------------------------------------------------
// Type erasure: a CPA chosen at run time
// ---------------------------------------------------------------------------

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
    /// See [`Cpa::view`].
    fn view(&self, state: &dyn DynState) -> ComponentView;
    /// See [`Cpa::describe_precision`].
    fn describe_precision(&self, precision: &dyn DynState) -> String;
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
    fn view(&self, state: &dyn DynState) -> ComponentView {
        Cpa::view(self, down::<C::State>(Cpa::name(self), state))
    }
    fn describe_precision(&self, precision: &dyn DynState) -> String {
        Cpa::describe_precision(self, down::<C::Precision>(Cpa::name(self), precision))
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

/// A deterministic hash (SipHash with fixed keys) for coverage indexes.
pub fn stable_hash<T: std::hash::Hash + ?Sized>(value: &T) -> u64 {
    use std::hash::Hasher;
    #[allow(deprecated)]
    let mut h = std::hash::SipHasher::new();
    value.hash(&mut h);
    h.finish()
}
