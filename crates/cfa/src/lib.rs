//! # cfa — control-flow automata
//!
//! A mini-C program becomes one control-flow automaton (CFA) per function,
//! CPAchecker-style: nodes are program locations, edges are operations
//! (declaration, assignment, assumption, call, return). `&&`, `||` and `?:`
//! become separate assume edges, so each condition is visible. The whole
//! program is one [`Program`] holding all functions' nodes and edges, numbered
//! deterministically in source order.
//!
//! Architecture invariant: this crate knows nothing of abstract domains or of
//! the CPA algorithm; analyses only read a [`Program`].

pub mod expr;
mod model;

pub use expr::{BinOp, EvalError, Expr, UnOp};
pub use model::*;
mod export;
mod lower;

pub use export::{edge_kind_name, JsonEdge, JsonFunction, JsonNode, JsonVariable, JsonView};

pub use lower::build;

/// Parses, checks and lowers a mini-C source text in one go. On success the
/// program carries the front end's warnings and its own in `warnings`.
pub fn from_source(source: &str) -> Result<Program, Vec<minic::Diagnostic>> {
    let out = minic::parse(source);
    let unit = match out.unit {
        Some(unit) => unit,
        None => return Err(out.diagnostics),
    };
    let mut program = build(&unit)?;
    let mut warnings: Vec<minic::Diagnostic> = out.diagnostics;
    warnings.append(&mut program.warnings);
    warnings.sort_by_key(|d| (d.span.start, d.span.end));
    program.warnings = warnings;
    Ok(program)
}
