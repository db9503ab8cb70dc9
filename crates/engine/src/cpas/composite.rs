//! The Composite CPA (CPAchecker's `cpa.composite.CompositeCPA`): the
//! product of component CPAs chosen at run time (`CompositeCPA.cpas`).
//!
//! * States and precisions are tuples, one part per component.
//! * Order: component-wise (`e ⊑ e'` iff `eᵢ ⊑ᵢ e'ᵢ` for all i).
//! * Transfer: each component computes its successors along the edge (the
//!   product has no successor when one component has none), then every
//!   component may *strengthen* its part using the others'.
//! * Merge (CPAchecker's "AGREE"): two states are merged only when their
//!   location and call-stack components agree; then every component applies
//!   its own merge operator. Otherwise merge^sep (the reached state stays).
//! * Stop: stop^sep on the product order (∃e' ∈ R: e ⊑ e'), or stop^never
//!   (`cpa.composite.stop = NEVER`: no state is ever covered).
//! * Precision adjustment: component-wise, each component told the
//!   state's location (for per-location precisions).

use crate::cpa::MergeKind;
use crate::cpa::{
    AbstractDomain, Coverage, Cpa, DynCpa, ErasedPrecision, ErasedState, MergeOperator, PrecisionAdjustment, StopKind, StopNever,
    StopOperator, StopSep, TransferError, TransferRelation,
};
use crate::state_view::{ComponentView, StateView, ViewContent};
use cfa::{Edge, NodeId};
use std::any::Any;
use std::sync::Arc;

/// A composite state: one part per component CPA.
#[derive(Clone, Debug)]
pub struct CompositeState {
    /// The component states, in the order of the components.
    pub parts: Vec<ErasedState>,
}

impl PartialEq for CompositeState {
    fn eq(&self, other: &Self) -> bool {
        self.parts.len() == other.parts.len() && self.parts.iter().zip(&other.parts).all(|(a, b)| a.dyn_eq(&**b))
    }
}

/// A composite precision: one part per component CPA.
#[derive(Clone, Debug)]
pub struct CompositePrecision {
    /// The component precisions.
    pub parts: Vec<ErasedPrecision>,
}

impl PartialEq for CompositePrecision {
    fn eq(&self, other: &Self) -> bool {
        self.parts.len() == other.parts.len() && self.parts.iter().zip(&other.parts).all(|(a, b)| a.dyn_eq(&**b))
    }
}

/// The components of a composite, shared by its domain and operators.
pub struct Components {
    cpas: Vec<Box<dyn DynCpa>>,
}

impl Components {
    fn agree(&self, a: &CompositeState, b: &CompositeState) -> bool {
        self.cpas.iter().enumerate().all(|(i, c)| {
            let pa = &*a.parts[i];
            let pb = &*b.parts[i];
            let tracks_control = c.location(pa).is_some() || c.call_stack(pa).is_some();
            !tracks_control || pa.dyn_eq(pb)
        })
    }
}

/// The product domain.
#[derive(Clone)]
pub struct CompositeDomain(Arc<Components>);

impl AbstractDomain for CompositeDomain {
    type State = CompositeState;
    fn is_less_or_equal(&self, a: &CompositeState, b: &CompositeState) -> bool {
        self.0.cpas.iter().enumerate().all(|(i, c)| c.is_less_or_equal(&*a.parts[i], &*b.parts[i]))
    }
    fn join(&self, a: &CompositeState, b: &CompositeState) -> CompositeState {
        CompositeState { parts: self.0.cpas.iter().enumerate().map(|(i, c)| c.join(&*a.parts[i], &*b.parts[i])).collect() }
    }
}

/// The composite's stop operator: stop^sep on the product order, or
/// stop^never.
pub enum CompositeStop {
    /// stop^sep with the component-wise ⊑.
    Sep(StopSep<CompositeDomain>),
    /// stop^never: nothing is covered.
    Never,
}

impl StopOperator<CompositeState, CompositePrecision> for CompositeStop {
    fn kind(&self) -> StopKind {
        match self {
            CompositeStop::Sep(_) => StopKind::Sep,
            CompositeStop::Never => StopKind::Never,
        }
    }
    fn stop(&self, state: &CompositeState, reached: &[&CompositeState], precision: &CompositePrecision) -> Coverage {
        match self {
            CompositeStop::Sep(op) => op.stop(state, reached, precision),
            CompositeStop::Never => {
                StopOperator::<CompositeState, CompositePrecision>::stop(&StopNever, state, reached, precision)
            }
        }
    }
}

/// The Composite CPA.
pub struct CompositeCpa {
    inner: Arc<Components>,
    domain: CompositeDomain,
    stop: CompositeStop,
}

impl CompositeCpa {
    /// The product of `cpas` (in this order), with stop^sep.
    pub fn new(cpas: Vec<Box<dyn DynCpa>>) -> Self {
        Self::with_stop(cpas, StopKind::Sep)
    }

    /// The product of `cpas` with the stop operator `stop`
    /// (`cpa.composite.stop`; only sep and never are offered, join falls
    /// back to sep).
    pub fn with_stop(cpas: Vec<Box<dyn DynCpa>>, stop: StopKind) -> Self {
        let inner = Arc::new(Components { cpas });
        let stop = match stop {
            StopKind::Never => CompositeStop::Never,
            StopKind::Sep | StopKind::Join => CompositeStop::Sep(StopSep(CompositeDomain(inner.clone()))),
        };
        CompositeCpa { domain: CompositeDomain(inner.clone()), stop, inner }
    }

    /// The component CPAs' names, in order.
    pub fn component_names(&self) -> Vec<String> {
        self.inner.cpas.iter().map(|c| c.name().to_string()).collect()
    }

    /// The component CPAs.
    pub fn components(&self) -> &[Box<dyn DynCpa>] {
        &self.inner.cpas
    }
}

impl TransferRelation for CompositeCpa {
    type State = CompositeState;
    type Precision = CompositePrecision;

    fn successors(
        &self,
        state: &CompositeState,
        edge: &Edge,
        precision: &CompositePrecision,
    ) -> Result<Vec<CompositeState>, TransferError> {
        let cpas = &self.inner.cpas;
        // Component-wise successors; the product is their cartesian product.
        let mut combos: Vec<Vec<ErasedState>> = vec![Vec::with_capacity(cpas.len())];
        for (i, c) in cpas.iter().enumerate() {
            let succ = c.successors(&*state.parts[i], edge, &*precision.parts[i])?;
            if succ.is_empty() {
                return Ok(vec![]);
            }
            let mut next = Vec::with_capacity(combos.len() * succ.len());
            for combo in &combos {
                for s in &succ {
                    let mut c2 = combo.clone();
                    c2.push(s.clone());
                    next.push(c2);
                }
            }
            combos = next;
        }
        // Strengthening: each component may refine its part using the others.
        let mut out = Vec::with_capacity(combos.len());
        'combo: for mut parts in combos {
            for (i, c) in cpas.iter().enumerate() {
                let others: Vec<&dyn Any> = parts.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, p)| p.as_any()).collect();
                match c.strengthen(&*parts[i], &others, edge, &*precision.parts[i]) {
                    Some(s) => parts[i] = s,
                    None => continue 'combo,
                }
            }
            out.push(CompositeState { parts });
        }
        Ok(out)
    }
}

/// The composite merge (AGREE).
pub struct CompositeMerge(Arc<Components>);

impl MergeOperator<CompositeState, CompositePrecision> for CompositeMerge {
    fn kind(&self) -> MergeKind {
        self.0.cpas.iter().map(|c| c.merge_kind()).max().unwrap_or(MergeKind::Sep)
    }
    fn kind_for(&self, new: &CompositeState, reached: &CompositeState) -> MergeKind {
        if !self.0.agree(new, reached) {
            return MergeKind::Sep;
        }
        self.0
            .cpas
            .iter()
            .enumerate()
            .map(|(i, c)| c.merge_kind_for(&*new.parts[i], &*reached.parts[i]))
            .max()
            .unwrap_or(MergeKind::Sep)
    }
    fn merge(&self, new: &CompositeState, reached: &CompositeState, precision: &CompositePrecision) -> CompositeState {
        if !self.0.agree(new, reached) {
            return reached.clone();
        }
        let parts: Vec<ErasedState> = self
            .0
            .cpas
            .iter()
            .enumerate()
            .map(|(i, c)| c.merge(&*new.parts[i], &*reached.parts[i], &*precision.parts[i]))
            .collect();
        let merged = CompositeState { parts };
        // Keep the reached state's identity when nothing changed.
        if merged == *reached {
            reached.clone()
        } else {
            merged
        }
    }
}

/// The composite precision adjustment (component-wise).
pub struct CompositePrec(Arc<Components>);

impl PrecisionAdjustment<CompositeState, CompositePrecision> for CompositePrec {
    fn prec(&self, state: &CompositeState, precision: &CompositePrecision) -> (CompositeState, CompositePrecision) {
        // The location component's node, for per-location precisions.
        let location = self.0.cpas.iter().enumerate().find_map(|(i, c)| c.location(&*state.parts[i]));
        let mut s = Vec::with_capacity(state.parts.len());
        let mut p = Vec::with_capacity(state.parts.len());
        for (i, c) in self.0.cpas.iter().enumerate() {
            let (a, b) = c.prec_at(&*state.parts[i], &*precision.parts[i], location);
            s.push(a);
            p.push(b);
        }
        (CompositeState { parts: s }, CompositePrecision { parts: p })
    }
}

/// Holds the operators so [`Cpa`] can hand out references.
struct Operators {
    merge: CompositeMerge,
    prec: CompositePrec,
}

impl CompositeCpa {
    fn operators(&self) -> Operators {
        Operators { merge: CompositeMerge(self.inner.clone()), prec: CompositePrec(self.inner.clone()) }
    }
}

/// The composite CPA with its operators materialized (what the algorithm
/// runs). Build with [`CompositeCpa::new`] and [`CompositeAnalysis::from`].
pub struct CompositeAnalysis {
    cpa: CompositeCpa,
    ops: Operators,
}

impl From<CompositeCpa> for CompositeAnalysis {
    fn from(cpa: CompositeCpa) -> Self {
        let ops = cpa.operators();
        CompositeAnalysis { cpa, ops }
    }
}

impl CompositeAnalysis {
    /// The composite CPA.
    pub fn composite(&self) -> &CompositeCpa {
        &self.cpa
    }
}

impl Cpa for CompositeAnalysis {
    type State = CompositeState;
    type Precision = CompositePrecision;
    fn name(&self) -> &'static str {
        "CompositeCPA"
    }
    fn domain(&self) -> &dyn AbstractDomain<State = CompositeState> {
        &self.cpa.domain
    }
    fn transfer_relation(&self) -> &dyn TransferRelation<State = CompositeState, Precision = CompositePrecision> {
        &self.cpa
    }
    fn merge_operator(&self) -> &dyn MergeOperator<CompositeState, CompositePrecision> {
        &self.ops.merge
    }
    fn stop_operator(&self) -> &dyn StopOperator<CompositeState, CompositePrecision> {
        &self.cpa.stop
    }
    fn precision_adjustment(&self) -> &dyn PrecisionAdjustment<CompositeState, CompositePrecision> {
        &self.ops.prec
    }
    fn initial_state(&self, entry: NodeId) -> CompositeState {
        CompositeState { parts: self.cpa.inner.cpas.iter().map(|c| c.initial_state(entry)).collect() }
    }
    fn initial_precision(&self, entry: NodeId) -> CompositePrecision {
        CompositePrecision { parts: self.cpa.inner.cpas.iter().map(|c| c.initial_precision(entry)).collect() }
    }
    fn location(&self, state: &CompositeState) -> Option<NodeId> {
        self.cpa.inner.cpas.iter().enumerate().find_map(|(i, c)| c.location(&*state.parts[i]))
    }
    fn call_stack(&self, state: &CompositeState) -> Option<Vec<NodeId>> {
        self.cpa.inner.cpas.iter().enumerate().find_map(|(i, c)| c.call_stack(&*state.parts[i]))
    }
    fn is_target(&self, state: &CompositeState) -> bool {
        self.cpa.inner.cpas.iter().enumerate().any(|(i, c)| c.is_target(&*state.parts[i]))
    }
    /// The first component's solver oracle (components that ask a solver
    /// share the algorithm's single parking point).
    fn solver_oracle(&self) -> Option<Arc<crate::solver::SolverOracle>> {
        self.cpa.inner.cpas.iter().find_map(|c| c.solver_oracle())
    }
    /// The first component's report (one predicate analysis per composite).
    fn abstraction_report(&self, state: &CompositeState) -> Option<crate::state_view::AbstractionView> {
        self.cpa.inner.cpas.iter().enumerate().find_map(|(i, c)| c.abstraction_report(&*state.parts[i]))
    }
    /// The first component's report (one SymExec CPA per composite).
    fn abstraction_point_report(&self, state: &CompositeState) -> Option<crate::state_view::AbstractionPointView> {
        self.cpa.inner.cpas.iter().enumerate().find_map(|(i, c)| c.abstraction_point_report(&*state.parts[i]))
    }
    /// The components' words on how they decided ⊑, joined by `; `
    /// (`None` when no component has any).
    fn coverage_check(&self, covered: &CompositeState, covering: &CompositeState) -> Option<String> {
        let words: Vec<String> = (self.cpa.inner.cpas.iter().enumerate())
            .filter_map(|(i, c)| c.coverage_check(&*covered.parts[i], &*covering.parts[i]))
            .collect();
        (!words.is_empty()).then(|| words.join("; "))
    }
    /// Every component forgets its report; the first one is returned.
    fn take_prune_report(&self) -> Option<crate::state_view::PruneView> {
        self.cpa.inner.cpas.iter().fold(None, |first, c| {
            let r = c.take_prune_report();
            first.or(r)
        })
    }
    /// The meet of what each component knows (each narrows the range).
    /// Component-wise: each component reduces its own part.
    fn reduce(&self, state: &CompositeState, program: &cfa::Program, block: &crate::block::Block) -> CompositeState {
        let cpas = &self.cpa.inner.cpas;
        CompositeState { parts: cpas.iter().enumerate().map(|(i, c)| c.reduce(&*state.parts[i], program, block)).collect() }
    }
    /// Component-wise: each component expands its own part.
    fn expand(
        &self,
        entry: &CompositeState,
        exit: &CompositeState,
        program: &cfa::Program,
        block: &crate::block::Block,
    ) -> CompositeState {
        let cpas = &self.cpa.inner.cpas;
        let parts = cpas.iter().enumerate().map(|(i, c)| c.expand(&*entry.parts[i], &*exit.parts[i], program, block)).collect();
        CompositeState { parts }
    }
    fn var_range(&self, state: &CompositeState, var: cfa::VarId) -> crate::int_caveat::Range {
        self.cpa
            .inner
            .cpas
            .iter()
            .enumerate()
            .fold(crate::int_caveat::Range::TOP, |r, (i, c)| r.meet(c.var_range(&*state.parts[i], var)))
    }
    fn view(&self, state: &CompositeState) -> ComponentView {
        let text = self
            .cpa
            .inner
            .cpas
            .iter()
            .enumerate()
            .map(|(i, c)| c.view(&*state.parts[i]).content.to_string())
            .collect::<Vec<_>>()
            .join(" ");
        ComponentView { cpa: "CompositeCPA".into(), content: ViewContent::Text { text } }
    }
    fn state_view(&self, state: &CompositeState) -> StateView {
        StateView { components: composite_views(self, state) }
    }
    /// The component shapes, each prefixed by its length.
    fn index_shape(&self, state: &CompositeState) -> Vec<u32> {
        let mut out = Vec::new();
        for (i, c) in self.cpa.inner.cpas.iter().enumerate() {
            let s = c.index_shape(&*state.parts[i]);
            out.push(s.len() as u32);
            out.extend(s);
        }
        out
    }
    fn index_may_cover(&self, covered: &[u32], covering: &[u32]) -> bool {
        let (mut a, mut b) = (covered, covering);
        for c in self.cpa.inner.cpas.iter() {
            let (Some((&la, ra)), Some((&lb, rb))) = (a.split_first(), b.split_first()) else { return true };
            let (la, lb) = (la as usize, lb as usize);
            if ra.len() < la || rb.len() < lb {
                return true;
            }
            if !c.index_may_cover(&ra[..la], &rb[..lb]) {
                return false;
            }
            a = &ra[la..];
            b = &rb[lb..];
        }
        true
    }
    fn index_hash(&self, state: &CompositeState, shape: &[u32]) -> u64 {
        let mut rest = shape;
        let mut hashes = Vec::with_capacity(state.parts.len());
        for (i, c) in self.cpa.inner.cpas.iter().enumerate() {
            let part: &[u32] = match rest.split_first() {
                Some((&l, r)) if r.len() >= l as usize => {
                    rest = &r[l as usize..];
                    &r[..l as usize]
                }
                _ => &[],
            };
            hashes.push(c.index_hash(&*state.parts[i], part));
        }
        crate::cpa::stable_hash(&hashes)
    }
    /// Component-wise: each component's reduced precision.
    fn block_precision_key(
        &self,
        precision: &CompositePrecision,
        program: &cfa::Program,
        functions: &std::collections::BTreeSet<cfa::FuncId>,
    ) -> String {
        let cpas = &self.cpa.inner.cpas;
        (cpas.iter().enumerate())
            .map(|(i, c)| format!("{}: {}", c.name(), c.block_precision_key(&*precision.parts[i], program, functions)))
            .collect::<Vec<_>>()
            .join("; ")
    }
    fn describe_precision(&self, precision: &CompositePrecision) -> String {
        self.cpa
            .inner
            .cpas
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{}: {}", c.name(), c.describe_precision(&*precision.parts[i])))
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// The per-component views of a composite state (what the trace records).
pub fn composite_views(analysis: &CompositeAnalysis, state: &CompositeState) -> Vec<ComponentView> {
    analysis.cpa.inner.cpas.iter().enumerate().map(|(i, c)| c.view(&*state.parts[i])).collect()
}
