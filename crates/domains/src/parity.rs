//! The parity domain: whether an integer is even or odd.
//!
//! An element is a set of parities, `⊥ = {}`, `even`, `odd` and
//! `⊤ = {even, odd}`, ordered by inclusion (`⊑` is `⊆`, `⊔` is `∪`). Its
//! concretization `γ(even)` is every even value of the type, `γ(odd)` every
//! odd one. The operations follow school arithmetic: even ± even and
//! odd ± odd are even, odd · odd is odd, anything times even is even. They
//! hold under C's wrap-around too, because wrapping subtracts a multiple of
//! 2^w and every C type but `_Bool` has an even width; a result in `_Bool`
//! (0 or 1 after normalizing) is `⊤` unless known.
//!
//! What parity cannot say: whether a value is zero — so `!x` and a branch
//! on an even `x` keep both outcomes, and an even `x % 2` is "even", not 0.

use crate::arith::{Arith, Rel};
use serde::{Deserialize, Serialize};
use std::fmt;

const EVEN: u8 = 1;
const ODD: u8 = 2;

/// A set of parities (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Parity(u8);

impl Parity {
    /// `⊥`: no value.
    pub const BOTTOM: Parity = Parity(0);
    /// Every even value.
    pub const EVEN: Parity = Parity(EVEN);
    /// Every odd value.
    pub const ODD: Parity = Parity(ODD);
    /// `⊤`: any value.
    pub const TOP: Parity = Parity(EVEN | ODD);

    /// The parity of the constant `v`.
    pub fn constant(v: i128) -> Parity {
        if v % 2 == 0 {
            Parity::EVEN
        } else {
            Parity::ODD
        }
    }

    /// Whether `v ∈ γ(self)`.
    pub fn contains(self, v: i128) -> bool {
        Parity::constant(v).leq(self)
    }

    /// `self ⊑ other` (`γ(self) ⊆ γ(other)`).
    pub fn leq(self, other: Parity) -> bool {
        self.0 & !other.0 == 0
    }

    /// `⊔`: both sets of parities.
    pub fn join(self, other: Parity) -> Parity {
        Parity(self.0 | other.0)
    }

    /// `⊓`: the common parities.
    pub fn meet(self, other: Parity) -> Parity {
        Parity(self.0 & other.0)
    }

    /// Whether this is `⊥`.
    pub fn is_bottom(self) -> bool {
        self.0 == 0
    }

    /// Whether the value may be non-zero (a branch on it may be taken).
    pub fn may_be_nonzero(self) -> bool {
        !self.is_bottom()
    }

    /// Whether the value may be zero (even values include 0).
    pub fn may_be_zero(self) -> bool {
        self.0 & EVEN != 0
    }

    fn map2(a: Parity, b: Parity, f: impl Fn(u8, u8) -> Parity) -> Parity {
        let mut out = Parity::BOTTOM;
        for x in [EVEN, ODD] {
            for y in [EVEN, ODD] {
                if a.0 & x != 0 && b.0 & y != 0 {
                    out = out.join(f(x, y));
                }
            }
        }
        out
    }

    fn in_type(self, t: Arith) -> Parity {
        if t.is_bool() && !self.is_bottom() {
            Parity::TOP
        } else {
            self
        }
    }

    /// `a + b` (and `a - b`, `a ^ b`: the same parity rule).
    pub fn add(self, b: Parity, t: Arith) -> Parity {
        Parity::map2(self, b, |x, y| if x == y { Parity::EVEN } else { Parity::ODD }).in_type(t)
    }

    /// `a - b`.
    pub fn sub(self, b: Parity, t: Arith) -> Parity {
        self.add(b, t)
    }

    /// `a * b`.
    pub fn mul(self, b: Parity, t: Arith) -> Parity {
        Parity::map2(self, b, |x, y| if x == ODD && y == ODD { Parity::ODD } else { Parity::EVEN }).in_type(t)
    }

    /// `a / b`: any parity (7/2 = 3, 6/2 = 3, 8/2 = 4).
    pub fn div(self, b: Parity, _t: Arith) -> Parity {
        Parity::map2(self, b, |_, _| Parity::TOP)
    }

    /// `a % b`: C's remainder `a - (a/b)·b` has `a`'s parity when `b` is
    /// even; otherwise any parity.
    pub fn rem(self, b: Parity, t: Arith) -> Parity {
        Parity::map2(self, b, |x, y| if y == EVEN { Parity(x) } else { Parity::TOP }).in_type(t)
    }

    /// `a << k`: `a · 2^k` — even when `a` is even (an odd `a` shifted by
    /// 0 stays odd).
    pub fn shl(self, k: Parity, t: Arith) -> Parity {
        Parity::map2(self, k, |x, _| if x == EVEN { Parity::EVEN } else { Parity::TOP }).in_type(t)
    }

    /// `a >> k`: any parity.
    pub fn shr(self, k: Parity, _t: Arith) -> Parity {
        Parity::map2(self, k, |_, _| Parity::TOP)
    }

    /// `a & b`: the lowest bit is the AND of the lowest bits.
    pub fn bitand(self, b: Parity, t: Arith) -> Parity {
        Parity::map2(self, b, |x, y| if x == ODD && y == ODD { Parity::ODD } else { Parity::EVEN }).in_type(t)
    }

    /// `a | b`: the lowest bit is the OR of the lowest bits.
    pub fn bitor(self, b: Parity, t: Arith) -> Parity {
        Parity::map2(self, b, |x, y| if x == ODD || y == ODD { Parity::ODD } else { Parity::EVEN }).in_type(t)
    }

    /// `a ^ b`: the lowest bit is the XOR of the lowest bits.
    pub fn bitxor(self, b: Parity, t: Arith) -> Parity {
        self.add(b, t)
    }

    /// `-a`: the same parity.
    pub fn neg(self, t: Arith) -> Parity {
        self.in_type(t)
    }

    /// `~a = -a - 1`: the other parity.
    pub fn bitnot(self, t: Arith) -> Parity {
        Parity(((self.0 & EVEN) << 1) | ((self.0 & ODD) >> 1)).in_type(t)
    }

    /// `!a`: 0 when `a` is odd (so non-zero); 0 or 1 when it may be zero.
    pub fn lognot(self) -> Parity {
        let mut out = Parity::BOTTOM;
        if self.0 & ODD != 0 {
            out = out.join(Parity::EVEN);
        }
        if self.0 & EVEN != 0 {
            out = Parity::TOP;
        }
        out
    }

    /// `a rel b` (0 or 1): values of different parity are never equal, so
    /// `==` is 0 and `!=` is 1 between an even and an odd value; every other
    /// comparison may go both ways.
    pub fn compare(self, rel: Rel, b: Parity) -> Parity {
        Parity::map2(self, b, |x, y| match rel {
            Rel::Eq if x != y => Parity::EVEN,
            Rel::Ne if x != y => Parity::ODD,
            _ => Parity::TOP,
        })
    }

    /// The conversion of a value from type `from` to type `to`: wrapping
    /// into an even width keeps the parity; into `_Bool`, an odd value is 1
    /// and an even one 0 or 1.
    pub fn cast(self, _from: Arith, to: Arith) -> Parity {
        if to.is_bool() {
            let mut out = Parity::BOTTOM;
            if self.0 & ODD != 0 {
                out = out.join(Parity::ODD);
            }
            if self.0 & EVEN != 0 {
                out = Parity::TOP;
            }
            out
        } else {
            self
        }
    }

    /// Keeps what is consistent with `value ∈ γ(self)` and `value rel c`
    /// for the constant `c`: `x == c` fixes the parity, nothing else does.
    pub fn refine(self, rel: Rel, c: i128) -> Parity {
        match rel {
            Rel::Eq => self.meet(Parity::constant(c)),
            _ => self,
        }
    }
}

impl fmt::Display for Parity {
    /// `⊥`, `even`, `odd` or `⊤`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.0 {
            0 => "⊥",
            EVEN => "even",
            ODD => "odd",
            _ => "⊤",
        })
    }
}
