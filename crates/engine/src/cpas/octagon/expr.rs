//! Program expressions in the octagon: each value as a pair (exact linear
//! form when there is one, sound interval always), with conversions to C
//! types under the run's integer model.

use super::*;

// ---------------------------------------------------------------------------
// Abstract values: an exact linear form (if any) and a sound interval
// ---------------------------------------------------------------------------

/// `Σ aᵢ·xᵢ + c` with exact `i128` coefficients.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Lin {
    pub(super) terms: BTreeMap<usize, i128>,
    pub(super) c: i128,
}

const LIN_LIMIT: i128 = 1 << 100;

impl Lin {
    pub(super) fn constant(c: i128) -> Lin {
        Lin { terms: BTreeMap::new(), c }
    }
    pub(super) fn var(x: usize) -> Lin {
        Lin { terms: [(x, 1)].into_iter().collect(), c: 0 }
    }
    pub(super) fn ok(self) -> Option<Lin> {
        (self.c.abs() < LIN_LIMIT && self.terms.values().all(|a| a.abs() < LIN_LIMIT)).then_some(self)
    }
    pub(super) fn add(&self, o: &Lin, sign: i128) -> Option<Lin> {
        let mut out = self.clone();
        for (v, a) in &o.terms {
            *out.terms.entry(*v).or_insert(0) += sign * a;
        }
        out.terms.retain(|_, a| *a != 0);
        out.c += sign * o.c;
        out.ok()
    }
    pub(super) fn scale(&self, k: i128) -> Option<Lin> {
        if k.abs() >= LIN_LIMIT {
            return None;
        }
        let mut out = Lin { terms: self.terms.iter().map(|(v, a)| (*v, a * k)).collect(), c: self.c * k };
        out.terms.retain(|_, a| *a != 0);
        out.ok()
    }
    pub(super) fn to_linexpr(&self) -> Option<LinExpr> {
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
pub(super) struct AVal {
    pub(super) lin: Option<Lin>,
    pub(super) itv: Interval,
}

impl AVal {
    pub(super) fn of_itv(itv: Interval) -> AVal {
        AVal { lin: None, itv }.normalized()
    }
    /// A singleton interval is an exact constant.
    pub(super) fn normalized(mut self) -> AVal {
        if let Some(c) = self.itv.as_constant() {
            self.lin = Some(Lin::constant(c as i128));
        }
        self
    }
}

/// `[lo, hi]` from exact bounds; a side that does not fit the interval
/// encoding becomes unbounded (sound).
pub(super) fn itv_i128(lo: Option<i128>, hi: Option<i128>) -> Interval {
    let lo = lo.and_then(|l| (l > i64::MIN as i128 + 1 && l < i64::MAX as i128 - 1).then_some(l as i64));
    let hi = hi.and_then(|h| (h > i64::MIN as i128 + 1 && h < i64::MAX as i128 - 1).then_some(h as i64));
    match (lo, hi) {
        (Some(l), Some(h)) if l > h => Interval::BOTTOM,
        _ => Interval::new(lo, hi),
    }
}

/// The values of a C type (bounds that do not fit the encoding are left open).
pub(super) fn type_range(ty: IntType) -> Interval {
    itv_i128(Some(ty.min_value()), Some(ty.max_value()))
}

pub(super) fn bool_of(itv: Interval) -> Interval {
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

pub(super) fn pow2(k: i128) -> Option<i128> {
    (0..=120).contains(&k).then(|| 1i128 << k)
}

/// `[0, 0]`, `[1, 1]` or `[0, 1]` for a condition that can be true / false.
fn decided(can_true: bool, can_false: bool) -> Interval {
    match (can_true, can_false) {
        (true, false) => Interval::constant(1),
        (false, true) => Interval::constant(0),
        _ => Interval::range(0, 1),
    }
}

impl OctagonCpa {
    /// Conversion of a value to `ty` under the run's integer model.
    pub(super) fn convert(&self, a: AVal, ty: IntType) -> AVal {
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
    pub(super) fn eval(&self, o: &Octagon, e: &Expr) -> AVal {
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
    pub(super) fn arith(&self, op: BinOp, ty: IntType, l: &AVal, r: &AVal) -> AVal {
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
}
