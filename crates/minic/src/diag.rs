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
    Error,
    Warning,
}

/// One message about the input program, located by its span.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    pub severity: Severity,
    pub span: Span,
    pub message: String,
}

impl Diagnostic {
    pub fn error(span: Span, message: impl Into<String>) -> Self {
        Diagnostic { severity: Severity::Error, span, message: message.into() }
    }
    pub fn warning(span: Span, message: impl Into<String>) -> Self {
        Diagnostic { severity: Severity::Warning, span, message: message.into() }
    }
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
