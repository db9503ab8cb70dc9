//! Integer intervals `[lo, hi]` with `lo ∈ ℤ ∪ {−∞}`, `hi ∈ ℤ ∪ {+∞}`, and `⊥`.
//!
//! ```text
//!                 [−∞, +∞]  = ⊤
//!                /        \
//!         [−∞, 0]   ...    [0, +∞]
//!            ...   [0, 1]   ...
//!              \  /     \  /
//!  ...  [-1,-1] [0,0] [1,1]  [2,2] ...
//!              \   |    |   /
//!                    ⊥
//! ```
//!
//! * `γ([lo, hi]) = { v ∈ ℤ | lo ≤ v ≤ hi }`, `γ(⊥) = ∅`.
//! * `a ⊑ b` iff `γ(a) ⊆ γ(b)`; ⊔ = least upper bound (convex hull), ⊓ =
//!   greatest lower bound (intersection, exact).
//! * The lattice has infinite ascending chains (`[0,0] ⊑ [0,1] ⊑ [0,2] ⊑ …`),
//!   so loops need [`Interval::widen`].
//!
//! # Convergence
//!
//! `a ∇ b` keeps each bound of `a` that `b` respects and sends the others to
//! ±∞. Every non-stable step removes at least one of the (at most two) finite
//! bounds, so any chain `w₀, w₁ = w₀ ∇ x₁, w₂ = w₁ ∇ x₂, …` becomes stable
//! after at most 2 strict increases. [`Interval::widen_with_thresholds`]
//! jumps to the next constant of a finite, sorted list instead; a chain then
//! stabilises after at most `2·(|thresholds| + 1)` strict increases.
//!
//! # Arithmetic
//!
//! Every operation `op` is sound: `{ x op y | x ∈ γ(a), y ∈ γ(b) } ⊆ γ(a op b)`.
//! All arithmetic is exact (computed in `i128`); a finite result that does not
//! fit into `i64` becomes the corresponding infinity (sound, never wrong). The
//! arithmetic is mathematical (no wrap-around); callers modelling C's
//! fixed-width types use [`Interval::fits_in`] / [`Interval::wrap_to`].
//! Division and remainder truncate toward zero like C and describe only the
//! divisors `≠ 0` (division by zero has no successor state).

use serde::{Deserialize, Serialize};
use std::fmt;

const NEG_INF: i64 = i64::MIN;
const POS_INF: i64 = i64::MAX;

/// An integer interval or `⊥` (see the module docs).
///
/// Encoding: `lo == i64::MIN` is `−∞`, `hi == i64::MAX` is `+∞`, and `⊥` is
/// the canonical value with `lo > hi` (`lo = i64::MAX, hi = i64::MIN`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Interval {
    lo: i64,
    hi: i64,
}

/// Clamps an exact lower bound into the encoding (too small ⇒ −∞: sound).
fn lo_of(v: i128) -> i64 {
    if v <= NEG_INF as i128 {
        NEG_INF
    } else if v >= POS_INF as i128 {
        // A lower bound above every i64: only reachable from ⊥-like inputs.
        POS_INF - 1
    } else {
        v as i64
    }
}

/// Clamps an exact upper bound into the encoding (too large ⇒ +∞: sound).
fn hi_of(v: i128) -> i64 {
    if v >= POS_INF as i128 {
        POS_INF
    } else if v <= NEG_INF as i128 {
        NEG_INF + 1
    } else {
        v as i64
    }
}

/// An extended integer for the corner computations of × and ÷.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Ext {
    NegInf,
    Fin(i128),
    PosInf,
}

impl Ext {
    fn lo(v: i64) -> Ext {
        if v == NEG_INF {
            Ext::NegInf
        } else {
            Ext::Fin(v as i128)
        }
    }
    fn hi(v: i64) -> Ext {
        if v == POS_INF {
            Ext::PosInf
        } else {
            Ext::Fin(v as i128)
        }
    }
    fn sign(self) -> i32 {
        match self {
            Ext::NegInf => -1,
            Ext::PosInf => 1,
            Ext::Fin(v) => v.signum() as i32,
        }
    }
    fn inf_of_sign(s: i32) -> Ext {
        if s < 0 {
            Ext::NegInf
        } else {
            Ext::PosInf
        }
    }
    /// Product of two interval endpoints; `0 · ∞ = 0` is right for bounds.
    fn mul(self, o: Ext) -> Ext {
        match (self, o) {
            (Ext::Fin(a), Ext::Fin(b)) => match a.checked_mul(b) {
                Some(p) => Ext::Fin(p),
                None => Ext::inf_of_sign(a.signum() as i32 * b.signum() as i32),
            },
            _ => {
                let s = self.sign() * o.sign();
                if s == 0 {
                    Ext::Fin(0)
                } else {
                    Ext::inf_of_sign(s)
                }
            }
        }
    }
    /// Truncating quotient of endpoints; the divisor is never 0.
    fn div(self, o: Ext) -> Ext {
        match (self, o) {
            (Ext::Fin(a), Ext::Fin(b)) => Ext::Fin(a / b),
            (Ext::Fin(_), _) => Ext::Fin(0),
            _ => Ext::inf_of_sign(self.sign() * o.sign()),
        }
    }
    fn to_lo(self) -> i64 {
        match self {
            Ext::NegInf => NEG_INF,
            Ext::PosInf => POS_INF - 1,
            Ext::Fin(v) => lo_of(v),
        }
    }
    fn to_hi(self) -> i64 {
        match self {
            Ext::NegInf => NEG_INF + 1,
            Ext::PosInf => POS_INF,
            Ext::Fin(v) => hi_of(v),
        }
    }
}

// The arithmetic is named like `std::ops` (and also available as operators,
// below); the inherent methods keep `a.add(b)` working without imports.
#[allow(clippy::should_implement_trait)]
impl Interval {
    /// `⊥`: no value (an unreachable state or an impossible expression).
    pub const BOTTOM: Interval = Interval { lo: POS_INF, hi: NEG_INF };
    /// `⊤ = [−∞, +∞]`: any integer.
    pub const TOP: Interval = Interval { lo: NEG_INF, hi: POS_INF };

    /// `[lo, hi]` with `None` meaning the infinite bound on that side; `⊥`
    /// when `lo > hi`.
    /// (A finite `lo = i64::MIN` reads as `−∞` and `hi = i64::MAX` as `+∞`:
    /// the encoding cannot tell them apart, and the larger set is sound.)
    pub fn new(lo: Option<i64>, hi: Option<i64>) -> Interval {
        Interval::norm(lo.unwrap_or(NEG_INF), hi.unwrap_or(POS_INF))
    }

    /// The finite interval `[lo, hi]` (`⊥` if `lo > hi`).
    pub fn range(lo: i64, hi: i64) -> Interval {
        Interval::new(Some(lo), Some(hi))
    }

    /// The singleton `[c, c]`.
    pub fn constant(c: i64) -> Interval {
        Interval::range(c, c)
    }

    fn norm(lo: i64, hi: i64) -> Interval {
        if lo > hi {
            Interval::BOTTOM
        } else {
            Interval { lo, hi }
        }
    }

    fn from_i128(lo: i128, hi: i128) -> Interval {
        Interval::norm(lo_of(lo), hi_of(hi))
    }

    /// Whether this is `⊥` (`γ = ∅`).
    pub fn is_bottom(self) -> bool {
        self.lo > self.hi
    }

    /// Whether this is `⊤` (every integer).
    pub fn is_top(self) -> bool {
        self == Interval::TOP
    }

    /// The lower bound, `None` for `−∞` (and for `⊥`).
    pub fn lo(self) -> Option<i64> {
        if self.is_bottom() || self.lo == NEG_INF {
            None
        } else {
            Some(self.lo)
        }
    }

    /// The upper bound, `None` for `+∞` (and for `⊥`).
    pub fn hi(self) -> Option<i64> {
        if self.is_bottom() || self.hi == POS_INF {
            None
        } else {
            Some(self.hi)
        }
    }

    /// `Some(c)` when `γ = {c}`.
    pub fn as_constant(self) -> Option<i64> {
        match (self.lo(), self.hi()) {
            (Some(a), Some(b)) if a == b => Some(a),
            _ => None,
        }
    }

    /// Whether `v ∈ γ(self)`.
    pub fn contains(self, v: i64) -> bool {
        self.lo <= v && v <= self.hi
    }

    /// `self ⊑ other`, i.e. `γ(self) ⊆ γ(other)`.
    pub fn leq(self, other: Interval) -> bool {
        self.is_bottom() || (!other.is_bottom() && other.lo <= self.lo && self.hi <= other.hi)
    }

    /// ⊔ = least upper bound: the smallest interval containing both.
    pub fn join(self, other: Interval) -> Interval {
        if self.is_bottom() {
            return other;
        }
        if other.is_bottom() {
            return self;
        }
        Interval { lo: self.lo.min(other.lo), hi: self.hi.max(other.hi) }
    }

    /// ⊓ = greatest lower bound: the intersection (exact).
    pub fn meet(self, other: Interval) -> Interval {
        Interval::norm(self.lo.max(other.lo), self.hi.min(other.hi))
    }

    /// Standard widening `self ∇ next` (`self` is the previous iterate): keeps
    /// each bound of `self` that `next` respects, moves the others to ±∞.
    /// Upper bound: `self ⊔ next ⊑ self ∇ next`. See `# Convergence`.
    pub fn widen(self, next: Interval) -> Interval {
        self.widen_with_thresholds(next, &[])
    }

    /// Widening with thresholds: a bound that grows jumps to the nearest
    /// constant of `thresholds` (sorted ascending) that still contains
    /// `next`, or to ±∞ when there is none. Upper bound like [`Self::widen`].
    pub fn widen_with_thresholds(self, next: Interval, thresholds: &[i64]) -> Interval {
        if self.is_bottom() {
            return next;
        }
        if next.is_bottom() {
            return self;
        }
        let lo = if next.lo < self.lo {
            // Greatest threshold ≤ next.lo.
            let k = thresholds.partition_point(|&t| t <= next.lo);
            if k == 0 || next.lo == NEG_INF {
                NEG_INF
            } else {
                thresholds[k - 1].max(NEG_INF + 1)
            }
        } else {
            self.lo
        };
        let hi = if next.hi > self.hi {
            // Least threshold ≥ next.hi.
            let k = thresholds.partition_point(|&t| t < next.hi);
            if k == thresholds.len() || next.hi == POS_INF {
                POS_INF
            } else {
                thresholds[k].min(POS_INF - 1)
            }
        } else {
            self.hi
        };
        Interval { lo, hi }
    }

    /// Narrowing `self Δ next` (`next ⊑ self`): refines only infinite bounds,
    /// so decreasing iterations stop.
    pub fn narrow(self, next: Interval) -> Interval {
        if self.is_bottom() || next.is_bottom() {
            return Interval::BOTTOM;
        }
        let lo = if self.lo == NEG_INF { next.lo } else { self.lo };
        let hi = if self.hi == POS_INF { next.hi } else { self.hi };
        Interval::norm(lo, hi)
    }

    /// `−a`.
    pub fn neg(self) -> Interval {
        if self.is_bottom() {
            return self;
        }
        let lo = if self.hi == POS_INF { NEG_INF } else { lo_of(-(self.hi as i128)) };
        let hi = if self.lo == NEG_INF { POS_INF } else { hi_of(-(self.lo as i128)) };
        Interval::norm(lo, hi)
    }

    /// `a + b`.
    pub fn add(self, other: Interval) -> Interval {
        if self.is_bottom() || other.is_bottom() {
            return Interval::BOTTOM;
        }
        let lo = if self.lo == NEG_INF || other.lo == NEG_INF { NEG_INF } else { lo_of(self.lo as i128 + other.lo as i128) };
        let hi = if self.hi == POS_INF || other.hi == POS_INF { POS_INF } else { hi_of(self.hi as i128 + other.hi as i128) };
        Interval::norm(lo, hi)
    }

    /// `a − b`.
    pub fn sub(self, other: Interval) -> Interval {
        self.add(other.neg())
    }

    /// `k · a` for a constant `k`.
    pub fn scale(self, k: i64) -> Interval {
        self.mul(Interval::constant(k))
    }

    /// `a × b`: the hull of the four corner products.
    pub fn mul(self, other: Interval) -> Interval {
        if self.is_bottom() || other.is_bottom() {
            return Interval::BOTTOM;
        }
        let xs = [Ext::lo(self.lo), Ext::hi(self.hi)];
        let ys = [Ext::lo(other.lo), Ext::hi(other.hi)];
        let mut lo = Ext::PosInf;
        let mut hi = Ext::NegInf;
        for x in xs {
            for y in ys {
                let p = x.mul(y);
                lo = lo.min(p);
                hi = hi.max(p);
            }
        }
        Interval::norm(lo.to_lo(), hi.to_hi())
    }

    /// `a / b` with C truncation toward zero, over the divisors `b ≠ 0`.
    /// `⊥` when `b = [0, 0]`.
    pub fn div(self, other: Interval) -> Interval {
        if self.is_bottom() || other.is_bottom() {
            return Interval::BOTTOM;
        }
        // Split the divisor into its negative and positive parts; on each
        // part x / y is monotone in both arguments, so the corners suffice.
        let mut out = Interval::BOTTOM;
        for part in [other.meet(Interval::new(None, Some(-1))), other.meet(Interval::new(Some(1), None))] {
            if part.is_bottom() {
                continue;
            }
            let xs = [Ext::lo(self.lo), Ext::hi(self.hi)];
            let ys = [Ext::lo(part.lo), Ext::hi(part.hi)];
            let mut lo = Ext::PosInf;
            let mut hi = Ext::NegInf;
            for x in xs {
                for y in ys {
                    let q = x.div(y);
                    lo = lo.min(q);
                    hi = hi.max(q);
                }
            }
            out = out.join(Interval::norm(lo.to_lo(), hi.to_hi()));
        }
        out
    }

    /// `a % b` with C semantics (the result has the sign of `a` and
    /// `|a % b| < |b|`, `|a % b| ≤ |a|`), over the divisors `b ≠ 0`.
    pub fn rem(self, other: Interval) -> Interval {
        if self.is_bottom() || other.is_bottom() {
            return Interval::BOTTOM;
        }
        let nonzero =
            |i: Interval| !Interval::new(None, Some(-1)).meet(i).is_bottom() || !Interval::new(Some(1), None).meet(i).is_bottom();
        if !nonzero(other) {
            return Interval::BOTTOM;
        }
        // Exact when both are constants.
        if let (Some(a), Some(b)) = (self.as_constant(), other.as_constant()) {
            let r = (a as i128) % (b as i128);
            return Interval::from_i128(r, r);
        }
        // m = max |b| − 1 (∞ if b unbounded).
        let m: i128 = if other.lo == NEG_INF || other.hi == POS_INF {
            i128::MAX / 4
        } else {
            (other.lo as i128).abs().max((other.hi as i128).abs()) - 1
        };
        let lo = if self.lo >= 0 {
            0
        } else if self.lo == NEG_INF {
            -m
        } else {
            (self.lo as i128).max(-m)
        };
        let hi = if self.hi <= 0 {
            0
        } else if self.hi == POS_INF {
            m
        } else {
            (self.hi as i128).min(m)
        };
        Interval::from_i128(lo, hi)
    }

    /// Whether `γ(self) ⊆ [min, max]` (e.g. a C type's range).
    pub fn fits_in(self, min: i128, max: i128) -> bool {
        self.is_bottom() || (self.lo != NEG_INF && self.hi != POS_INF && self.lo as i128 >= min && self.hi as i128 <= max)
    }

    /// Sound result of converting to a `bits`-wide two's-complement (signed)
    /// or modular (unsigned) type: `self` if it already fits in the type's
    /// range, otherwise the wrapped values — exact when the interval spans
    /// one wrap-around period without crossing its edge, else the whole range.
    pub fn wrap_to(self, bits: u32, signed: bool) -> Interval {
        if self.is_bottom() {
            return self;
        }
        let bits = bits.min(64);
        let (min, max): (i128, i128) =
            if signed { (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1) } else { (0, (1i128 << bits) - 1) };
        if self.fits_in(min, max) {
            return self;
        }
        let whole = Interval::from_i128(min, max);
        if self.lo == NEG_INF || self.hi == POS_INF {
            return whole;
        }
        let period = 1i128 << bits;
        let wrap = |v: i128| (v - min).rem_euclid(period) + min;
        let (a, b) = (self.lo as i128, self.hi as i128);
        if b - a < period && wrap(a) <= wrap(b) {
            Interval::from_i128(wrap(a), wrap(b))
        } else {
            whole
        }
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident) => {
        /// The interval operation of the same name (sound, see the module docs).
        impl std::ops::$tr for Interval {
            type Output = Interval;
            fn $f(self, o: Interval) -> Interval {
                Interval::$f(self, o)
            }
        }
    };
}
binop!(Add, add);
binop!(Sub, sub);
binop!(Mul, mul);
binop!(Div, div);
binop!(Rem, rem);

/// `−a` (sound, exact).
impl std::ops::Neg for Interval {
    type Output = Interval;
    fn neg(self) -> Interval {
        Interval::neg(self)
    }
}

impl fmt::Debug for Interval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Interval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_bottom() {
            return write!(f, "⊥");
        }
        match self.lo() {
            Some(l) => write!(f, "[{l}, ")?,
            None => write!(f, "[-∞, ")?,
        }
        match self.hi() {
            Some(h) => write!(f, "{h}]"),
            None => write!(f, "+∞]"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn itv() -> impl Strategy<Value = Interval> {
        prop_oneof![
            1 => Just(Interval::BOTTOM),
            1 => Just(Interval::TOP),
            2 => (-6i64..6).prop_map(|h| Interval::new(None, Some(h))),
            2 => (-6i64..6).prop_map(|l| Interval::new(Some(l), None)),
            8 => (-6i64..6, 0i64..8).prop_map(|(l, w)| Interval::range(l, l + w)),
        ]
    }

    /// Points of γ(a) within [-20, 20].
    fn points(a: Interval) -> Vec<i64> {
        (-20..=20).filter(|&v| a.contains(v)).collect()
    }

    proptest! {
        #[test]
        fn leq_matches_concretization(a in itv(), b in itv()) {
            // Bounds are within [-6, 14], so the box [-20, 20] decides inclusion
            // of finite parts; infinite parts are compared through the box edges.
            let sub = points(a).iter().all(|v| b.contains(*v));
            prop_assert_eq!(a.leq(b), sub);
        }

        #[test]
        fn join_is_least_upper_bound(a in itv(), b in itv(), c in itv()) {
            let j = a.join(b);
            prop_assert!(a.leq(j) && b.leq(j));
            if a.leq(c) && b.leq(c) { prop_assert!(j.leq(c)); }
        }

        #[test]
        fn meet_is_intersection(a in itv(), b in itv()) {
            let m = a.meet(b);
            for v in -20..=20 {
                prop_assert_eq!(m.contains(v), a.contains(v) && b.contains(v));
            }
        }

        #[test]
        fn widening_is_upper_bound_and_stabilizes(a in itv(), xs in proptest::collection::vec(itv(), 1..20)) {
            let thresholds = [-5, 0, 10];
            for th in [&[][..], &thresholds[..]] {
                let mut w = a;
                let mut increases = 0;
                for x in &xs {
                    let next = w.widen_with_thresholds(w.join(*x), th);
                    prop_assert!(w.leq(next) && x.leq(next));
                    if next != w { increases += 1; }
                    w = next;
                }
                prop_assert!(increases <= 2 * (th.len() + 1) + 1);
            }
        }

        #[test]
        fn arithmetic_is_sound(a in itv(), b in itv()) {
            let (add, sub, mul, div, rem, neg) = (a.add(b), a.sub(b), a.mul(b), a.div(b), a.rem(b), a.neg());
            for x in points(a) {
                prop_assert!(neg.contains(-x));
                for y in points(b) {
                    prop_assert!(add.contains(x + y), "{a} + {b} = {add} misses {x}+{y}");
                    prop_assert!(sub.contains(x - y));
                    prop_assert!(mul.contains(x * y), "{a} * {b} = {mul} misses {x}*{y}");
                    if y != 0 {
                        prop_assert!(div.contains(x / y), "{a} / {b} = {div} misses {x}/{y}");
                        prop_assert!(rem.contains(x % y), "{a} % {b} = {rem} misses {x}%{y}");
                    }
                }
            }
        }

        #[test]
        fn wrapping_is_sound(l in -300i64..300, w in 0i64..600) {
            let a = Interval::range(l, l + w);
            let s = a.wrap_to(8, true);
            let u = a.wrap_to(8, false);
            for x in l..=l + w {
                prop_assert!(s.contains(x as i8 as i64));
                prop_assert!(u.contains(x as u8 as i64));
            }
        }
    }

    #[test]
    fn extreme_bounds_never_panic_nor_lose_values() {
        let vals = [i64::MIN, i64::MIN + 1, -7, -1, 0, 1, 7, i64::MAX - 1, i64::MAX];
        let mut itvs = vec![Interval::TOP, Interval::BOTTOM];
        for &l in &vals {
            for &h in &vals {
                itvs.push(Interval::range(l, h));
            }
        }
        let fits = |v: i128| i64::try_from(v).ok();
        for &a in &itvs {
            for &b in &itvs {
                let ops = [a.add(b), a.sub(b), a.mul(b), a.div(b), a.rem(b), a.neg(), a.join(b), a.meet(b), a.widen(b)];
                // Conversions keep every value, wrapped.
                let (a32, b8) = (a.wrap_to(32, true), b.wrap_to(8, false));
                for &x in vals.iter().filter(|&&x| a.contains(x)) {
                    assert!(a32.contains(x as i32 as i64), "{x} as i32 not in {a32} (from {a})");
                }
                for &x in vals.iter().filter(|&&x| b.contains(x)) {
                    assert!(b8.contains(x as u8 as i64), "{x} as u8 not in {b8} (from {b})");
                }
                for &x in vals.iter().filter(|&&x| a.contains(x)) {
                    if let Some(v) = fits(-(x as i128)) {
                        assert!(ops[5].contains(v), "-{x} not in {}", ops[5]);
                    }
                    for &y in vals.iter().filter(|&&y| b.contains(y)) {
                        let (x, y) = (x as i128, y as i128);
                        let mut exact = vec![(0, x + y), (1, x - y), (2, x * y)];
                        if y != 0 {
                            exact.push((3, x / y));
                            exact.push((4, x % y));
                        }
                        for (k, v) in exact {
                            if let Some(v) = fits(v) {
                                assert!(ops[k].contains(v), "op {k} on {a}, {b}: {v} not in {}", ops[k]);
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn arithmetic_examples() {
        let r = Interval::range;
        assert_eq!(r(1, 3).add(r(10, 20)), r(11, 23));
        assert_eq!(r(1, 3) + r(10, 20) - r(1, 1), r(10, 22));
        assert_eq!(-r(1, 3) * r(2, 2), r(-6, -2));
        assert_eq!(r(-2, 3).mul(r(-4, 5)), r(-12, 15));
        assert_eq!(r(-7, 7).div(r(2, 2)), r(-3, 3));
        assert_eq!(r(0, 100).rem(r(3, 3)), r(0, 2));
        assert_eq!(r(-100, -1).rem(r(-5, 5)), r(-4, 0));
        assert_eq!(r(1, 5).div(r(0, 0)), Interval::BOTTOM);
        assert_eq!(Interval::new(Some(0), None).mul(r(0, 0)), r(0, 0));
        assert_eq!(r(0, 1).widen(r(0, 2)), Interval::new(Some(0), None));
        assert_eq!(r(0, 1).widen_with_thresholds(r(0, 2), &[0, 10, 100]), r(0, 10));
        assert_eq!(r(250, 260).wrap_to(8, false), r(0, 255));
        assert_eq!(r(256, 260).wrap_to(8, false), r(0, 4));
        assert_eq!(format!("{}", Interval::new(None, Some(3))), "[-∞, 3]");
        // The extreme constants are kept (as a half-line), never lost.
        assert!(Interval::constant(i64::MIN).contains(i64::MIN));
        assert!(Interval::constant(i64::MAX).contains(i64::MAX));
        assert!(!Interval::constant(i64::MIN).is_bottom());
    }
}
