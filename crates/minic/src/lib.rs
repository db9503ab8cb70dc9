//! # minic — the mini-C front end
//!
//! Source text → [`ast::TranslationUnit`] plus [`Diagnostic`]s. The grammar
//! (`grammar.pest`) covers the language of `docs/minic.md`; [`parse`] never panics
//! and reports every problem with line, column and a message in plain words.
//!
//! The pipeline, one module each:
//! 0. [`preprocess`] — `#if`/`#ifdef`/... groups, object-like macros, the other
//!    preprocessor lines (an offset map keeps spans in the source as written);
//! 1. `prescan` — size/binary/nesting limits, comments, typedef names;
//! 2. `parser` — pest grammar + Pratt parser → AST, rejecting constructs that
//!    are not mini-C with a message naming them;
//! 3. `errors` — pest's syntax errors reworded for students (one rename table);
//! 4. `check` — semantic checks (scopes, calls, labels, `break`, `main`, ...).
//!
//! Architecture invariant: this crate knows nothing of CFAs or analyses.

#![warn(missing_docs)]

pub mod ast;
mod check;
pub mod diag;
mod errors;
pub mod literal;
mod parser;
pub mod preprocess;
mod prescan;
pub mod span;
pub mod testkit;
pub mod types;

pub use check::{builtin_signature, const_eval, memory_signature, ASSERT_HELPERS};
pub use diag::{Diagnostic, Severity};
pub use prescan::{MAX_INPUT_BYTES, MAX_NESTING};
pub use span::Span;
pub use types::{CType, IntModel, IntType, Type};

use pest::Parser as _;

/// At most this many syntax errors are reported for one file.
pub const MAX_SYNTAX_ERRORS: usize = 10;

/// What parsing and checking a file yields: the AST when there were no errors,
/// and all diagnostics (errors and warnings) in source order.
#[derive(Clone, Debug)]
pub struct ParseOutput {
    /// The checked AST; `None` if any diagnostic is an error.
    pub unit: Option<ast::TranslationUnit>,
    /// Errors and warnings, sorted by position.
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
///
/// After a syntax error, parsing resumes after the broken statement (inside
/// a block) or at the next top-level item, so one run reports up to
/// [`MAX_SYNTAX_ERRORS`] of them; semantic checks run only on a file without
/// syntax errors.
pub fn parse(source: &str) -> ParseOutput {
    let plain_lines = span::LineIndex::new(source);
    if let Err(d) = prescan::check_input(source, &plain_lines) {
        return ParseOutput { unit: None, diagnostics: vec![d] };
    }
    // Conditional compilation and macros first: everything after reads the
    // preprocessed text, and `lines` maps its offsets back to the source.
    let pp = preprocess::preprocess_with(source, &plain_lines);
    if pp.has_errors() {
        return ParseOutput { unit: None, diagnostics: pp.diagnostics };
    }
    let lines = span::LineIndex::with_map(source, pp.map.clone());
    let expanded: &str = &pp.text;
    let pre = match prescan::prescan(expanded, &lines) {
        Ok(p) => p,
        Err(d) => return ParseOutput { unit: None, diagnostics: vec![d] },
    };
    let mut diagnostics = pp.diagnostics.clone();
    if source.trim().is_empty() {
        diagnostics
            .push(Diagnostic::error(lines.span(0, 0), "the file is empty: a mini-C program needs at least a `main` function"));
        return ParseOutput { unit: None, diagnostics };
    }

    let mut items = Vec::new();
    let mut structs = Vec::new();
    let mut builder_diagnostics = Vec::new();
    let mut syntax_errors = Vec::new();
    let mut base = 0;
    let mut rule = parser::Rule::file;
    // The text pest reads; statements around syntax errors get replaced (by
    // text of the same length) to find further errors.
    let mut text = pre.text.clone();
    // The preprocessed source with the same repairs, for the names and
    // literals the AST builder reads (the parsed text also has comments
    // blanked and typedef names marked).
    let mut repaired_source = std::borrow::Cow::Borrowed(expanded);
    let mut last_error: Option<usize> = None;
    let mut attempts = 0;
    // Bytes given to pest so far: recovery stops at twice the largest
    // input, so a huge broken file cannot keep the parser busy for long.
    let mut parsed_bytes = 0;
    loop {
        let rest = text.get(base..).unwrap_or("");
        parsed_bytes += rest.len();
        let result = parser::MiniCParser::parse(rule, rest);
        let e = match result {
            Ok(mut pairs) => {
                if let Some(file) = pairs.next() {
                    let builder = parser::Builder::new(&repaired_source, &lines);
                    builder.set_base(base);
                    builder.items(file, &mut items);
                    structs = builder.take_structs();
                    builder_diagnostics = builder.into_diagnostics();
                }
                break;
            }
            Err(e) => e,
        };
        let d = errors::syntax_error(&e, base, expanded, &lines, &pre);
        let pos = errors::error_offset(&e, base);
        // A repair may leave the same error in place: report it once.
        if last_error.is_none_or(|last| pos > last) {
            syntax_errors.push(d);
            last_error = Some(pos);
        }
        if syntax_errors.len() >= MAX_SYNTAX_ERRORS {
            break;
        }
        // Inside a block: replace the broken statement and parse again.
        // A repair must change the text (and there are at most
        // `4 * MAX_SYNTAX_ERRORS` attempts), so this ends.
        let repair = errors::statement_repair(&text, pos).filter(|(s, r)| {
            let end = s + r.len();
            *s >= base
                && text.get(*s..end) != Some(r.as_str())
                && [&text, expanded].iter().all(|t| t.is_char_boundary(*s) && t.is_char_boundary(end))
        });
        attempts += 1;
        if attempts > 4 * MAX_SYNTAX_ERRORS || parsed_bytes > 2 * MAX_INPUT_BYTES {
            break;
        }
        if let Some((start, replacement)) = repair {
            text.replace_range(start..start + replacement.len(), &replacement);
            repaired_source.to_mut().replace_range(start..start + replacement.len(), &replacement);
            continue;
        }
        // Otherwise resume at the next top-level item.
        match pre.resume_points.iter().find(|&&r| r > pos) {
            Some(&r) => {
                base = r;
                rule = parser::Rule::file_rest;
            }
            None => break,
        }
    }
    diagnostics.extend(syntax_errors.iter().cloned());
    diagnostics.extend(builder_diagnostics);
    let unit = ast::TranslationUnit { items, structs };
    if syntax_errors.is_empty() && !diagnostics.iter().any(|d| d.is_error()) {
        diagnostics.extend(check::check(&unit, &lines));
    }
    diagnostics.sort_by_key(|d| d.span.start);
    let ok = !diagnostics.iter().any(|d| d.is_error());
    ParseOutput { unit: ok.then_some(unit), diagnostics }
}

/// A diagnostic as the command line prints it:
/// `FILE:LINE:COLUMN: error: message` (or `warning: message`).
pub fn render_diagnostic(file: &str, d: &Diagnostic) -> String {
    let kind = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    format!("{file}:{}:{}: {kind}: {}", d.span.line, d.span.col, d.message)
}
