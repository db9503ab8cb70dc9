//! # smt — formulas, SMT-LIB2 and solvers
//!
//! The SMT layer of CPA Playground, below the engine and knowing nothing of
//! it:
//!
//! * [`term`]: the project's own formula terms over `Int`, bit-vectors and
//!   Booleans, with constant-folding constructors, substitution, renaming
//!   and exact ground evaluation;
//! * [`encode`]: mini-C expressions ([`cfa::Expr`]) as terms under
//!   `solver.theory = INTEGER | BITVECTOR` — the public API every analysis
//!   that talks to a solver uses ([`encode_expr`], [`encode_condition`]);
//! * [`script`]: a satisfiability [`Query`] as one self-contained SMT-LIB2
//!   script;
//! * [`response`]: parsing a solver's output ([`parse_response`]);
//! * [`parse`]: SMT-LIB2 text back into terms ([`parse_term`]);
//! * [`qe`]: quantifier elimination as a script ([`qe::Elimination`]) and
//!   reading its result ([`qe::parse_qe_answer`]);
//! * [`univariate`]: deciding constraints over one bit-vector or integer
//!   variable (each, after cancelling common terms of equalities) exactly,
//!   without a solver ([`univariate::decide`]);
//! * [`backend`]: the text-in/text-out [`SolverBackend`] trait and its
//!   native back end [`Z3Process`] (a persistent `z3 -in`; not built for
//!   `wasm32`, where the page answers queries with `z3-solver`).

#![warn(missing_docs)]

pub mod backend;
pub mod encode;
pub mod parse;
pub mod qe;
pub mod response;
pub mod script;
pub mod term;
pub mod univariate;

#[cfg(not(target_arch = "wasm32"))]
pub use backend::{solver_totals, SolverTotals, Z3Process};
pub use backend::{RecordedBackend, SolverBackend, SolverError};
pub use encode::{encode_cast, encode_condition, encode_expr, EncodeEnv, Encoding, MapEnv, Theory};
pub use parse::parse_term;
pub use qe::{parse_qe_answer, Elimination, QeAnswer};
pub use response::{parse_response, Response, Status};
pub use script::{canonical_script, CanonicalScript, Query};
pub use term::{Node, Op, Sort, Term, Value};
