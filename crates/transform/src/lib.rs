//! # transform — abstraction as a program transformation
//!
//! Instead of an analysis that interprets a program over abstract values
//! (a CPA), the program itself is rewritten so that it computes on abstract
//! values, and an ordinary explicit-state explorer runs the result (Lauko,
//! Ročkai, Barnat: "Symbolic Computation via Program Transformation").
//!
//! * [`options`]: which domain and which values start abstract (the
//!   lifted inputs and variables);
//! * [`propagate`]: value propagation — a data-flow pass over the CFA that
//!   finds, at each location, which variables may hold an abstract value;
//! * [`program`]: the transformed program — per CFA edge, its operation
//!   with `lift`, the domain's `a_op`s, `freeze`/`thaw` of globals and
//!   memory cells (a shadow map beside concrete memory), `lower` of
//!   abstract addresses, and the `lift`s a join point needs; built by
//!   [`program::transform`];
//! * [`print`](mod@print): the transformed program as readable mini-C-like text, one
//!   line per edge linked to the original span;
//! * [`value`]: the abstract values at run time (parity, sign, term) and the
//!   domain operations on them; [`term`] the term domain's symbols, path
//!   conditions and solver queries.
//!
//! The explorer that runs a transformed program is in the engine
//! (`engine::explorer`), so it emits the same trace as the CPA runs.
//!
//! *Architecture invariant*: the transformation is total on every program
//! `cfa` lowers (no panic, no error); it never changes control flow — one
//! transformed edge per CFA edge, so every location and edge id keeps its
//! meaning.

#![warn(missing_docs)]

pub mod options;
pub mod print;
pub mod program;
pub mod propagate;
pub mod term;
pub mod value;

pub use options::{Domain, LiftSet, Options};
pub use program::{transform, AExpr, Address, Operand, TEdge, TOp, Transformed};
pub use value::AbsValue;
