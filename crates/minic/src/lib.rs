//! # minic — the mini-C front end
//!
//! Source text → [`ast::TranslationUnit`] plus [`Diagnostic`]s. The grammar
//! (`grammar.pest`) covers the language of `MINIC.md`; [`parse`] never panics
//! and reports every problem with line, column and a message in plain words.
//!
//! Architecture invariant: this crate knows nothing of CFAs or analyses.

pub mod ast;
pub mod diag;
pub mod span;
pub mod types;

pub use diag::{Diagnostic, Severity};
pub use span::Span;
pub use types::{IntModel, IntType, Type};

/// What parsing and checking a file yields: the AST when there were no errors,
/// and all diagnostics (errors and warnings) in source order.
#[derive(Clone, Debug)]
pub struct ParseOutput {
    pub unit: Option<ast::TranslationUnit>,
    pub diagnostics: Vec<Diagnostic>,
}

impl ParseOutput {
    /// The errors among the diagnostics.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(|d| d.is_error())
    }
}

/// Parses and checks a mini-C program. `unit` is `Some` exactly when no
/// diagnostic is an error.
pub fn parse(_source: &str) -> ParseOutput {
    todo!("parser: see the front-end task")
}
