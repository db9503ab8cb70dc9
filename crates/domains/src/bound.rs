//! Exact upper bounds: an integer or `+∞`.
//!
//! A [`Bound`] is the value of one cell of a difference-bound matrix: the
//! constraint `V_j − V_i ≤ b`. The set of bounds is a totally ordered lattice
//!
//! ```text
//!        +∞          (no constraint: the top)
//!         |
//!        ...
//!         2
//!         1
//!         0
//!        -1
//!        ...
//! ```
//!
//! with `min` as meet and `max` as join. A smaller bound is a *stronger*
//! constraint.
//!
//! # Representation
//!
//! A bound is an `i64` in which `i64::MAX` stands for `+∞`, so a matrix of
//! bounds is a plain `Vec<i64>`-sized array (8 bytes a cell, no tag) and `min`
//! is one machine instruction. The finite values are therefore
//! `i64::MIN ..= i64::MAX − 1`; [`Bound::finite`] turns `i64::MAX` itself into
//! `+∞`, which is sound (see below).
//!
//! # Soundness of overflow
//!
//! Bounds are only ever *upper* bounds. Replacing an upper bound by a larger
//! one keeps every point that satisfied it, so whenever an exact result does
//! not fit in an `i64` (positive **or** negative overflow) [`Bound::add`]
//! returns `+∞`: the constraint is dropped, never invented. All arithmetic is
//! exact integer arithmetic; there are no floats anywhere in the domains.

use serde::{Deserialize, Serialize};
use std::fmt;

/// An upper bound `b ∈ ℤ ∪ {+∞}` (exact; see the module docs for the encoding).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Bound(i64);

// `add` is the saturating-to-`+∞` sum, not `std::ops::Add` (which would
// suggest ordinary integer addition).
#[allow(clippy::should_implement_trait)]
impl Bound {
    /// `+∞`: no constraint at all (the top of the order).
    pub const INF: Bound = Bound(i64::MAX);
    /// The bound `0`.
    pub const ZERO: Bound = Bound(0);

    /// The finite bound `c`; `c = i64::MAX` is read as `+∞` (a weaker, hence
    /// sound, upper bound).
    #[inline]
    pub const fn finite(c: i64) -> Bound {
        Bound(c)
    }

    /// The bound from an `i128`: values outside the finite range become `+∞`
    /// (sound for an upper bound).
    #[inline]
    pub fn from_i128(c: i128) -> Bound {
        if c >= i64::MAX as i128 || c < i64::MIN as i128 {
            Bound::INF
        } else {
            Bound(c as i64)
        }
    }

    /// `Some(c)` for a finite bound, `None` for `+∞`.
    #[inline]
    pub const fn get(self) -> Option<i64> {
        if self.0 == i64::MAX {
            None
        } else {
            Some(self.0)
        }
    }

    /// Whether this is `+∞`.
    #[inline]
    pub const fn is_inf(self) -> bool {
        self.0 == i64::MAX
    }

    /// The raw encoding (`i64::MAX` = `+∞`), for the matrix code.
    #[inline]
    pub const fn raw(self) -> i64 {
        self.0
    }

    /// Sum of two upper bounds: `a + b`, with `+∞` absorbing and any overflow
    /// mapped to `+∞` (sound: see the module docs).
    #[inline]
    pub fn add(self, other: Bound) -> Bound {
        Bound(add_raw(self.0, other.0))
    }

    /// Adds a finite constant (`+∞ + c = +∞`; overflow gives `+∞`).
    #[inline]
    pub fn add_const(self, c: i64) -> Bound {
        if c == i64::MAX {
            // Would be confused with the infinity encoding; compute exactly.
            return match self.get() {
                None => Bound::INF,
                Some(b) => Bound::from_i128(b as i128 + c as i128),
            };
        }
        Bound(add_raw(self.0, c))
    }

    /// The lesser bound (the meet: the conjunction of both constraints).
    #[inline]
    pub fn min(self, other: Bound) -> Bound {
        Bound(self.0.min(other.0))
    }

    /// The greater bound (the join: the weaker of both constraints).
    #[inline]
    pub fn max(self, other: Bound) -> Bound {
        Bound(self.0.max(other.0))
    }

    /// `⌊b / 2⌋` (`+∞` stays `+∞`). Used to turn a bound on `2·x` or on
    /// `(V_ī − V_i + V_j − V_j̄)` into a bound on half of it over the integers.
    #[inline]
    pub fn half_floor(self) -> Bound {
        if self.is_inf() {
            self
        } else {
            Bound(self.0.div_euclid(2))
        }
    }

    /// The largest even bound `≤ b` (`+∞` stays `+∞`): the integer tightening
    /// of a bound on `2·x`.
    #[inline]
    pub fn floor_even(self) -> Bound {
        if self.is_inf() {
            self
        } else {
            Bound(self.0 - self.0.rem_euclid(2))
        }
    }
}

/// Raw sum on the encoding: `+∞` absorbs, overflow gives `+∞`.
#[inline(always)]
pub(crate) fn add_raw(a: i64, b: i64) -> i64 {
    let (s, o) = a.overflowing_add(b);
    if o | (a == i64::MAX) | (b == i64::MAX) {
        i64::MAX
    } else {
        s
    }
}

impl fmt::Debug for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.get() {
            Some(c) => write!(f, "{c}"),
            None => write!(f, "+∞"),
        }
    }
}

impl From<i64> for Bound {
    fn from(c: i64) -> Bound {
        Bound::finite(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_puts_infinity_on_top() {
        assert!(Bound::finite(5) < Bound::INF);
        assert!(Bound::finite(-5) < Bound::finite(5));
        assert_eq!(Bound::finite(3).min(Bound::INF), Bound::finite(3));
        assert_eq!(Bound::finite(3).max(Bound::INF), Bound::INF);
    }

    #[test]
    fn add_is_exact_and_overflow_is_infinite() {
        assert_eq!(Bound::finite(3).add(Bound::finite(-7)), Bound::finite(-4));
        assert_eq!(Bound::finite(3).add(Bound::INF), Bound::INF);
        assert_eq!(Bound::INF.add(Bound::finite(-100)), Bound::INF);
        assert_eq!(Bound::finite(i64::MAX - 1).add(Bound::finite(1)), Bound::INF);
        assert_eq!(Bound::finite(i64::MIN).add(Bound::finite(-1)), Bound::INF);
        assert_eq!(Bound::finite(-5).add_const(i64::MAX), Bound::finite(i64::MAX - 5));
    }

    #[test]
    fn halves_round_down() {
        assert_eq!(Bound::finite(-3).half_floor(), Bound::finite(-2));
        assert_eq!(Bound::finite(3).half_floor(), Bound::finite(1));
        assert_eq!(Bound::finite(-3).floor_even(), Bound::finite(-4));
        assert_eq!(Bound::finite(3).floor_even(), Bound::finite(2));
        assert_eq!(Bound::INF.floor_even(), Bound::INF);
    }
}
