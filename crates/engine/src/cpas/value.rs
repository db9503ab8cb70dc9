//! The Value CPA (CPAchecker's explicit-value analysis,
//! `cpa.value.ValueAnalysisCPA`): each state is a *partial* map from
//! variables to integers; a variable without a binding may hold any value (⊤).
//!
//! ```text
//!           ⊤ = {}              (nothing known)
//!        /    |     \
//!   {x=0}   {x=1}  {y=5} …
//!      \    /   \   /
//!   {x=0,y=5}  {x=1,y=5} …      (more bindings = more precise)
//! ```
//!
//! * Order: `e ⊑ e'` iff every binding of `e'` is also in `e`.
//! * Join: `e ⊔ e'` keeps the bindings on which both agree.
//! * Transfer: an assignment evaluates the right-hand side with
//!   [`cfa::Expr::eval`] when all operands are known, otherwise (or when the
//!   operation has no defined result, e.g. division by zero) the variable
//!   is forgotten; `Nondet` and uninitialized declarations forget. An
//!   assumption is decided when its operands are known (no successor when
//!   false); an unknown `x == c` (either side, also `!(x != c)`) binds
//!   `x := c`. Calls assign parameters from arguments; returns assign the
//!   result from the callee's return slot.
//! * Recursion: a call saves the callee's variables of the caller's
//!   activation in a frame, a return restores them (so a recursive
//!   activation cannot clobber the caller's locals).
//! * Precision: the tracked variables (`cpa.value.precision =
//!   FULL|EMPTY`), for CEGAR per location ([`TrackingPrecision::Refined`],
//!   `π(l)` grown by explicit-value interpolation); the precision
//!   adjustment forgets the variables `π(l)` does not track at the state's
//!   location `l`.
//! * Merge: merge^sep (the default, as in CPAchecker) or merge^join
//!   (`cpa.value.merge`). Stop: stop^sep.
//!
//! Both integer models: values are computed by `cfa`'s semantics for the
//! run's [`IntModel`], so the analysis is sound for the model it reports.

use crate::cpa::{
    AbstractDomain, Cpa, MergeJoin, MergeOperator, MergeSep, PrecisionAdjustment, StopOperator, StopSep, TransferError,
    TransferRelation,
};
use crate::precision::TrackingPrecision;
use crate::state_view::{ComponentView, ValueBinding, ViewContent};
use cfa::{BinOp, Edge, EdgeKind, Expr, NodeId, Program, Rhs, UnOp, VarId};
use minic::IntModel;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A partial assignment of variables to values.
pub type Bindings = BTreeMap<VarId, i128>;

/// An explicit-value state: known variable values, plus the saved
/// variables of the suspended activations (one frame per active call).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ValueState {
    /// The known values; absent = ⊤.
    pub values: Bindings,
    /// For each active call, the callee's variables as they were in the
    /// caller's context (restored on return). An empty list on a state
    /// inside a call means "unknown": the return then forgets them.
    pub frames: Vec<Bindings>,
}

impl ValueState {
    /// The value of `var`, if known.
    pub fn get(&self, var: VarId) -> Option<i128> {
        self.values.get(&var).copied()
    }
}

fn bindings_leq(a: &Bindings, b: &Bindings) -> bool {
    b.len() <= a.len() && b.iter().all(|(k, v)| a.get(k) == Some(v))
}

fn bindings_join(a: &Bindings, b: &Bindings) -> Bindings {
    let (small, large) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    small.iter().filter(|(k, v)| large.get(k) == Some(v)).map(|(k, v)| (*k, *v)).collect()
}

/// The explicit-value domain (partial maps ordered by reverse inclusion).
#[derive(Clone, Copy, Debug, Default)]
pub struct ValueDomain;

impl AbstractDomain for ValueDomain {
    type State = ValueState;
    /// `a ⊑ b` iff every binding of `b` is in `a` (and likewise for the saved
    /// frames; an empty frame list in `b` is the ⊤ of frames).
    fn is_less_or_equal(&self, a: &ValueState, b: &ValueState) -> bool {
        if !bindings_leq(&a.values, &b.values) {
            return false;
        }
        b.frames.is_empty()
            || (a.frames.len() == b.frames.len() && a.frames.iter().zip(&b.frames).all(|(x, y)| bindings_leq(x, y)))
    }
    /// Keeps the bindings on which both agree.
    fn join(&self, a: &ValueState, b: &ValueState) -> ValueState {
        let frames = if a.frames.len() == b.frames.len() {
            a.frames.iter().zip(&b.frames).map(|(x, y)| bindings_join(x, y)).collect()
        } else {
            Vec::new()
        };
        ValueState { values: bindings_join(&a.values, &b.values), frames }
    }
}

/// The Value CPA's options (`cpa.value.*`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueOptions {
    /// `cpa.value.merge`: merge^join instead of merge^sep.
    pub merge_join: bool,
    /// `cpa.value.precision`: the initial precision.
    pub precision: TrackingPrecision,
    /// `analysis.intModel`.
    pub int_model: IntModel,
}

impl Default for ValueOptions {
    fn default() -> Self {
        ValueOptions { merge_join: false, precision: TrackingPrecision::Full, int_model: IntModel::Math }
    }
}

/// The Value CPA over one program.
pub struct ValueCpa {
    program: Arc<Program>,
    options: ValueOptions,
    merge_sep: MergeSep,
    merge_join: MergeJoin<ValueDomain>,
    stop: StopSep<ValueDomain>,
}

impl ValueCpa {
    /// The Value CPA of `program` with `options`.
    pub fn new(program: Arc<Program>, options: ValueOptions) -> Self {
        ValueCpa { program, options, merge_sep: MergeSep, merge_join: MergeJoin(ValueDomain), stop: StopSep(ValueDomain) }
    }

    fn eval(&self, state: &ValueState, e: &Expr) -> Option<i128> {
        // An evaluation error (division by zero, bad shift) yields an
        // arbitrary value: forget.
        e.eval(self.options.int_model, &mut |v| state.get(v)).ok().flatten()
    }

    fn assign(&self, state: &mut ValueState, var: VarId, value: Option<i128>) {
        let ty = self.program.variables.get(var.0 as usize).map(|v| v.ty);
        match (value, ty) {
            (Some(v), Some(ty)) => {
                state.values.insert(var, ty.convert(v, self.options.int_model));
            }
            _ => {
                state.values.remove(&var);
            }
        }
    }

    fn rhs(&self, state: &ValueState, rhs: &Rhs) -> Option<i128> {
        match rhs {
            Rhs::Expr(e) => self.eval(state, e),
            // A read of memory or a new object: memory is not tracked.
            Rhs::Nondet(_) | Rhs::Load { .. } | Rhs::Alloc { .. } => None,
        }
    }

    /// Decides `[cond]` (`positive`) or `[!(cond)]`: `None` = infeasible,
    /// otherwise the (possibly strengthened) state.
    fn assume(&self, state: &ValueState, cond: &Expr, positive: bool) -> Option<ValueState> {
        match cond.eval(self.options.int_model, &mut |v| state.get(v)) {
            Ok(Some(v)) => ((v != 0) == positive).then(|| state.clone()),
            Ok(None) | Err(_) => {
                let mut next = state.clone();
                if let Some((var, c)) = self.implied_equality(state, cond, positive) {
                    // `var == c` must hold: bind it (if `c` fits the type,
                    // otherwise the assumption cannot hold).
                    let ty = self.program.variables.get(var.0 as usize).map(|v| v.ty);
                    if let Some(ty) = ty {
                        if ty.convert(c, self.options.int_model) != c {
                            return None;
                        }
                        next.values.insert(var, c);
                    }
                }
                Some(next)
            }
        }
    }

    /// If assuming `cond` with polarity `positive` implies `x == c` for an
    /// unknown variable `x` and a known `c`, returns `(x, c)`.
    fn implied_equality(&self, state: &ValueState, cond: &Expr, positive: bool) -> Option<(VarId, i128)> {
        match cond {
            Expr::Unary { op: UnOp::LogNot, arg, .. } => self.implied_equality(state, arg, !positive),
            Expr::Binary { op, lhs, rhs, .. } => {
                let is_eq = (*op == BinOp::Eq && positive) || (*op == BinOp::Ne && !positive);
                if !is_eq {
                    return None;
                }
                let try_side = |var_side: &Expr, other: &Expr| -> Option<(VarId, i128)> {
                    if let Expr::Var { var, ty } = var_side {
                        if state.get(*var).is_none() && self.program.variables.get(var.0 as usize).is_some_and(|v| v.ty == *ty) {
                            return self.eval(state, other).map(|c| (*var, c));
                        }
                    }
                    None
                };
                try_side(lhs, rhs).or_else(|| try_side(rhs, lhs))
            }
            _ => None,
        }
    }
}

impl TransferRelation for ValueCpa {
    type State = ValueState;
    type Precision = TrackingPrecision;

    fn successors(&self, state: &ValueState, edge: &Edge, _p: &TrackingPrecision) -> Result<Vec<ValueState>, TransferError> {
        let mut next = state.clone();
        match &edge.kind {
            // Memory is not a variable: a store or `free` changes none.
            EdgeKind::Blank | EdgeKind::Terminate | EdgeKind::ReachError | EdgeKind::Store { .. } | EdgeKind::Free { .. } => {}
            EdgeKind::Declare { var, init } => {
                let v = init.as_ref().and_then(|r| self.rhs(state, r));
                self.assign(&mut next, *var, v);
            }
            EdgeKind::Assign { var, rhs } => {
                let v = self.rhs(state, rhs);
                self.assign(&mut next, *var, v);
            }
            EdgeKind::Assume { cond, positive } => {
                return Ok(self.assume(state, cond, *positive).into_iter().collect());
            }
            EdgeKind::Call { callee, args, .. } => {
                let arg_values: Vec<Option<i128>> = args.iter().map(|a| self.eval(state, a)).collect();
                let vars = self.program.frame_variables(*callee);
                let saved: Bindings = vars.iter().filter_map(|v| state.get(*v).map(|x| (*v, x))).collect();
                for v in &vars {
                    next.values.remove(v);
                }
                next.frames.push(saved);
                let params = self.program.functions.get(callee.0 as usize).map(|f| f.params.clone()).unwrap_or_default();
                for (p, a) in params.iter().zip(arg_values) {
                    self.assign(&mut next, *p, a);
                }
            }
            EdgeKind::Return { callee, result, .. } => {
                let ret = self.program.functions.get(callee.0 as usize).and_then(|f| f.ret);
                let value = ret.and_then(|r| state.get(r));
                for v in self.program.frame_variables(*callee) {
                    next.values.remove(&v);
                }
                if let Some(saved) = next.frames.pop() {
                    next.values.extend(saved);
                }
                if let Some(res) = result {
                    self.assign(&mut next, *res, value);
                }
            }
            EdgeKind::ReturnStatement { value } => {
                let slot = self.program.return_slot_at(edge.source);
                if let Some(slot) = slot {
                    let v = value.as_ref().and_then(|e| self.eval(state, e));
                    self.assign(&mut next, slot, v);
                }
            }
        }
        Ok(vec![next])
    }
}

/// The Value CPA's precision adjustment: forget every untracked variable.
#[derive(Clone, Copy, Debug, Default)]
pub struct ValuePrecisionAdjustment;

impl PrecisionAdjustment<ValueState, TrackingPrecision> for ValuePrecisionAdjustment {
    fn prec(&self, state: &ValueState, precision: &TrackingPrecision) -> (ValueState, TrackingPrecision) {
        self.prec_at(state, precision, None)
    }
    /// Forgets the variables `π(location)` does not track (in the current
    /// activation and in the saved frames).
    fn prec_at(
        &self,
        state: &ValueState,
        precision: &TrackingPrecision,
        location: Option<NodeId>,
    ) -> (ValueState, TrackingPrecision) {
        if matches!(precision, TrackingPrecision::Full) {
            return (state.clone(), precision.clone());
        }
        let keep = |k: &VarId| precision.tracks_at(location, *k);
        if state.values.keys().all(keep) && state.frames.iter().all(|f| f.keys().all(keep)) {
            return (state.clone(), precision.clone());
        }
        let mut s = state.clone();
        s.values.retain(|k, _| keep(k));
        for f in &mut s.frames {
            f.retain(|k, _| keep(k));
        }
        (s, precision.clone())
    }
}

impl Cpa for ValueCpa {
    type State = ValueState;
    type Precision = TrackingPrecision;
    fn name(&self) -> &'static str {
        "ValueAnalysisCPA"
    }
    fn domain(&self) -> &dyn AbstractDomain<State = ValueState> {
        &ValueDomain
    }
    fn transfer_relation(&self) -> &dyn TransferRelation<State = ValueState, Precision = TrackingPrecision> {
        self
    }
    fn merge_operator(&self) -> &dyn MergeOperator<ValueState, TrackingPrecision> {
        if self.options.merge_join {
            &self.merge_join
        } else {
            &self.merge_sep
        }
    }
    fn stop_operator(&self) -> &dyn StopOperator<ValueState, TrackingPrecision> {
        &self.stop
    }
    fn precision_adjustment(&self) -> &dyn PrecisionAdjustment<ValueState, TrackingPrecision> {
        &ValuePrecisionAdjustment
    }
    fn initial_state(&self, _entry: NodeId) -> ValueState {
        ValueState::default()
    }
    fn initial_precision(&self, _entry: NodeId) -> TrackingPrecision {
        self.options.precision.clone()
    }
    /// BAM: only the variables the block can see stay
    /// ([`crate::block::Block::sees`]: for a function block the globals and
    /// the function's own variables — parameters, locals, return slot,
    /// temporaries; for a loop block the variables it reads or writes); the
    /// suspended activations' frames are dropped (the block never returns
    /// past its exit).
    fn reduce(&self, state: &ValueState, _program: &Program, block: &crate::block::Block) -> ValueState {
        let values = state.values.iter().filter(|(v, _)| block.sees(**v)).map(|(v, x)| (*v, *x)).collect();
        ValueState { values, frames: Vec::new() }
    }
    /// BAM: the variables the block sees from the exit state, the others
    /// (which the block cannot change) from the entry.
    fn expand(&self, entry: &ValueState, exit: &ValueState, _program: &Program, block: &crate::block::Block) -> ValueState {
        let mut values: Bindings = entry.values.iter().filter(|(v, _)| !block.sees(**v)).map(|(v, x)| (*v, *x)).collect();
        values.extend(exit.values.iter().filter(|(v, _)| block.sees(**v)).map(|(v, x)| (*v, *x)));
        let mut frames = entry.frames.clone();
        frames.extend(exit.frames.iter().cloned());
        ValueState { values, frames }
    }
    /// A known value is exact; an untracked one is ⊤.
    fn var_range(&self, state: &ValueState, var: VarId) -> crate::int_caveat::Range {
        state.get(var).map_or(crate::int_caveat::Range::TOP, crate::int_caveat::Range::exact)
    }
    fn view(&self, state: &ValueState) -> ComponentView {
        let values = state
            .values
            .iter()
            .map(|(var, value)| ValueBinding {
                var: *var,
                name: self
                    .program
                    .variables
                    .get(var.0 as usize)
                    .map(|v| v.qualified.clone())
                    .unwrap_or_else(|| format!("v{}", var.0)),
                value: *value,
            })
            .collect();
        ComponentView { cpa: "ValueAnalysisCPA".into(), content: ViewContent::Values { values } }
    }
    /// The variables with a known value (sorted): `e ⊑ e'` needs
    /// `dom(e') ⊆ dom(e)`.
    fn index_shape(&self, state: &ValueState) -> Vec<u32> {
        state.values.keys().map(|v| v.0).collect()
    }
    fn index_may_cover(&self, covered: &[u32], covering: &[u32]) -> bool {
        // covering ⊆ covered (both sorted)
        let mut it = covered.iter();
        covering.iter().all(|v| it.any(|w| w == v))
    }
    /// The hash of the bindings of `shape`'s variables (e ⊑ e' means e
    /// agrees with e' on dom(e')).
    fn index_hash(&self, state: &ValueState, shape: &[u32]) -> u64 {
        let bindings: Vec<(u32, Option<i128>)> = shape.iter().map(|v| (*v, state.get(VarId(*v)))).collect();
        crate::cpa::stable_hash(&bindings)
    }
    fn block_precision_key(
        &self,
        precision: &TrackingPrecision,
        program: &Program,
        functions: &std::collections::BTreeSet<cfa::FuncId>,
    ) -> String {
        precision.block_key(program, functions)
    }
    fn describe_precision(&self, precision: &TrackingPrecision) -> String {
        precision.describe(&self.program, |v| {
            self.program.variables.get(v.0 as usize).map(|x| x.qualified.clone()).unwrap_or_default()
        })
    }
}
