//! Semantic checks (placeholder, filled in below).
use crate::ast::TranslationUnit;
use crate::diag::Diagnostic;
use crate::span::LineIndex;

pub(crate) fn check(_unit: &TranslationUnit, _lines: &LineIndex) -> Vec<Diagnostic> {
    Vec::new()
}
