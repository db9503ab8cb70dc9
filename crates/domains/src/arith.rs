//! How an integer operation computes, as the value domains need to know it
//! without knowing C types or CFAs: the width and signedness of the
//! operation's type and whether results wrap around (C's ILP32 integers)
//! or are exact (mathematical integers).

use serde::{Deserialize, Serialize};

/// The arithmetic an abstract operation over-approximates: values of a
/// `bits`-wide, signed or unsigned type; with `wraps` every result is
/// reduced into the type's range as C does, without it results are exact
/// integers (only a 1-bit `_Bool` still normalizes to 0/1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Arith {
    /// The width of the type in bits (1 for `_Bool`).
    pub bits: u32,
    /// Whether the type is signed.
    pub signed: bool,
    /// Whether results wrap into the type (the `c` integer model).
    pub wraps: bool,
}

impl Arith {
    /// The smallest value of the type (`None`: unbounded, mathematical
    /// integers).
    pub fn min(self) -> Option<i128> {
        if self.bits == 1 {
            Some(0)
        } else if !self.wraps {
            None
        } else if self.signed {
            Some(-(1i128 << (self.bits - 1)))
        } else {
            Some(0)
        }
    }

    /// The largest value of the type (`None`: unbounded).
    pub fn max(self) -> Option<i128> {
        if self.bits == 1 {
            Some(1)
        } else if !self.wraps {
            None
        } else if self.signed {
            Some((1i128 << (self.bits - 1)) - 1)
        } else {
            Some((1i128 << self.bits) - 1)
        }
    }

    /// Whether the type is C's `_Bool` (every result normalizes to 0/1).
    pub fn is_bool(self) -> bool {
        self.bits == 1
    }
}

/// A comparison between two values; its result is 0 or 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Rel {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
}

impl Rel {
    /// Whether `a rel b` holds.
    pub fn holds(self, a: i128, b: i128) -> bool {
        match self {
            Rel::Lt => a < b,
            Rel::Le => a <= b,
            Rel::Gt => a > b,
            Rel::Ge => a >= b,
            Rel::Eq => a == b,
            Rel::Ne => a != b,
        }
    }
}
