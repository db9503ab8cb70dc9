//! Lowering a checked AST to CFAs (see the crate docs for the shape).

use crate::Program;
use minic::ast::TranslationUnit;
use minic::Diagnostic;

/// Builds the CFAs of a translation unit that passed `minic`'s checks.
/// Errors here are what only lowering can find (e.g. no `main`).
pub fn build(_unit: &TranslationUnit) -> Result<Program, Vec<Diagnostic>> {
    todo!("CFA lowering: see the CFA task")
}
