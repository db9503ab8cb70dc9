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
//!   [`OctagonPrecision::Refined`]); the precision adjustment forgets the
//!   variables `π(l)` does not track at the state's location `l`.

use crate::cpa::{
    AbstractDomain, Cpa, MergeOperator, PrecisionAdjustment, StopOperator, StopSep, TransferError, TransferRelation,
};
use crate::precision::VarPrecision;
use crate::trace::{ComponentView, MergeKind, OctagonView, VarBounds, ViewContent};
use cfa::{BinOp, Edge, EdgeKind, Expr, FuncId, NodeId, Program, Rhs, UnOp, VarId};
use domains::octagon::Dbm;
use domains::{Cmp, Interval, LinExpr, Octagon};
use minic::types::{IntModel, IntType};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// An octagon state: the octagon over all program variables, the saved
/// callee variables of each suspended activation, and whether the state sits
/// at a loop head (for `onlyMergeAtLoopHeads`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OctagonState {
    /// The octagon; dimension `i` is the variable `VarId(i)`.
    pub octagon: Octagon,
    /// For each active call (innermost last): the octagon projected on the
    /// callee's variables (parameters, locals, return slot) as they were in
    /// the caller's context; restored on return. Empty while inside a call
    /// means "unknown" (the return then forgets them).
    pub frames: Vec<Octagon>,
    /// Whether the state's location is a loop head.
    pub at_loop_head: bool,
}

/// The octagon domain lifted to [`OctagonState`]s.
#[derive(Clone, Copy, Debug, Default)]
pub struct OctagonDomain;

impl AbstractDomain for OctagonDomain {
    type State = OctagonState;
    /// `γ(a) ⊆ γ(b)` (on the octagons and the saved frames; an empty frame
    /// list in `b` is the ⊤ of frames). Frames of different activations
    /// (different variable sets, possible only without the Callstack CPA,
    /// which configuration validation requires for programs with calls)
    /// are incomparable.
    fn is_less_or_equal(&self, a: &OctagonState, b: &OctagonState) -> bool {
        a.octagon.vars() == b.octagon.vars()
            && a.octagon.leq(&b.octagon)
            && (b.frames.is_empty()
                || (a.frames.len() == b.frames.len()
                    && a.frames.iter().zip(&b.frames).all(|(x, y)| x.vars() == y.vars() && x.leq(y))))
    }
    /// The octagon hull, frame by frame.
    fn join(&self, a: &OctagonState, b: &OctagonState) -> OctagonState {
        OctagonState {
            octagon: a.octagon.join(&b.octagon),
            frames: join_frames(&a.frames, &b.frames),
            at_loop_head: b.at_loop_head,
        }
    }
}

/// The frames of `a ⊔ b`, pairwise; the ⊤ of frames (none: the return
/// forgets the callee's variables) when the stacks differ in height or in a
/// frame's variables.
fn join_frames(a: &[Octagon], b: &[Octagon]) -> Vec<Octagon> {
    if a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.vars() == y.vars()) {
        a.iter().zip(b).map(|(x, y)| x.join(y)).collect()
    } else {
        Vec::new()
    }
}

/// The Octagon CPA's merge operator: merge^sep, merge^join or
/// merge^widening, optionally only at loop heads.
#[derive(Clone, Debug)]
pub struct OctagonMerge {
    /// The operator (`cpa.octagon.mergeop.type`).
    pub kind: MergeKind,
    /// `cpa.octagon.mergeop.onlyMergeAtLoopHeads`.
    pub only_at_loop_heads: bool,
    /// Widening thresholds (sorted, ascending); empty = standard widening.
    pub thresholds: Arc<Vec<i64>>,
}

impl MergeOperator<OctagonState, OctagonPrecision> for OctagonMerge {
    fn kind(&self) -> MergeKind {
        self.kind
    }
    /// merge^sep away from loop heads when `onlyMergeAtLoopHeads` is set.
    fn kind_for(&self, _new: &OctagonState, reached: &OctagonState) -> MergeKind {
        if self.only_at_loop_heads && !reached.at_loop_head {
            MergeKind::Sep
        } else {
            self.kind
        }
    }
    /// merge^sep(e, e') = e'; merge^join(e, e') = e ⊔ e';
    /// merge^widening(e, e') = e' ∇ (e ⊔ e'). When `e ⊑ e'` every operator
    /// returns `e'` itself (nothing to add).
    fn merge(&self, new: &OctagonState, reached: &OctagonState, _p: &OctagonPrecision) -> OctagonState {
        let kind = self.kind_for(new, reached);
        if kind == MergeKind::Sep || OctagonDomain.is_less_or_equal(new, reached) {
            return reached.clone();
        }
        let joined = OctagonDomain.join(new, reached);
        match kind {
            MergeKind::Join => joined,
            _ => OctagonState {
                octagon: reached.octagon.widen_with_thresholds(&joined.octagon, &self.thresholds),
                frames: joined.frames,
                at_loop_head: reached.at_loop_head,
            },
        }
    }
}

/// The precision of the Octagon CPA: which variables the octagon tracks
/// (where).
#[derive(Clone, Debug)]
pub enum OctagonPrecision {
    /// Every variable.
    Full,
    /// Only these (the others are forgotten by the precision adjustment).
    Tracked(BTreeSet<VarId>),
    /// Per location, what CEGAR's refinements found necessary (`π(l)`, see
    /// [`VarPrecision`]); shared by all states of a run.
    Refined(Arc<VarPrecision>),
}

impl PartialEq for OctagonPrecision {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (OctagonPrecision::Full, OctagonPrecision::Full) => true,
            (OctagonPrecision::Tracked(a), OctagonPrecision::Tracked(b)) => a == b,
            (OctagonPrecision::Refined(a), OctagonPrecision::Refined(b)) => Arc::ptr_eq(a, b) || a == b,
            _ => false,
        }
    }
}

impl Eq for OctagonPrecision {}

impl OctagonPrecision {
    /// Whether the octagon keeps `var` at `location`.
    pub fn tracks_at(&self, location: Option<NodeId>, var: VarId) -> bool {
        match self {
            OctagonPrecision::Full => true,
            OctagonPrecision::Tracked(t) => t.contains(&var),
            OctagonPrecision::Refined(p) => p.tracks(location, var),
        }
    }
}

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
    pub precision: OctagonPrecision,
}

impl Default for OctagonOptions {
    fn default() -> Self {
        OctagonOptions {
            merge: MergeKind::Sep,
            only_merge_at_loop_heads: false,
            widening_thresholds: true,
            int_model: IntModel::Math,
            precision: OctagonPrecision::Full,
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

// ---------------------------------------------------------------------------
// Abstract values: an exact linear form (if any) and a sound interval
// ---------------------------------------------------------------------------

/// `Σ aᵢ·xᵢ + c` with exact `i128` coefficients.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Lin {
    terms: BTreeMap<usize, i128>,
    c: i128,
}

const LIN_LIMIT: i128 = 1 << 100;

impl Lin {
    fn constant(c: i128) -> Lin {
        Lin { terms: BTreeMap::new(), c }
    }
    fn var(x: usize) -> Lin {
        Lin { terms: [(x, 1)].into_iter().collect(), c: 0 }
    }
    fn ok(self) -> Option<Lin> {
        (self.c.abs() < LIN_LIMIT && self.terms.values().all(|a| a.abs() < LIN_LIMIT)).then_some(self)
    }
    fn add(&self, o: &Lin, sign: i128) -> Option<Lin> {
        let mut out = self.clone();
        for (v, a) in &o.terms {
            *out.terms.entry(*v).or_insert(0) += sign * a;
        }
        out.terms.retain(|_, a| *a != 0);
        out.c += sign * o.c;
        out.ok()
    }
    fn scale(&self, k: i128) -> Option<Lin> {
        if k.abs() >= LIN_LIMIT {
            return None;
        }
        let mut out = Lin { terms: self.terms.iter().map(|(v, a)| (*v, a * k)).collect(), c: self.c * k };
        out.terms.retain(|_, a| *a != 0);
        out.ok()
    }
    fn to_linexpr(&self) -> Option<LinExpr> {
        let fits = |v: i128| v.abs() < (1i128 << 60);
        if !fits(self.c) || !self.terms.values().all(|a| fits(*a)) {
            return None;
        }
        Some(LinExpr::new(self.terms.iter().map(|(v, a)| (*v, *a as i64)).collect(), self.c as i64))
    }
}

/// The abstraction of an expression's value: `lin` (when present) equals the
/// value exactly on every point of the octagon; `itv` contains every value.
#[derive(Clone, Debug)]
struct AVal {
    lin: Option<Lin>,
    itv: Interval,
}

impl AVal {
    fn of_itv(itv: Interval) -> AVal {
        AVal { lin: None, itv }.normalized()
    }
    /// A singleton interval is an exact constant.
    fn normalized(mut self) -> AVal {
        if let Some(c) = self.itv.as_constant() {
            self.lin = Some(Lin::constant(c as i128));
        }
        self
    }
}

/// `[lo, hi]` from exact bounds; a side that does not fit the interval
/// encoding becomes unbounded (sound).
fn itv_i128(lo: Option<i128>, hi: Option<i128>) -> Interval {
    let lo = lo.and_then(|l| (l > i64::MIN as i128 + 1 && l < i64::MAX as i128 - 1).then_some(l as i64));
    let hi = hi.and_then(|h| (h > i64::MIN as i128 + 1 && h < i64::MAX as i128 - 1).then_some(h as i64));
    match (lo, hi) {
        (Some(l), Some(h)) if l > h => Interval::BOTTOM,
        _ => Interval::new(lo, hi),
    }
}

/// The values of a C type (bounds that do not fit the encoding are left open).
fn type_range(ty: IntType) -> Interval {
    itv_i128(Some(ty.min_value()), Some(ty.max_value()))
}

fn bool_of(itv: Interval) -> Interval {
    if itv.is_bottom() {
        itv
    } else if itv.as_constant() == Some(0) {
        Interval::constant(0)
    } else if !itv.contains(0) {
        Interval::constant(1)
    } else {
        Interval::range(0, 1)
    }
}

fn pow2(k: i128) -> Option<i128> {
    (0..=120).contains(&k).then(|| 1i128 << k)
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

    fn n(&self) -> usize {
        self.program.variables.len()
    }

    fn c_model(&self) -> bool {
        self.options.int_model == IntModel::C
    }

    fn var_ty(&self, v: VarId) -> IntType {
        self.program.variables.get(v.0 as usize).map(|x| x.ty).unwrap_or(IntType::Int)
    }

    /// The values a variable of type `ty` may hold when nothing else is
    /// known: its range under `c`, any integer under `math` (0/1 for `_Bool`).
    fn unknown_of(&self, ty: IntType) -> Interval {
        if self.c_model() {
            type_range(ty)
        } else if ty == IntType::Bool {
            Interval::range(0, 1)
        } else {
            Interval::TOP
        }
    }

    /// Conversion of a value to `ty` under the run's integer model.
    fn convert(&self, a: AVal, ty: IntType) -> AVal {
        if a.itv.is_bottom() {
            return a;
        }
        if ty == IntType::Bool {
            let b = bool_of(a.itv);
            if a.itv.leq(Interval::range(0, 1)) {
                return AVal { lin: a.lin, itv: a.itv }.normalized();
            }
            return AVal::of_itv(b);
        }
        if !self.c_model() {
            return a;
        }
        let (min, max) = (ty.min_value(), ty.max_value());
        if a.itv.fits_in(min, max) {
            return a;
        }
        let period = 1i128 << ty.bits();
        if let (Some(lo), Some(hi)) = (a.itv.lo(), a.itv.hi()) {
            let k = (lo as i128 - min).div_euclid(period);
            if k == (hi as i128 - min).div_euclid(period) {
                // The whole interval wraps by the same amount: still exact.
                let shift = -k * period;
                let itv = itv_i128(Some(lo as i128 + shift), Some(hi as i128 + shift));
                let lin = a.lin.and_then(|l| l.add(&Lin::constant(shift), 1));
                return AVal { lin, itv }.normalized();
            }
        }
        AVal::of_itv(a.itv.wrap_to(ty.bits(), ty.is_signed()).meet(type_range(ty)))
    }

    /// The abstract value of `e` over the octagon `o`.
    fn eval(&self, o: &Octagon, e: &Expr) -> AVal {
        match e {
            Expr::Const { value, .. } => {
                let itv = itv_i128(Some(*value), Some(*value));
                let lin = Lin::constant(*value).ok();
                AVal { lin, itv }
            }
            Expr::Var { var, .. } => {
                let d = var.0 as usize;
                if d >= o.vars() {
                    return AVal::of_itv(Interval::TOP);
                }
                AVal { lin: Some(Lin::var(d)), itv: o.interval(d) }.normalized()
            }
            Expr::Cast { ty, arg } => {
                let a = self.eval(o, arg);
                self.convert(a, *ty)
            }
            Expr::Unary { op, ty, arg } => match op {
                UnOp::Neg => {
                    let a = self.eval(o, arg);
                    let r = AVal { lin: a.lin.and_then(|l| l.scale(-1)), itv: a.itv.neg() }.normalized();
                    self.convert(r, *ty)
                }
                UnOp::BitNot => {
                    // ~v = −v − 1 on two's-complement integers.
                    let a = self.eval(o, arg);
                    let lin = a.lin.and_then(|l| l.scale(-1)).and_then(|l| l.add(&Lin::constant(-1), 1));
                    let r = AVal { lin, itv: a.itv.neg().add(Interval::constant(-1)) }.normalized();
                    self.convert(r, *ty)
                }
                UnOp::LogNot => {
                    let can_true = !self.assume(o, arg, false).is_bottom();
                    let can_false = !self.assume(o, arg, true).is_bottom();
                    AVal::of_itv(decided(can_true, can_false))
                }
            },
            Expr::Binary { op, ty, lhs, rhs } => {
                if op.is_comparison() {
                    let can_true = !self.assume(o, e, true).is_bottom();
                    let can_false = !self.assume(o, e, false).is_bottom();
                    return AVal::of_itv(decided(can_true, can_false));
                }
                let l = self.eval(o, lhs);
                let r = self.eval(o, rhs);
                let raw = self.arith(*op, *ty, &l, &r);
                self.convert(raw.normalized(), *ty)
            }
        }
    }

    /// `l op r` computed mathematically (before conversion to the type).
    fn arith(&self, op: BinOp, ty: IntType, l: &AVal, r: &AVal) -> AVal {
        let both = |f: &dyn Fn(&Lin, &Lin) -> Option<Lin>| match (&l.lin, &r.lin) {
            (Some(a), Some(b)) => f(a, b),
            _ => None,
        };
        match op {
            BinOp::Add => AVal { lin: both(&|a, b| a.add(b, 1)), itv: l.itv.add(r.itv) },
            BinOp::Sub => AVal { lin: both(&|a, b| a.add(b, -1)), itv: l.itv.sub(r.itv) },
            BinOp::Mul => {
                let lin = match (l.itv.as_constant(), r.itv.as_constant()) {
                    (Some(k), _) => r.lin.as_ref().and_then(|b| b.scale(k as i128)),
                    (_, Some(k)) => l.lin.as_ref().and_then(|a| a.scale(k as i128)),
                    _ => None,
                };
                AVal { lin, itv: l.itv.mul(r.itv) }
            }
            BinOp::Div | BinOp::Rem => {
                if r.itv.contains(0) {
                    // Division by zero has no defined result: arbitrary.
                    return AVal::of_itv(Interval::TOP);
                }
                let itv = if op == BinOp::Div { l.itv.div(r.itv) } else { l.itv.rem(r.itv) };
                AVal::of_itv(itv)
            }
            BinOp::Shl | BinOp::Shr => {
                let limit: i64 = if self.c_model() { ty.bits() as i64 } else { 127 };
                let (Some(k0), Some(k1)) = (r.itv.lo(), r.itv.hi()) else { return AVal::of_itv(Interval::TOP) };
                if k0 < 0 || k1 >= limit {
                    return AVal::of_itv(Interval::TOP);
                }
                if op == BinOp::Shl {
                    let (Some(p0), Some(p1)) = (pow2(k0 as i128), pow2(k1 as i128)) else {
                        return AVal::of_itv(Interval::TOP);
                    };
                    let factor = itv_i128(Some(p0), Some(p1));
                    let lin = if k0 == k1 { l.lin.as_ref().and_then(|a| a.scale(p0)) } else { None };
                    AVal { lin, itv: l.itv.mul(factor) }
                } else {
                    // x >> k = ⌊x / 2^k⌋: monotone in x and in k, so corners.
                    // (Finite bounds are below 2^63, so k ≥ 63 acts like 63.)
                    let shr = |x: i64, k: i64| (x as i128).div_euclid(1i128 << k.min(100));
                    let lo = l.itv.lo().map(|x| shr(x, k0).min(shr(x, k1)));
                    let hi = l.itv.hi().map(|x| shr(x, k0).max(shr(x, k1)));
                    AVal::of_itv(itv_i128(lo, hi))
                }
            }
            BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor => {
                if let (Some(a), Some(b)) = (l.itv.as_constant(), r.itv.as_constant()) {
                    let (a, b) = (a as i128, b as i128);
                    let v = match op {
                        BinOp::BitAnd => a & b,
                        BinOp::BitOr => a | b,
                        _ => a ^ b,
                    };
                    return AVal::of_itv(itv_i128(Some(v), Some(v)));
                }
                let nonneg = |i: Interval| i.lo().is_some_and(|x| x >= 0);
                let ones = |h: i64| -> i128 { (1i128 << (64 - (h as u64).leading_zeros())) - 1 };
                match op {
                    BinOp::BitAnd if nonneg(l.itv) && nonneg(r.itv) => {
                        let h = match (l.itv.hi(), r.itv.hi()) {
                            (Some(a), Some(b)) => Some(a.min(b) as i128),
                            (Some(a), None) | (None, Some(a)) => Some(a as i128),
                            _ => None,
                        };
                        AVal::of_itv(itv_i128(Some(0), h))
                    }
                    BinOp::BitAnd if nonneg(l.itv) => AVal::of_itv(itv_i128(Some(0), l.itv.hi().map(|h| h as i128))),
                    BinOp::BitAnd if nonneg(r.itv) => AVal::of_itv(itv_i128(Some(0), r.itv.hi().map(|h| h as i128))),
                    BinOp::BitOr | BinOp::BitXor if nonneg(l.itv) && nonneg(r.itv) => {
                        let h = match (l.itv.hi(), r.itv.hi()) {
                            (Some(a), Some(b)) => Some(ones(a.max(b))),
                            _ => None,
                        };
                        AVal::of_itv(itv_i128(Some(0), h))
                    }
                    _ => AVal::of_itv(Interval::TOP),
                }
            }
            // Comparisons are handled by the caller.
            _ => AVal::of_itv(Interval::range(0, 1)),
        }
    }

    /// Adds the value to `o` as a linear expression: its exact form, or a
    /// fresh temporary dimension bounded by its interval (pushed on `temps`).
    fn materialize(&self, o: &mut Octagon, a: &AVal, temps: &mut Vec<usize>) -> Option<Lin> {
        if let Some(l) = &a.lin {
            if l.to_linexpr().is_some() {
                return Some(l.clone());
            }
        }
        if a.itv.is_bottom() {
            return None;
        }
        let t = o.vars();
        o.add_vars(1);
        o.assign_interval(t, a.itv);
        temps.push(t);
        Some(Lin::var(t))
    }

    /// `l op r` as a guard on a copy of `o` (⊥ if it cannot hold).
    fn guard_cmp(&self, o: &Octagon, l: &AVal, r: &AVal, op: BinOp) -> Octagon {
        let mut out = o.clone();
        let mut temps = Vec::new();
        let (Some(a), Some(b)) = (self.materialize(&mut out, l, &mut temps), self.materialize(&mut out, r, &mut temps)) else {
            return Octagon::bottom(o.vars());
        };
        let cmp = match op {
            BinOp::Lt => Cmp::Lt,
            BinOp::Le => Cmp::Le,
            BinOp::Gt => Cmp::Gt,
            BinOp::Ge => Cmp::Ge,
            BinOp::Eq => Cmp::Eq,
            _ => Cmp::Ne,
        };
        match a.add(&b, -1).and_then(|d| d.to_linexpr()) {
            Some(diff) => out.guard(&diff, cmp),
            None => {
                // Coefficients too large for the domain: only check the intervals.
                let feasible = match cmp {
                    Cmp::Lt => l.itv.lo().zip(r.itv.hi()).is_none_or(|(x, y)| x < y),
                    Cmp::Le => l.itv.lo().zip(r.itv.hi()).is_none_or(|(x, y)| x <= y),
                    Cmp::Gt => l.itv.hi().zip(r.itv.lo()).is_none_or(|(x, y)| x > y),
                    Cmp::Ge => l.itv.hi().zip(r.itv.lo()).is_none_or(|(x, y)| x >= y),
                    Cmp::Eq => !l.itv.meet(r.itv).is_bottom(),
                    Cmp::Ne => !(l.itv.as_constant().is_some() && l.itv.as_constant() == r.itv.as_constant()),
                };
                if !feasible {
                    return Octagon::bottom(o.vars());
                }
            }
        }
        if !temps.is_empty() {
            out.remove_vars(&temps);
        }
        out
    }

    /// `[cond]` (`positive`) or `[!(cond)]` on a copy of `o`.
    fn assume(&self, o: &Octagon, cond: &Expr, positive: bool) -> Octagon {
        match cond {
            Expr::Unary { op: UnOp::LogNot, arg, .. } => self.assume(o, arg, !positive),
            Expr::Binary { op, lhs, rhs, .. } if op.is_comparison() => {
                let op = if positive { *op } else { op.negate_comparison().expect("comparison") };
                let l = self.eval(o, lhs);
                let r = self.eval(o, rhs);
                // A cast that wraps part of its operand's values (e.g.
                // `(unsigned) x` for an int x that may be negative): guard
                // each wrap window separately, exactly, and join the parts.
                if l.lin.is_none() {
                    if let Some(parts) = self.cast_split(o, lhs) {
                        return self.join_parts(o, parts.into_iter().map(|(p, l)| self.guard_cmp(&p, &l, &r, op)));
                    }
                }
                if r.lin.is_none() {
                    if let Some(parts) = self.cast_split(o, rhs) {
                        return self.join_parts(o, parts.into_iter().map(|(p, r)| self.guard_cmp(&p, &l, &r, op)));
                    }
                }
                self.guard_cmp(o, &l, &r, op)
            }
            Expr::Cast { ty, arg } => {
                // (T) a is non-zero iff a is, when the conversion keeps the
                // value or is the conversion to _Bool.
                let a = self.eval(o, arg);
                let keeps = *ty == IntType::Bool || (!self.c_model()) || a.itv.fits_in(ty.min_value(), ty.max_value());
                if keeps {
                    self.assume(o, arg, positive)
                } else {
                    let v = self.convert(a, *ty);
                    self.truth(o, &v, positive)
                }
            }
            _ => {
                let v = self.eval(o, cond);
                self.truth(o, &v, positive)
            }
        }
    }

    /// For `(T) a` under `c` whose operand has an exact linear form spanning
    /// exactly two wrap-around windows of `T`: the two parts of `o` (one per
    /// window) with the cast's exact value on each. `None` otherwise.
    fn cast_split(&self, o: &Octagon, e: &Expr) -> Option<Vec<(Octagon, AVal)>> {
        let Expr::Cast { ty, arg } = e else { return None };
        if !self.c_model() || *ty == IntType::Bool || ty.bits() > 32 {
            return None;
        }
        let a = self.eval(o, arg);
        let lin = a.lin.clone()?;
        let (lo, hi) = (a.itv.lo()? as i128, a.itv.hi()? as i128);
        let (min, max) = (ty.min_value(), ty.max_value());
        let period = 1i128 << ty.bits();
        let (k_lo, k_hi) = ((lo - min).div_euclid(period), (hi - min).div_euclid(period));
        if k_hi - k_lo != 1 {
            return None;
        }
        let mut parts = Vec::new();
        for k in [k_lo, k_hi] {
            let (wlo, whi) = (min + k * period, max + k * period);
            let low = AVal { lin: Some(Lin::constant(wlo)), itv: itv_i128(Some(wlo), Some(wlo)) };
            let high = AVal { lin: Some(Lin::constant(whi)), itv: itv_i128(Some(whi), Some(whi)) };
            let part = self.guard_cmp(o, &a, &low, BinOp::Ge);
            let part = self.guard_cmp(&part, &a, &high, BinOp::Le);
            if part.is_bottom() {
                continue;
            }
            let itv = itv_i128(Some(lo.max(wlo) - k * period), Some(hi.min(whi) - k * period));
            parts.push((part, AVal { lin: lin.add(&Lin::constant(-k * period), 1), itv }.normalized()));
        }
        Some(parts)
    }

    /// The octagon hull of the parts (⊥ when all are ⊥).
    fn join_parts(&self, o: &Octagon, parts: impl Iterator<Item = Octagon>) -> Octagon {
        parts.filter(|p| !p.is_bottom()).reduce(|a, b| a.join(&b)).unwrap_or_else(|| Octagon::bottom(o.vars()))
    }

    fn truth(&self, o: &Octagon, v: &AVal, positive: bool) -> Octagon {
        let zero = AVal { lin: Some(Lin::constant(0)), itv: Interval::constant(0) };
        self.guard_cmp(o, v, &zero, if positive { BinOp::Ne } else { BinOp::Eq })
    }

    /// `x := a` (with `a` already converted to `x`'s type).
    fn assign(&self, o: &mut Octagon, x: usize, a: &AVal) {
        if a.itv.is_bottom() {
            *o = Octagon::bottom(o.vars());
            return;
        }
        match a.lin.as_ref().and_then(Lin::to_linexpr) {
            Some(e) => {
                o.assign(x, &e);
                if let Some(h) = a.itv.hi() {
                    o.guard(&LinExpr::new(vec![(x, 1)], -h), Cmp::Le);
                }
                if let Some(l) = a.itv.lo() {
                    o.guard(&LinExpr::new(vec![(x, 1)], -l), Cmp::Ge);
                }
            }
            None => o.assign_interval(x, a.itv),
        }
    }

    /// `var := rhs` with conversion to `var`'s type.
    fn assign_rhs(&self, o: &mut Octagon, var: VarId, rhs: &Rhs) {
        let ty = self.var_ty(var);
        let a = match rhs {
            Rhs::Expr(e) => self.eval(o, e),
            Rhs::Nondet(t) => AVal::of_itv(self.unknown_of(*t)),
        };
        let a = self.convert(a, ty);
        self.assign(o, var.0 as usize, &a);
    }

    /// `var := e`, split by wrap-around under `c`: when the top-level
    /// operation of `e` has an exact linear form whose interval spans two
    /// wrap-around windows of its type (e.g. `w + 1` for any unsigned `w`),
    /// the octagon is split on the window (`w + 1 ≤ UINT_MAX` or not) and
    /// each part gets the exact, shifted assignment — two successors
    /// instead of one that forgets every relation of `var`. Otherwise one
    /// successor, as [`Self::assign_rhs`].
    fn assign_expr_split(&self, o: &Octagon, var: VarId, e: &Expr) -> Vec<Octagon> {
        let single = || {
            let mut o = o.clone();
            self.assign_rhs(&mut o, var, &Rhs::Expr(e.clone()));
            vec![o]
        };
        if !self.c_model() {
            return single();
        }
        let (raw, ty) = match e {
            Expr::Binary { op: op @ (BinOp::Add | BinOp::Sub | BinOp::Mul), ty, lhs, rhs } => {
                let l = self.eval(o, lhs);
                let r = self.eval(o, rhs);
                (self.arith(*op, *ty, &l, &r).normalized(), *ty)
            }
            Expr::Unary { op: UnOp::Neg, ty, arg } => {
                let a = self.eval(o, arg);
                (AVal { lin: a.lin.and_then(|l| l.scale(-1)), itv: a.itv.neg() }.normalized(), *ty)
            }
            Expr::Cast { ty, arg } => (self.eval(o, arg), *ty),
            _ => return single(),
        };
        let var_ty = self.var_ty(var);
        if ty == IntType::Bool || var_ty != ty || ty.bits() > 32 {
            return single();
        }
        let (Some(lin), Some(lo), Some(hi)) = (raw.lin.clone(), raw.itv.lo(), raw.itv.hi()) else { return single() };
        let (min, max) = (ty.min_value(), ty.max_value());
        if raw.itv.fits_in(min, max) || lin.to_linexpr().is_none() {
            return single();
        }
        let period = 1i128 << ty.bits();
        let k_lo = (lo as i128 - min).div_euclid(period);
        let k_hi = (hi as i128 - min).div_euclid(period);
        if k_hi - k_lo != 1 {
            return single();
        }
        let mut out = Vec::new();
        for k in [k_lo, k_hi] {
            let (wlo, whi) = (min + k * period, max + k * period);
            let low = AVal { lin: Some(Lin::constant(wlo)), itv: itv_i128(Some(wlo), Some(wlo)) };
            let high = AVal { lin: Some(Lin::constant(whi)), itv: itv_i128(Some(whi), Some(whi)) };
            let mut part = self.guard_cmp(o, &raw, &low, BinOp::Ge);
            part = self.guard_cmp(&part, &raw, &high, BinOp::Le);
            if part.is_bottom() {
                continue;
            }
            // Re-evaluate on the part: the linear form is the same, the
            // interval is now inside the window.
            let value = AVal { lin: lin.add(&Lin::constant(-k * period), 1), itv: Interval::TOP };
            let itv = itv_i128(Some(lo.max(wlo as i64) as i128 - k * period), Some(hi.min(whi as i64) as i128 - k * period));
            let value = AVal { lin: value.lin, itv }.normalized();
            self.assign(&mut part, var.0 as usize, &value);
            if !part.is_bottom() {
                out.push(part);
            }
        }
        out
    }

    /// `var := anything of its type`.
    fn havoc(&self, o: &mut Octagon, var: VarId) {
        let itv = self.unknown_of(self.var_ty(var));
        o.assign_interval(var.0 as usize, itv);
    }

    /// The variables of an activation of `f`: parameters, locals and
    /// temporaries, the return slot.
    fn frame_vars(&self, f: FuncId) -> Vec<usize> {
        let Some(func) = self.program.functions.get(f.0 as usize) else { return vec![] };
        let mut vars: Vec<usize> = func.params.iter().chain(func.locals.iter()).map(|v| v.0 as usize).collect();
        vars.extend(func.ret.map(|v| v.0 as usize));
        vars.sort_unstable();
        vars.dedup();
        vars
    }

    fn call(&self, state: &OctagonState, callee: FuncId, args: &[Expr]) -> OctagonState {
        let mut o = state.octagon.clone();
        let n = o.vars();
        let params: Vec<VarId> = self.program.functions.get(callee.0 as usize).map(|f| f.params.clone()).unwrap_or_default();
        let vals: Vec<AVal> = args.iter().map(|a| self.eval(&o, a)).collect();
        let vars = self.frame_vars(callee);
        let saved = o.select(&vars);
        // Arguments into temporaries (evaluated in the caller's context).
        o.add_vars(vals.len());
        for (i, (p, v)) in params.iter().zip(&vals).enumerate() {
            let v = self.convert(v.clone(), self.var_ty(*p));
            self.assign(&mut o, n + i, &v);
        }
        for &v in &vars {
            self.havoc(&mut o, VarId(v as u32));
        }
        for (i, p) in params.iter().enumerate().take(vals.len()) {
            o.assign(p.0 as usize, &LinExpr::var(n + i));
        }
        let temps: Vec<usize> = (n..n + vals.len()).collect();
        o.remove_vars(&temps);
        let mut frames = state.frames.clone();
        frames.push(saved);
        OctagonState { octagon: o, frames, at_loop_head: state.at_loop_head }
    }

    fn ret(&self, state: &OctagonState, callee: FuncId, result: Option<VarId>) -> OctagonState {
        let mut o = state.octagon.clone();
        let n = o.vars();
        let slot = self.program.functions.get(callee.0 as usize).and_then(|f| f.ret);
        let temp = match (result, slot) {
            (Some(_), Some(s)) => {
                o.add_vars(1);
                o.assign(n, &LinExpr::var(s.0 as usize));
                Some(n)
            }
            _ => None,
        };
        let vars = self.frame_vars(callee);
        for &v in &vars {
            o.forget(v);
        }
        let mut frames = state.frames.clone();
        // A frame saved for another callee (only reachable without the
        // Callstack CPA) is not restored: the callee's variables stay unknown.
        if let Some(saved) = frames.pop().filter(|s| s.vars() == vars.len()) {
            o = o.meet(&embed(&saved, &vars, o.vars()));
            o.close();
        } else {
            for &v in &vars {
                self.havoc(&mut o, VarId(v as u32));
            }
        }
        if let Some(r) = result {
            let ty = self.var_ty(r);
            match temp {
                Some(t) => {
                    let a = AVal { lin: Some(Lin::var(t)), itv: o.interval(t) }.normalized();
                    let a = self.convert(a, ty);
                    self.assign(&mut o, r.0 as usize, &a);
                }
                None => self.havoc(&mut o, r),
            }
        }
        if let Some(t) = temp {
            o.remove_vars(&[t]);
        }
        OctagonState { octagon: o, frames, at_loop_head: state.at_loop_head }
    }

    /// The initial octagon: ⊤, and under `c` every variable in its type's range.
    fn initial_octagon(&self) -> Octagon {
        let mut o = Octagon::top(self.n());
        if self.c_model() {
            for v in 0..self.n() {
                let itv = type_range(self.var_ty(VarId(v as u32)));
                o.assign_interval(v, itv);
            }
        }
        o
    }

    /// The readable view of an octagon state.
    pub fn octagon_view(&self, state: &OctagonState) -> OctagonView {
        let o = state.octagon.closed();
        // Under C every variable lies in its type's range: a bound that says
        // only that is left out of the text (it is what C guarantees anyway),
        // so `-2147483648 <= x <= 2147483647` does not crowd every state.
        let type_range = |v: usize| -> Option<(i64, i64)> {
            let ty = self.program.variables.get(v)?.ty;
            (self.options.int_model == IntModel::C)
                .then(|| Some((i64::try_from(ty.min_value()).ok()?, i64::try_from(ty.max_value()).ok()?)))
                .flatten()
        };
        let under_c = self.options.int_model == IntModel::C;
        let listed: Vec<(String, Vec<usize>)> = o
            .constraints(&self.names)
            .into_iter()
            .filter_map(|c| match c.vars[..] {
                [v] if type_range(v).is_some() => {
                    let (min, max) = type_range(v)?;
                    let i = o.interval(v);
                    let x = &self.names[v];
                    let text = match (i.lo().filter(|&l| l != min), i.hi().filter(|&h| h != max)) {
                        (None, None) => return None,
                        (Some(l), None) => format!("{x} >= {l}"),
                        (None, Some(h)) => format!("{x} <= {h}"),
                        _ => c.text,
                    };
                    Some((text, c.vars))
                }
                _ => Some((c.text, c.vars)),
            })
            .collect();
        // Only the variables with some finite bound or relation are shown
        // (under C: one the text above still lists).
        let n = self.n().min(o.vars());
        let dbm = o.dbm();
        let shown: Vec<usize> = if o.is_bottom() {
            Vec::new()
        } else if under_c {
            (0..n).filter(|v| listed.iter().any(|(_, vars)| vars.contains(v))).collect()
        } else {
            (0..n)
                .filter(|&v| {
                    (0..2 * n).any(|j| j / 2 != v && (!dbm.get(2 * v, j).is_inf() || !dbm.get(2 * v + 1, j).is_inf()))
                        || !dbm.get(2 * v, 2 * v + 1).is_inf()
                        || !dbm.get(2 * v + 1, 2 * v).is_inf()
                })
                .collect()
        };
        let constraints: Vec<String> = listed.into_iter().map(|(text, _)| text).collect();
        let names: Vec<String> = shown.iter().map(|&v| self.names[v].clone()).collect();
        let bounds = shown
            .iter()
            .map(|&v| {
                let i = o.interval(v);
                VarBounds { name: self.names[v].clone(), lo: i.lo(), hi: i.hi() }
            })
            .collect();
        let m = o.select(&shown).matrix(&names);
        OctagonView { constraints, bounds, labels: m.labels, cells: m.cells, bottom: o.is_bottom() }
    }
}

/// `[0, 0]`, `[1, 1]` or `[0, 1]` for a condition that can be true / false.
fn decided(can_true: bool, can_false: bool) -> Interval {
    match (can_true, can_false) {
        (true, false) => Interval::constant(1),
        (false, true) => Interval::constant(0),
        _ => Interval::range(0, 1),
    }
}

/// The octagon over `n` variables whose constraints on `vars[k]` are those of
/// `saved` on `k` (and none on other variables).
fn embed(saved: &Octagon, vars: &[usize], n: usize) -> Octagon {
    if saved.is_bottom() {
        return Octagon::bottom(n);
    }
    let s = saved.closed();
    let d = s.dbm();
    let mut out = Dbm::top(n);
    let k = vars.len().min(d.vars());
    for a in 0..2 * k {
        for b in 0..2 * k {
            let (i, j) = (2 * vars[a / 2] + a % 2, 2 * vars[b / 2] + b % 2);
            out.set(i, j, d.get(a, b));
        }
    }
    Octagon::from_dbm(out)
}

/// The widening thresholds of a program: every integer constant `c` on its
/// edges with `c − 1`, `c + 1` and their negations, sorted.
pub fn program_thresholds(program: &Program) -> Vec<i64> {
    fn collect(e: &Expr, out: &mut BTreeSet<i64>) {
        match e {
            Expr::Const { value, .. } => {
                for d in [-1i128, 0, 1] {
                    for s in [1i128, -1] {
                        let v = s * (value + d);
                        if v.abs() < (1i128 << 62) {
                            out.insert(v as i64);
                        }
                    }
                }
            }
            Expr::Var { .. } => {}
            Expr::Unary { arg, .. } | Expr::Cast { arg, .. } => collect(arg, out),
            Expr::Binary { lhs, rhs, .. } => {
                collect(lhs, out);
                collect(rhs, out);
            }
        }
    }
    let mut out = BTreeSet::new();
    for edge in &program.edges {
        for e in edge.kind.expressions() {
            collect(e, &mut out);
        }
    }
    out.into_iter().collect()
}

impl TransferRelation for OctagonCpa {
    type State = OctagonState;
    type Precision = OctagonPrecision;

    fn successors(&self, state: &OctagonState, edge: &Edge, _p: &OctagonPrecision) -> Result<Vec<OctagonState>, TransferError> {
        let at_loop_head = self.program.nodes.get(edge.target.0 as usize).is_some_and(|n| n.loop_head);
        let mut next = match &edge.kind {
            EdgeKind::Blank | EdgeKind::Terminate | EdgeKind::ReachError => state.clone(),
            EdgeKind::Declare { var, init: Some(Rhs::Expr(e)) } | EdgeKind::Assign { var, rhs: Rhs::Expr(e) } => {
                let parts = self.assign_expr_split(&state.octagon, *var, e);
                let mut out = Vec::with_capacity(parts.len());
                for octagon in parts {
                    if !octagon.is_bottom() {
                        out.push(OctagonState { octagon, frames: state.frames.clone(), at_loop_head });
                    }
                }
                return Ok(out);
            }
            EdgeKind::Declare { var, init } => {
                let mut s = state.clone();
                match init {
                    Some(rhs) => self.assign_rhs(&mut s.octagon, *var, rhs),
                    None => self.havoc(&mut s.octagon, *var),
                }
                s
            }
            EdgeKind::Assign { var, rhs } => {
                let mut s = state.clone();
                self.assign_rhs(&mut s.octagon, *var, rhs);
                s
            }
            EdgeKind::Assume { cond, positive } => {
                let mut s = state.clone();
                s.octagon = self.assume(&state.octagon, cond, *positive);
                s
            }
            EdgeKind::Call { callee, args, .. } => self.call(state, *callee, args),
            EdgeKind::Return { callee, result, .. } => self.ret(state, *callee, *result),
            EdgeKind::ReturnStatement { value } => {
                let mut s = state.clone();
                let f = self.program.nodes.get(edge.source.0 as usize).map(|n| n.function);
                let slot = f.and_then(|f| self.program.functions.get(f.0 as usize)).and_then(|f| f.ret);
                if let (Some(slot), Some(e)) = (slot, value) {
                    self.assign_rhs(&mut s.octagon, slot, &Rhs::Expr(e.clone()));
                }
                s
            }
        };
        if next.octagon.is_bottom() {
            return Ok(vec![]);
        }
        next.at_loop_head = at_loop_head;
        Ok(vec![next])
    }
}

/// The Octagon CPA's precision adjustment: forget every untracked variable
/// (it keeps only the values of its type, see [`OctagonCpa`]).
#[derive(Clone, Debug)]
pub struct OctagonPrecisionAdjustment {
    /// What an unknown value of each variable may be.
    unknown: Vec<Interval>,
    /// The DBM's unary cells `(+v → −v, −v → +v)` of a forgotten variable
    /// (from `unknown`), to skip forgetting what is already forgotten.
    unknown_cells: Vec<(domains::Bound, domains::Bound)>,
}

impl OctagonPrecisionAdjustment {
    fn new(unknown: Vec<Interval>) -> Self {
        let unknown_cells = unknown
            .iter()
            .map(|itv| {
                let mut o = Octagon::top(1);
                o.assign_interval(0, *itv);
                (o.dbm().get(0, 1), o.dbm().get(1, 0))
            })
            .collect();
        OctagonPrecisionAdjustment { unknown, unknown_cells }
    }

    /// Whether variable `v` of `o` is already as forgetting leaves it: no
    /// relation with another variable in the stored DBM and exactly the
    /// unary bounds of an unknown value (then forgetting cannot change γ).
    fn already_forgotten(&self, o: &Octagon, v: usize) -> bool {
        let d = o.dbm();
        let (p, m) = (2 * v, 2 * v + 1);
        let Some(cells) = self.unknown_cells.get(v) else { return false };
        if d.get(p, m) != cells.0 || d.get(m, p) != cells.1 {
            return false;
        }
        (0..2 * d.vars()).all(|j| j == p || j == m || (d.get(p, j).is_inf() && d.get(m, j).is_inf()))
    }
}

impl PrecisionAdjustment<OctagonState, OctagonPrecision> for OctagonPrecisionAdjustment {
    fn prec(&self, state: &OctagonState, precision: &OctagonPrecision) -> (OctagonState, OctagonPrecision) {
        self.prec_at(state, precision, None)
    }
    /// Forgets (back to "any value of its type") every variable that
    /// `π(location)` does not track.
    fn prec_at(
        &self,
        state: &OctagonState,
        precision: &OctagonPrecision,
        location: Option<NodeId>,
    ) -> (OctagonState, OctagonPrecision) {
        if matches!(precision, OctagonPrecision::Full) {
            return (state.clone(), precision.clone());
        }
        let n = state.octagon.vars();
        let forget: Vec<usize> = (0..self.unknown.len().min(n))
            .filter(|&v| !precision.tracks_at(location, VarId(v as u32)) && !self.already_forgotten(&state.octagon, v))
            .collect();
        if forget.is_empty() {
            return (state.clone(), precision.clone());
        }
        let mut s = state.clone();
        for v in forget {
            s.octagon.assign_interval(v, self.unknown[v]);
        }
        // Closed once here rather than in every later comparison.
        s.octagon.close();
        (s, precision.clone())
    }
}

impl Cpa for OctagonCpa {
    type State = OctagonState;
    type Precision = OctagonPrecision;
    fn name(&self) -> &'static str {
        "OctagonCPA"
    }
    fn domain(&self) -> &dyn AbstractDomain<State = OctagonState> {
        &OctagonDomain
    }
    fn transfer_relation(&self) -> &dyn TransferRelation<State = OctagonState, Precision = OctagonPrecision> {
        self
    }
    fn merge_operator(&self) -> &dyn MergeOperator<OctagonState, OctagonPrecision> {
        &self.merge
    }
    fn stop_operator(&self) -> &dyn StopOperator<OctagonState, OctagonPrecision> {
        &self.stop
    }
    fn precision_adjustment(&self) -> &dyn PrecisionAdjustment<OctagonState, OctagonPrecision> {
        &self.prec_adj
    }
    fn initial_state(&self, entry: NodeId) -> OctagonState {
        OctagonState {
            octagon: self.initial_octagon(),
            frames: Vec::new(),
            at_loop_head: self.program.nodes.get(entry.0 as usize).is_some_and(|n| n.loop_head),
        }
    }
    fn initial_precision(&self, _entry: NodeId) -> OctagonPrecision {
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
    fn describe_precision(&self, precision: &OctagonPrecision) -> String {
        match precision {
            OctagonPrecision::Full => "all variables".into(),
            OctagonPrecision::Refined(p) => p.describe(&self.program),
            OctagonPrecision::Tracked(t) => {
                let names: Vec<String> = t.iter().map(|v| self.names.get(v.0 as usize).cloned().unwrap_or_default()).collect();
                format!("{{{}}}", names.join(", "))
            }
        }
    }
}
