//! The sign domain: whether an integer is negative, zero or positive.
//!
//! An element is a set of signs, a subset of `{−, 0, +}` ordered by
//! inclusion (`⊑` is `⊆`, `⊔` is `∪`; `⊥ = {}`, `⊤ = {−, 0, +}`).
//! `γ(−)` is every negative value of the type, `γ(0) = {0}`, `γ(+)` every
//! positive one; an unsigned type has no `−`.
//!
//! Arithmetic (`+ − · / %`, unary `−`) is computed on the intervals the
//! signs stand for (`−` is `[min, −1]`, `+` is `[1, max]` of the type) with
//! [`crate::Interval`]'s sound operations, and the result's signs read off.
//! Under C's wrap-around a result that may leave the type's range becomes
//! the whole type (`+ + +` may wrap to a negative `int`). Bitwise operators
//! and shifts follow two's-complement rules (`− & − = −`, `x | − = −`, …).

use crate::arith::{Arith, Rel};
use crate::interval::Interval;
use serde::{Deserialize, Serialize};
use std::fmt;

const NEG: u8 = 1;
const ZERO: u8 = 2;
const POS: u8 = 4;

/// A set of signs (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Sign(u8);

impl Sign {
    /// `⊥`: no value.
    pub const BOTTOM: Sign = Sign(0);
    /// The negative values.
    pub const NEG: Sign = Sign(NEG);
    /// Zero.
    pub const ZERO: Sign = Sign(ZERO);
    /// The positive values.
    pub const POS: Sign = Sign(POS);
    /// `⊤`: any value.
    pub const TOP: Sign = Sign(NEG | ZERO | POS);

    /// The sign of the constant `v`.
    pub fn constant(v: i128) -> Sign {
        match v.signum() {
            -1 => Sign::NEG,
            0 => Sign::ZERO,
            _ => Sign::POS,
        }
    }

    /// `⊤` of a type: every sign its values can have (no `−` when unsigned
    /// under C's integers; `_Bool` is 0 or 1).
    pub fn top_of(t: Arith) -> Sign {
        match t.min() {
            Some(m) if m >= 0 => Sign(ZERO | POS),
            _ => Sign::TOP,
        }
    }

    /// Whether `v ∈ γ(self)`.
    pub fn contains(self, v: i128) -> bool {
        Sign::constant(v).leq(self)
    }

    /// `self ⊑ other`.
    pub fn leq(self, other: Sign) -> bool {
        self.0 & !other.0 == 0
    }

    /// `⊔`: both sets of signs.
    pub fn join(self, other: Sign) -> Sign {
        Sign(self.0 | other.0)
    }

    /// `⊓`: the common signs.
    pub fn meet(self, other: Sign) -> Sign {
        Sign(self.0 & other.0)
    }

    /// Whether this is `⊥`.
    pub fn is_bottom(self) -> bool {
        self.0 == 0
    }

    /// Whether the value may be non-zero (a branch on it may be taken).
    pub fn may_be_nonzero(self) -> bool {
        self.0 & (NEG | POS) != 0
    }

    /// Whether the value may be zero.
    pub fn may_be_zero(self) -> bool {
        self.0 & ZERO != 0
    }

    fn parts(self) -> impl Iterator<Item = u8> {
        [NEG, ZERO, POS].into_iter().filter(move |b| self.0 & b != 0)
    }

    fn interval(bit: u8, t: Arith) -> Interval {
        let clamp = |v: Option<i128>| v.and_then(|v| i64::try_from(v).ok());
        match bit {
            NEG => Interval::new(clamp(t.min()), Some(-1)),
            ZERO => Interval::constant(0),
            _ => Interval::new(Some(1), clamp(t.max())),
        }
    }

    fn of_interval(i: Interval) -> Sign {
        let mut out = Sign::BOTTOM;
        for (bit, part) in
            [(NEG, Interval::new(None, Some(-1))), (ZERO, Interval::constant(0)), (POS, Interval::new(Some(1), None))]
        {
            if !i.meet(part).is_bottom() {
                out.0 |= bit;
            }
        }
        out
    }

    /// The signs of `f` applied to the intervals of `a`'s and `b`'s signs,
    /// widened to the type's `⊤` when a result may wrap around.
    fn arith2(a: Sign, b: Sign, t: Arith, f: impl Fn(Interval, Interval) -> Interval) -> Sign {
        let mut out = Sign::BOTTOM;
        for x in a.parts() {
            for y in b.parts() {
                let r = f(Sign::interval(x, t), Sign::interval(y, t));
                let fits = match (t.min(), t.max()) {
                    (Some(lo), Some(hi)) => r.fits_in(lo, hi),
                    _ => true,
                };
                out = out.join(if fits { Sign::of_interval(r) } else { Sign::top_of(t) });
            }
        }
        out.normalized(t)
    }

    /// In `_Bool` every non-zero result is 1.
    fn normalized(self, t: Arith) -> Sign {
        if t.is_bool() && self.0 & NEG != 0 {
            Sign(self.0 & !NEG | POS)
        } else {
            self
        }
    }

    fn table2(a: Sign, b: Sign, t: Arith, f: impl Fn(u8, u8) -> u8) -> Sign {
        let mut out = Sign::BOTTOM;
        for x in a.parts() {
            for y in b.parts() {
                out.0 |= f(x, y);
            }
        }
        out.meet(Sign::top_of(t)).normalized(t)
    }

    /// `a + b`.
    pub fn add(self, b: Sign, t: Arith) -> Sign {
        Sign::arith2(self, b, t, Interval::add)
    }

    /// `a - b`.
    pub fn sub(self, b: Sign, t: Arith) -> Sign {
        Sign::arith2(self, b, t, Interval::sub)
    }

    /// `a * b`.
    pub fn mul(self, b: Sign, t: Arith) -> Sign {
        Sign::arith2(self, b, t, Interval::mul)
    }

    /// `a / b` (C's division truncates toward zero; by zero: no result).
    pub fn div(self, b: Sign, t: Arith) -> Sign {
        Sign::arith2(self, b, t, Interval::div)
    }

    /// `a % b` (the sign of `a`, or zero).
    pub fn rem(self, b: Sign, t: Arith) -> Sign {
        Sign::arith2(self, b, t, Interval::rem)
    }

    /// `-a`.
    pub fn neg(self, t: Arith) -> Sign {
        Sign::arith2(Sign::ZERO, self, t, Interval::sub)
    }

    /// `~a = -a - 1`: `−` becomes `0`/`+`, `0` and `+` become `−` (under
    /// C's unsigned integers `~a` is `max - a`: zero or positive).
    pub fn bitnot(self, t: Arith) -> Sign {
        if t.min() == Some(0) {
            return if self.is_bottom() { self } else { Sign::top_of(t) };
        }
        Sign::table2(self, Sign::ZERO, t, |x, _| if x == NEG { ZERO | POS } else { NEG })
    }

    /// `a & b` in two's complement: negative only when both are.
    pub fn bitand(self, b: Sign, t: Arith) -> Sign {
        Sign::table2(self, b, t, |x, y| match (x, y) {
            (ZERO, _) | (_, ZERO) => ZERO,
            (NEG, NEG) => NEG,
            _ => ZERO | POS,
        })
    }

    /// `a | b`: negative when either is, zero only when both are.
    pub fn bitor(self, b: Sign, t: Arith) -> Sign {
        Sign::table2(self, b, t, |x, y| match (x, y) {
            (NEG, _) | (_, NEG) => NEG,
            (ZERO, ZERO) => ZERO,
            _ => POS,
        })
    }

    /// `a ^ b`: negative when exactly one is.
    pub fn bitxor(self, b: Sign, t: Arith) -> Sign {
        Sign::table2(self, b, t, |x, y| match (x, y) {
            (ZERO, z) | (z, ZERO) => z,
            (NEG, NEG) | (POS, POS) => ZERO | POS,
            _ => NEG,
        })
    }

    /// `a << k`: zero stays zero; otherwise, as `a · 2^k` may leave the
    /// type, the type's `⊤` under C (the sign of `a` over mathematical
    /// integers, or zero for a shift that loses every bit: never there).
    pub fn shl(self, k: Sign, t: Arith) -> Sign {
        Sign::table2(self, k, t, |x, _| match x {
            ZERO => ZERO,
            _ if t.wraps => NEG | ZERO | POS,
            other => other,
        })
    }

    /// `a >> k` (arithmetic for signed types): a negative value stays
    /// negative, a positive one becomes zero or positive.
    pub fn shr(self, k: Sign, t: Arith) -> Sign {
        Sign::table2(self, k, t, |x, _| match x {
            NEG => NEG,
            ZERO => ZERO,
            _ => ZERO | POS,
        })
    }

    /// `!a`: 1 for zero, 0 for a non-zero value.
    pub fn lognot(self) -> Sign {
        let mut out = Sign::BOTTOM;
        if self.may_be_zero() {
            out.0 |= POS;
        }
        if self.may_be_nonzero() {
            out.0 |= ZERO;
        }
        out
    }

    /// `a rel b` (0 or 1), decided on the signs' intervals: `− < +`, …
    pub fn compare(self, rel: Rel, b: Sign) -> Sign {
        let t = Arith { bits: 128, signed: true, wraps: false };
        let mut out = Sign::BOTTOM;
        for x in self.parts() {
            for y in b.parts() {
                let (i, j) = (Sign::interval(x, t), Sign::interval(y, t));
                let (may_true, may_false) = relation(rel, i, j);
                if may_true {
                    out.0 |= POS;
                }
                if may_false {
                    out.0 |= ZERO;
                }
            }
        }
        out
    }

    /// The conversion from type `from` to type `to`: unchanged when every
    /// value of `from` fits `to` (or without wrap-around), else zero stays
    /// zero and the rest may be any sign of `to`; into `_Bool` non-zero is 1.
    pub fn cast(self, from: Arith, to: Arith) -> Sign {
        if to.is_bool() {
            return self.lognot().lognot();
        }
        let fits = !to.wraps
            || match (from.min(), from.max(), to.min(), to.max()) {
                (Some(a), Some(b), Some(c), Some(d)) => c <= a && b <= d,
                _ => false,
            };
        if fits {
            return self;
        }
        let mut out = self.meet(Sign::ZERO);
        if self.may_be_nonzero() {
            out = out.join(Sign::top_of(to));
        }
        out
    }

    /// Keeps what is consistent with `value ∈ γ(self)` and `value rel c`
    /// for the constant `c` (e.g. `x < 0` leaves `−`).
    pub fn refine(self, rel: Rel, c: i128) -> Sign {
        let t = Arith { bits: 128, signed: true, wraps: false };
        let ci = i64::try_from(c).map(Interval::constant).unwrap_or(Interval::TOP);
        Sign(self.parts().filter(|x| relation(rel, Sign::interval(*x, t), ci).0).fold(0, |a, x| a | x))
    }
}

/// Whether `a rel b` may hold and whether it may fail, for some `a ∈ i`,
/// `b ∈ j` (neither empty).
fn relation(rel: Rel, i: Interval, j: Interval) -> (bool, bool) {
    let lo = |x: Interval| x.lo().map_or(i128::MIN, i128::from);
    let hi = |x: Interval| x.hi().map_or(i128::MAX, i128::from);
    let (ilo, ihi, jlo, jhi) = (lo(i), hi(i), lo(j), hi(j));
    let overlap = ilo <= jhi && jlo <= ihi;
    let both_same_const = ilo == ihi && jlo == jhi && ilo == jlo;
    match rel {
        Rel::Lt => (ilo < jhi, ihi >= jlo),
        Rel::Le => (ilo <= jhi, ihi > jlo),
        Rel::Gt => (ihi > jlo, ilo <= jhi),
        Rel::Ge => (ihi >= jlo, ilo < jhi),
        Rel::Eq => (overlap, !both_same_const),
        Rel::Ne => (!both_same_const, overlap),
    }
}

impl fmt::Display for Sign {
    /// `⊥`, `−`, `0`, `+`, `−0` (≤ 0), `0+` (≥ 0), `−+` (≠ 0) or `⊤`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.0 {
            0 => "⊥",
            NEG => "−",
            ZERO => "0",
            POS => "+",
            3 => "≤0",
            6 => "≥0",
            5 => "≠0",
            _ => "⊤",
        })
    }
}
