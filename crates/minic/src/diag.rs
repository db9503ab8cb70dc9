//! Diagnostics: errors and warnings with a location and a message in plain words.
//!
//! Architecture invariant: the front end never panics; everything wrong with
//! the input ends up here, worded for a student ("expected `;` after the
//! expression"), never as a grammar rule name.

use crate::span::Span;
use serde::{Deserialize, Serialize};
use std::fmt;

/// How bad a diagnostic is. Errors stop the analysis; warnings do not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Something the analysis cannot work with.
    Error,
    /// Something suspicious that does not stop the analysis.
    Warning,
}

/// One message about the input program, located by its span.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// The source text it is about.
    pub span: Span,
    /// What is wrong, in words a student understands.
    pub message: String,
}

impl Diagnostic {
    /// An error at `span`.
    pub fn error(span: Span, message: impl Into<String>) -> Self {
        Diagnostic { severity: Severity::Error, span, message: message.into() }
    }
    /// A warning at `span`.
    pub fn warning(span: Span, message: impl Into<String>) -> Self {
        Diagnostic { severity: Severity::Warning, span, message: message.into() }
    }
    /// Whether this is an error (not a warning).
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    /// `line 4, column 7: pointers are not part of mini-C` (warnings say so).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.severity {
            Severity::Error => "",
            Severity::Warning => "warning: ",
        };
        write!(f, "line {}, column {}: {}{}", self.span.line, self.span.col, kind, self.message)
    }
}
