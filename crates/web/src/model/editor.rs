//! What the page's code editor shows besides the text, as plain data: the
//! diagnostic ranges and the kinds of highlighted line. The editor itself
//! is CodeMirror (`crate::platform::codemirror`, component
//! `crate::ui::editor::CodeEditor`).
//!
//! * [`diagnostic_marks`] turns the front end's diagnostics into the
//!   line/column ranges the editor underlines (plain Rust, tested natively);
//! * [`LineKind`]: which highlight a panel puts on a source line.

use serde_json::json;

use crate::model::page::{CfaView, DiagnosticRow};

/// The diagnostics the editor marks for what the page shows: the errors of
/// a broken program, or the warnings of one that lowered.
pub fn diagnostics_of(view: &CfaView) -> Vec<DiagnosticRow> {
    match view {
        CfaView::Errors(rows) => rows.clone(),
        CfaView::Cfa { warnings, .. } => warnings.clone(),
    }
}

/// One range the editor marks: 1-based lines, 1-based columns in
/// characters, `end` exclusive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    /// Line of the first marked character.
    pub line: u32,
    /// Column of the first marked character.
    pub col: u32,
    /// Line of the end.
    pub end_line: u32,
    /// Column just past the last marked character.
    pub end_col: u32,
    /// `error` or `warning`.
    pub severity: &'static str,
    /// The message, as the diagnostics list shows it.
    pub message: String,
}

/// Whether `c` continues a mini-C identifier or number.
fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The ranges to mark for `rows` in `source`: each diagnostic marks the
/// word (identifier or number) that starts at its column, or the single
/// character there; at the end of a line, nothing is under the column, so
/// the editor marks the last character of the line instead.
pub fn diagnostic_marks(source: &str, rows: &[DiagnosticRow]) -> Vec<Mark> {
    let lines: Vec<&str> = source.split('\n').collect();
    rows.iter()
        .map(|r| {
            let text = lines.get(r.line.saturating_sub(1) as usize).copied().unwrap_or("");
            let rest: Vec<char> = text.chars().skip(r.col.saturating_sub(1) as usize).collect();
            let len = match rest.first() {
                None => 0,
                Some(&c) if is_word(c) => rest.iter().take_while(|&&c| is_word(c)).count(),
                Some(_) => 1,
            };
            Mark {
                line: r.line,
                col: r.col,
                end_line: r.line,
                end_col: r.col + len as u32,
                severity: if r.is_error { "error" } else { "warning" },
                message: r.message.clone(),
            }
        })
        .collect()
}

/// The marks as the JSON array `CpaEditor.setDiagnostics` reads:
/// `[{line, col, endLine, endCol, severity, message}]`.
pub fn marks_json(marks: &[Mark]) -> String {
    let rows: Vec<serde_json::Value> = marks
        .iter()
        .map(|m| {
            json!({
                "line": m.line, "col": m.col, "endLine": m.end_line, "endCol": m.end_col,
                "severity": m.severity, "message": m.message,
            })
        })
        .collect();
    serde_json::Value::Array(rows).to_string()
}

/// Which highlight of a source line: the CFA edge being processed, or what
/// the student selected. Both can be shown at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineKind {
    /// The line of the edge the shown step transfers along.
    Current,
    /// The line of the selected state, node or edge.
    Selected,
}

impl LineKind {
    /// The name `CpaEditor.highlightLine` takes.
    pub fn js_name(self) -> &'static str {
        match self {
            LineKind::Current => "current",
            LineKind::Selected => "selected",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(line: u32, col: u32, is_error: bool) -> DiagnosticRow {
        DiagnosticRow { line, col, is_error, message: "m".into() }
    }

    #[test]
    fn a_mark_covers_the_word_at_the_column_or_one_character() {
        let src = "int main() {\n  int ticks = 0\n  int x = 12;\n}";
        let marks =
            diagnostic_marks(src, &[row(3, 3, true), row(3, 11, false), row(2, 16, true), row(2, 15, true), row(9, 1, true)]);
        let spans: Vec<(u32, u32, u32)> = marks.iter().map(|m| (m.line, m.col, m.end_col)).collect();
        assert_eq!(spans, [(3, 3, 6), (3, 11, 13), (2, 16, 16), (2, 15, 16), (9, 1, 1)]);
        assert_eq!(marks[1].severity, "warning");
        assert_eq!(marks[0].severity, "error");
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        let src = "// é\nint ä = 1;";
        let m = &diagnostic_marks(src, &[row(2, 5, true)])[0];
        assert_eq!((m.col, m.end_col), (5, 6), "`ä` is not an ASCII word character: one character");
    }

    #[test]
    fn json_has_the_fields_the_editor_reads() {
        let json = marks_json(&diagnostic_marks(
            "int x",
            &[DiagnosticRow { line: 1, col: 5, is_error: true, message: "expected `;`".into() }],
        ));
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v[0]["line"], 1);
        assert_eq!(v[0]["col"], 5);
        assert_eq!(v[0]["endLine"], 1);
        assert_eq!(v[0]["endCol"], 6);
        assert_eq!(v[0]["severity"], "error");
        assert_eq!(v[0]["message"], "expected `;`");
        assert_eq!(marks_json(&[]), "[]");
    }
}
