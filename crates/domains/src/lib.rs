//! Numeric abstract domains of the CPA playground: pure lattices over
//! numbered variables `0..n`.
//!
//! * [`affine`] — affine equalities (Karr): `a + b = 3·i`, join = affine hull.
//! * [`bound`] — exact upper bounds `ℤ ∪ {+∞}`, the cells of a DBM.
//! * [`interval`] — integer intervals with ⊔, ⊓, widening and arithmetic.
//! * [`octagon`] — Miné's octagon domain on our own difference-bound
//!   matrices: closure, ⊑ ⊔ ⊓ ∇, transfer functions and UI views.
//! * [`parity`], [`sign`] — the value domains of abstraction as a program
//!   transformation: even/odd and −/0/+ as finite sets, with every C
//!   operator, over an [`arith::Arith`] (width, signedness, wrap-around).
//!
//! *Architecture invariant*: this crate knows nothing of CFAs, the CPA
//! algorithm or the UI. The engine translates program expressions into
//! [`octagon::LinExpr`]s and [`interval::Interval`]s.
//!
//! *Soundness contract* (every operation): the result over-approximates the
//! concrete operation on `γ` of its inputs — `γ(a) ∪ γ(b) ⊆ γ(a ⊔ b)`, and for
//! a transfer `t`, `post(γ(a)) ⊆ γ(t(a))`. A wrong `⊥` would make an analysis
//! prove an unsafe program safe, so every approximation errs towards `⊤`.

#![warn(missing_docs)]

pub mod affine;
pub mod arith;
pub mod bound;
pub mod interval;
pub mod octagon;
pub mod parity;
pub mod sign;

pub use arith::{Arith, Rel};
pub use bound::Bound;
pub use interval::Interval;
pub use octagon::{Cmp, LinExpr, Octagon};
pub use parity::Parity;
pub use sign::Sign;
