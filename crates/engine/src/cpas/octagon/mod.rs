//! The Octagon CPA (CPAchecker's `cpa.octagon.OctagonCPA`): each state is an
//! octagon — a conjunction of constraints `±x ± y ≤ c` and `±x ≤ c` — over
//! the program's variables (one dimension per [`cfa::VarId`]), from
//! [`domains::Octagon`].
//!
//! * Domain: `e ⊑ e'` iff `γ(e) ⊆ γ(e')` (decided on closed DBMs); `e ⊔ e'`
//!   is the octagon hull.
//! * Transfer relation: program expressions ([`cfa::Expr`]) are evaluated to
//!   a pair *(exact linear form, sound interval)*:
//!   - `x := ±y + c`, `x := c`: exact (one DBM cell pair);
//!   - other linear right-hand sides: the domain's linear assignment (sound);
//!   - non-linear ones (`x*y`, `/`, `%`, bit operations, shifts): the
//!     interval of the right-hand side, computed from the octagon's bounds;
//!   - `Nondet` and uninitialized declarations forget the variable (under
//!     the `c` model they then constrain it to its type's range);
//!   - `[cond]`: exact for octagonal comparisons `±x ± y ⋈ c` (`==`, `!=`,
//!     `<`, `<=`, `>`, `>=`, after moving everything to one side); otherwise
//!     the side without a linear form becomes a fresh temporary dimension
//!     bounded by its interval, so the guard can only over-approximate —
//!     it never drops a feasible successor;
//!   - calls assign parameters from arguments (through temporaries, so
//!     `f(n - 1)` inside `f` is exact), returns assign the result from the
//!     callee's return slot and restore the callee's variables of the caller's
//!     activation (saved on the call, as the Value CPA does, so recursion is
//!     sound).
//! * Integer models: under `math` values are unbounded. Under `c` every
//!   operation's interval is checked against its C type: when it fits, the
//!   linear form is exact; when the whole interval wraps by the same multiple
//!   of 2^bits, the linear form is shifted by it (still exact, e.g.
//!   `0u - 1 = 4294967295`); otherwise the relation is dropped and the value
//!   is only known to lie in the type's range. Casts are conversions of the
//!   same kind, so guards on casted or unsigned comparisons stay sound.
//!   Two refinements keep relations across a possible wrap: an assignment
//!   whose top-level `+`, `-`, `*`, unary `-` or cast spans exactly two wrap
//!   windows (`w + 1` for any unsigned `w`) yields two successors, one per
//!   window, each exact; a comparison on such a cast (`(unsigned) x < 5u`)
//!   is guarded per window and the parts are joined.
//! * Merge (`cpa.octagon.mergeop.type`): merge^sep (`e'`), merge^join
//!   (`e ⊔ e'`) or merge^widening (`e' ∇ (e ⊔ e')`, CPAchecker's octagon
//!   widening merge, with thresholds from the program's constants when
//!   `cpa.octagon.wideningThresholds = true`); with
//!   `cpa.octagon.mergeop.onlyMergeAtLoopHeads = true` the operator applies
//!   only at CFA loop heads and merge^sep elsewhere. Stop: stop^sep.
//! * Precision: the tracked variables (all by default; `cpa.octagon.precision
//!   = EMPTY` starts with none and lets CEGAR refine them per location,
//!   [`TrackingPrecision::Refined`]); the precision adjustment forgets the
//!   variables `π(l)` does not track at the state's location `l`.
//!
//! Files: `state.rs` (the states and the domain ⊑, ⊔), `expr.rs` (program
//! expressions as an exact linear form plus a sound interval), `transfer.rs`
//! (the transfer relation: assignments, guards, calls and returns),
//! `merge.rs` (merge^sep / join / widening and the widening thresholds),
//! `precision.rs` (the precision adjustment), `view.rs` (the state as the
//! UI shows it); the CPA itself and its options are here.

mod expr;
mod merge;
mod precision;
mod state;
mod transfer;
mod view;

pub use merge::{program_thresholds, OctagonMerge};
pub use precision::OctagonPrecisionAdjustment;
pub use state::{OctagonDomain, OctagonState};
pub(crate) use transfer::comparison_cmp;

use crate::cpa::{
    AbstractDomain, Cpa, MergeKind, MergeOperator, PrecisionAdjustment, StopOperator, StopSep, TransferError, TransferRelation,
};
use crate::precision::TrackingPrecision;
use crate::state_view::{ComponentView, OctagonView, VarBounds, ViewContent};
use cfa::{BinOp, Edge, EdgeKind, Expr, FuncId, NodeId, Program, Rhs, UnOp, VarId};
use domains::octagon::Dbm;
use domains::{Cmp, Interval, LinExpr, Octagon};
use expr::{itv_i128, type_range, AVal, Lin};
use minic::types::{IntModel, IntType};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// The Octagon CPA's options (`cpa.octagon.*`, `analysis.intModel`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OctagonOptions {
    /// `cpa.octagon.mergeop.type`.
    pub merge: MergeKind,
    /// `cpa.octagon.mergeop.onlyMergeAtLoopHeads`.
    pub only_merge_at_loop_heads: bool,
    /// `cpa.octagon.wideningThresholds`: widen through the program's
    /// constants (± 1) before jumping to ∞.
    pub widening_thresholds: bool,
    /// `analysis.intModel`.
    pub int_model: IntModel,
    /// The initial precision π₀ (`cpa.octagon.precision`: all variables,
    /// or a refined one for CEGAR).
    pub precision: TrackingPrecision,
}

impl Default for OctagonOptions {
    fn default() -> Self {
        OctagonOptions {
            merge: MergeKind::Sep,
            only_merge_at_loop_heads: false,
            widening_thresholds: true,
            int_model: IntModel::Math,
            precision: TrackingPrecision::Full,
        }
    }
}

/// The Octagon CPA over one program.
pub struct OctagonCpa {
    program: Arc<Program>,
    options: OctagonOptions,
    merge: OctagonMerge,
    stop: StopSep<OctagonDomain>,
    /// Display names of the dimensions (short names where unique).
    names: Vec<String>,
    prec_adj: OctagonPrecisionAdjustment,
}

impl OctagonCpa {
    /// The Octagon CPA of `program` with `options`.
    pub fn new(program: Arc<Program>, options: OctagonOptions) -> Self {
        let thresholds = if options.widening_thresholds { program_thresholds(&program) } else { Vec::new() };
        let merge = OctagonMerge {
            kind: options.merge,
            only_at_loop_heads: options.only_merge_at_loop_heads,
            thresholds: Arc::new(thresholds),
        };
        let mut count: BTreeMap<&str, usize> = BTreeMap::new();
        for v in &program.variables {
            *count.entry(v.name.as_str()).or_insert(0) += 1;
        }
        let names = program
            .variables
            .iter()
            .map(|v| if count[v.name.as_str()] == 1 { v.name.clone() } else { v.qualified.clone() })
            .collect();
        let mut cpa = OctagonCpa {
            program,
            options,
            merge,
            stop: StopSep(OctagonDomain),
            names,
            prec_adj: OctagonPrecisionAdjustment::new(Vec::new()),
        };
        cpa.prec_adj = OctagonPrecisionAdjustment::new(cpa.program.variables.iter().map(|v| cpa.unknown_of(v.ty)).collect());
        cpa
    }

    /// The widening thresholds in use (sorted).
    pub fn thresholds(&self) -> &[i64] {
        &self.merge.thresholds
    }

    pub(super) fn n(&self) -> usize {
        self.program.variables.len()
    }

    pub(super) fn c_model(&self) -> bool {
        self.options.int_model == IntModel::C
    }

    pub(super) fn var_ty(&self, v: VarId) -> IntType {
        self.program.variables.get(v.0 as usize).map(|x| x.ty).unwrap_or(IntType::Int)
    }

    /// The values a variable of type `ty` may hold when nothing else is
    /// known: its range under `c`, any integer under `math` (0/1 for `_Bool`).
    pub(super) fn unknown_of(&self, ty: IntType) -> Interval {
        if self.c_model() {
            type_range(ty)
        } else if ty == IntType::Bool {
            Interval::range(0, 1)
        } else {
            Interval::TOP
        }
    }

    /// The initial octagon: ⊤, and under `c` every variable in its type's range.
    pub(super) fn initial_octagon(&self) -> Octagon {
        let mut o = Octagon::top(self.n());
        if self.c_model() {
            for v in 0..self.n() {
                let itv = type_range(self.var_ty(VarId(v as u32)));
                o.assign_interval(v, itv);
            }
        }
        o
    }
}

impl Cpa for OctagonCpa {
    type State = OctagonState;
    type Precision = TrackingPrecision;
    fn name(&self) -> &'static str {
        "OctagonCPA"
    }
    fn domain(&self) -> &dyn AbstractDomain<State = OctagonState> {
        &OctagonDomain
    }
    fn transfer_relation(&self) -> &dyn TransferRelation<State = OctagonState, Precision = TrackingPrecision> {
        self
    }
    fn merge_operator(&self) -> &dyn MergeOperator<OctagonState, TrackingPrecision> {
        &self.merge
    }
    fn stop_operator(&self) -> &dyn StopOperator<OctagonState, TrackingPrecision> {
        &self.stop
    }
    fn precision_adjustment(&self) -> &dyn PrecisionAdjustment<OctagonState, TrackingPrecision> {
        &self.prec_adj
    }
    fn initial_state(&self, entry: NodeId) -> OctagonState {
        OctagonState {
            octagon: self.initial_octagon(),
            frames: Vec::new(),
            at_loop_head: self.program.nodes.get(entry.0 as usize).is_some_and(|n| n.loop_head),
        }
    }
    fn initial_precision(&self, _entry: NodeId) -> TrackingPrecision {
        self.options.precision.clone()
    }
    /// The octagon's projection on `var` (exact on the closed form).
    fn var_range(&self, state: &OctagonState, var: VarId) -> crate::int_caveat::Range {
        if (var.0 as usize) >= state.octagon.vars() {
            return crate::int_caveat::Range::TOP;
        }
        let iv = state.octagon.interval(var.0 as usize);
        crate::int_caveat::Range { lo: iv.lo().map(i128::from), hi: iv.hi().map(i128::from) }
    }
    fn view(&self, state: &OctagonState) -> ComponentView {
        ComponentView { cpa: "OctagonCPA".into(), content: ViewContent::Octagon { octagon: self.octagon_view(state) } }
    }
    fn block_precision_key(
        &self,
        precision: &TrackingPrecision,
        program: &cfa::Program,
        functions: &std::collections::BTreeSet<cfa::FuncId>,
    ) -> String {
        precision.block_key(program, functions)
    }
    fn describe_precision(&self, precision: &TrackingPrecision) -> String {
        match precision {
            TrackingPrecision::Full => "all variables".into(),
            TrackingPrecision::Refined(p) => p.describe(&self.program),
            TrackingPrecision::Tracked(t) => {
                let names: Vec<String> = t.iter().map(|v| self.names.get(v.0 as usize).cloned().unwrap_or_default()).collect();
                format!("{{{}}}", names.join(", "))
            }
        }
    }
}
