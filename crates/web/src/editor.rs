//! The page's code editor: CodeMirror 6 (bundled from npm by
//! `scripts/bundle-js.mjs` out of `www/js/editor.mjs`, which defines the
//! global `CpaEditor`), bound here with wasm-bindgen.
//!
//! * [`diagnostic_marks`] turns the front end's diagnostics into the
//!   line/column ranges the editor underlines (plain Rust, tested natively);
//! * in the browser, `CodeEditor` is the Yew component that creates the
//!   editor once and keeps its text and diagnostics in sync with the page's
//!   model, and `highlight_line` / `set_caret` let any panel point at a
//!   source line (the current CFA edge while stepping, the selected state).
//!
//! The page has one editor; the functions that act on "the editor" find it
//! in a thread-local handle set by `CodeEditor` when it mounts, and do
//! nothing when there is none.

use serde_json::json;

use crate::view::{CfaView, DiagnosticRow};

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

#[cfg(target_arch = "wasm32")]
pub use browser::{highlight_line, set_caret, CodeEditor, CodeEditorProps};

#[cfg(target_arch = "wasm32")]
mod browser {
    use std::cell::RefCell;

    use wasm_bindgen::prelude::*;
    use yew::prelude::*;

    use super::{diagnostic_marks, marks_json, LineKind};
    use crate::view::DiagnosticRow;

    // The global glue of www/js/editor.mjs, in a block of its own (a
    // `module =` attribute would apply to a whole block).
    #[wasm_bindgen]
    extern "C" {
        /// A CodeMirror `EditorView`, opaque to Rust.
        #[derive(Clone)]
        type CmView;

        #[wasm_bindgen(catch, js_namespace = CpaEditor, js_name = create)]
        fn cm_create(parent: &web_sys::Element, text: &str, on_change: &Closure<dyn FnMut(String)>) -> Result<CmView, JsValue>;
        #[wasm_bindgen(catch, js_namespace = CpaEditor, js_name = getText)]
        fn cm_get_text(view: &CmView) -> Result<String, JsValue>;
        #[wasm_bindgen(catch, js_namespace = CpaEditor, js_name = setText)]
        fn cm_set_text(view: &CmView, text: &str) -> Result<(), JsValue>;
        #[wasm_bindgen(catch, js_namespace = CpaEditor, js_name = setDiagnostics)]
        fn cm_set_diagnostics(view: &CmView, json: &str) -> Result<(), JsValue>;
        #[wasm_bindgen(catch, js_namespace = CpaEditor, js_name = highlightLine)]
        fn cm_highlight_line(view: &CmView, kind: &str, line: u32) -> Result<(), JsValue>;
        #[wasm_bindgen(catch, js_namespace = CpaEditor, js_name = setCaret)]
        fn cm_set_caret(view: &CmView, line: u32, col: u32) -> Result<(), JsValue>;
        #[wasm_bindgen(catch, js_namespace = CpaEditor, js_name = destroy)]
        fn cm_destroy(view: &CmView) -> Result<(), JsValue>;
        #[wasm_bindgen(js_namespace = console, js_name = error)]
        fn console_error(message: &str);
    }

    thread_local! {
        /// The page's editor, while [`CodeEditor`] is mounted.
        static EDITOR: RefCell<Option<CmView>> = const { RefCell::new(None) };
    }

    fn with_editor(f: impl FnOnce(&CmView) -> Result<(), JsValue>) {
        let view = EDITOR.with(|e| e.borrow().clone());
        if let Some(view) = view {
            if let Err(e) = f(&view) {
                console_error(&format!("editor: {e:?}"));
            }
        }
    }

    /// Highlights source line `line` (1-based) as `kind` and scrolls it into
    /// view; `None` removes that highlight.
    pub fn highlight_line(kind: LineKind, line: Option<u32>) {
        with_editor(|v| cm_highlight_line(v, kind.js_name(), line.unwrap_or(0)));
    }

    /// Puts the caret at `line`, `col` (1-based, characters) and focuses the editor.
    pub fn set_caret(line: u32, col: u32) {
        with_editor(|v| cm_set_caret(v, line, col));
    }

    /// Properties of [`CodeEditor`].
    #[derive(Properties, PartialEq)]
    pub struct CodeEditorProps {
        /// The program text (the editor is updated when it differs, e.g.
        /// after "Reset example").
        pub source: String,
        /// The front end's diagnostics for `source`, marked in the text.
        pub diagnostics: Vec<DiagnosticRow>,
        /// Called with the new text after every edit.
        pub on_edit: Callback<String>,
    }

    /// The CodeMirror editor: line numbers, mini-C highlighting,
    /// diagnostics marked at their line and column, undo/redo, bracket
    /// matching, and the current/selected line highlights.
    #[function_component(CodeEditor)]
    pub fn code_editor(props: &CodeEditorProps) -> Html {
        let host = use_node_ref();
        // Without the editor script (a build without the bundle), a plain
        // textarea keeps the page usable.
        let fallback = use_state(|| false);
        // The latest callback, read by the change listener created once.
        let on_edit = use_mut_ref(|| props.on_edit.clone());
        *on_edit.borrow_mut() = props.on_edit.clone();

        {
            let (host, on_edit, initial) = (host.clone(), on_edit.clone(), props.source.clone());
            let fallback = fallback.clone();
            use_effect_with((), move |_| {
                let listener = Closure::<dyn FnMut(String)>::new(move |text: String| {
                    let cb = on_edit.borrow().clone();
                    cb.emit(text);
                });
                if let Some(el) = host.cast::<web_sys::Element>() {
                    match cm_create(&el, &initial, &listener) {
                        Ok(view) => EDITOR.with(|e| *e.borrow_mut() = Some(view)),
                        Err(e) => {
                            console_error(&format!("the code editor could not start, using a plain text area: {e:?}"));
                            fallback.set(true);
                        }
                    }
                }
                move || {
                    if let Some(view) = EDITOR.with(|e| e.borrow_mut().take()) {
                        let _ = cm_destroy(&view);
                    }
                    drop(listener);
                }
            });
        }
        use_effect_with(props.source.clone(), |source| {
            with_editor(|v| if cm_get_text(v)? != *source { cm_set_text(v, source) } else { Ok(()) });
        });
        let json = marks_json(&diagnostic_marks(&props.source, &props.diagnostics));
        use_effect_with(json, |json| with_editor(|v| cm_set_diagnostics(v, json)));

        if *fallback {
            let oninput = props.on_edit.reform(|e: InputEvent| e.target_unchecked_into::<web_sys::HtmlTextAreaElement>().value());
            return html! {
                <div class="editor" data-testid="editor" ref={host}>
                    <textarea class="code" spellcheck="false" wrap="off" aria-label="mini-C program"
                        rows={(props.source.lines().count() + 1).to_string()} value={props.source.clone()} {oninput} />
                </div>
            };
        }
        html! { <div class="editor cm-host" data-testid="editor" ref={host}></div> }
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
