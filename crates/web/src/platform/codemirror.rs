//! CodeMirror 6 in the page (bundled from npm by `scripts/bundle-js.mjs` out
//! of `www/js/editor.mjs`, which defines the global `CpaEditor`), bound with
//! wasm-bindgen.
//!
//! The page has one editor: [`mount`] creates it in an element and keeps a
//! thread-local handle to it, [`unmount`] destroys it, and every other
//! function acts on that editor. Asked while there is none (the component
//! creates the editor in a task after the page's first render), the
//! diagnostics and decorations asked last are kept and applied when
//! [`mount`] creates it. The Yew component around it is
//! `crate::ui::editor::CodeEditor`.

use std::cell::{Cell, RefCell};

use wasm_bindgen::prelude::*;

use crate::model::editor::LineKind;

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
    #[wasm_bindgen(catch, js_namespace = CpaEditor, js_name = setPathLines)]
    fn cm_set_path_lines(view: &CmView, lines: &str) -> Result<(), JsValue>;
    #[wasm_bindgen(catch, js_namespace = CpaEditor, js_name = setCaret)]
    fn cm_set_caret(view: &CmView, line: u32, col: u32) -> Result<(), JsValue>;
    #[wasm_bindgen(catch, js_namespace = CpaEditor, js_name = destroy)]
    fn cm_destroy(view: &CmView) -> Result<(), JsValue>;
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(message: &str);
}

/// Marked on the page's clock when the editor has been created (the
/// benchmarks place the page's start with it).
pub const EDITOR_MARK: &str = "cpa-playground:editor";

thread_local! {
    /// The page's editor, while it is mounted.
    static EDITOR: RefCell<Option<CmView>> = const { RefCell::new(None) };
    /// What was asked of the editor while there was none, applied by [`mount`].
    static WANTED: RefCell<Wanted> = RefCell::new(Wanted::default());
    /// Set from [`mount`] until the task after it has applied [`WANTED`]:
    /// requests meanwhile are recorded too, so they are applied in order.
    static CATCHING_UP: Cell<bool> = const { Cell::new(false) };
}

/// The last diagnostics and decorations asked for while no editor was
/// mounted (each `None` when not asked).
#[derive(Default)]
struct Wanted {
    diagnostics: Option<String>,
    current: Option<u32>,
    selected: Option<u32>,
    path_lines: Option<Vec<u32>>,
    caret: Option<(u32, u32)>,
}

fn with_editor(f: impl FnOnce(&CmView) -> Result<(), JsValue>) {
    let view = EDITOR.with(|e| e.borrow().clone());
    if let Some(view) = view {
        if let Err(e) = f(&view) {
            console_error(&format!("editor: {e:?}"));
        }
    }
}

/// Runs `f` on the editor, or, without one (or before the editor has
/// caught up with what was asked before it existed), records the request
/// with `keep`.
fn with_editor_or_keep(f: impl FnOnce(&CmView) -> Result<(), JsValue>, keep: impl FnOnce(&mut Wanted)) {
    if mounted() && !CATCHING_UP.get() {
        with_editor(f);
    } else {
        WANTED.with(|w| keep(&mut w.borrow_mut()));
    }
}

/// Applies what was asked while no editor was mounted to the one just created.
fn apply_wanted() {
    CATCHING_UP.set(false);
    let wanted = WANTED.with(|w| std::mem::take(&mut *w.borrow_mut()));
    if let Some(json) = wanted.diagnostics {
        set_diagnostics(&json);
    }
    for (kind, line) in [(LineKind::Current, wanted.current), (LineKind::Selected, wanted.selected)] {
        if let Some(line) = line {
            highlight_line(kind, Some(line));
        }
    }
    if let Some(lines) = wanted.path_lines {
        set_path_lines(&lines);
    }
    if let Some((line, col)) = wanted.caret {
        set_caret(line, col);
    }
}

/// Creates the page's editor in `parent` with `text`, calling `on_change`
/// with the new text after every edit. An error (no editor bundle) is
/// logged and returned, so the caller can fall back to a plain text area.
pub fn mount(parent: &web_sys::Element, text: &str, on_change: &Closure<dyn FnMut(String)>) -> Result<(), String> {
    match cm_create(parent, text, on_change) {
        Ok(view) => {
            EDITOR.with(|e| *e.borrow_mut() = Some(view));
            crate::platform::clock::performance_mark(EDITOR_MARK);
            // Diagnostics and line marks in a task of their own: creating
            // the editor is one main-thread task already, and each
            // decoration makes CodeMirror update its view again.
            CATCHING_UP.set(true);
            gloo_timers::callback::Timeout::new(0, apply_wanted).forget();
            Ok(())
        }
        Err(e) => {
            let message = format!("{e:?}");
            console_error(&format!("the code editor could not start, using a plain text area: {message}"));
            Err(message)
        }
    }
}

/// Whether the page's editor has been created (and not destroyed).
pub fn mounted() -> bool {
    EDITOR.with(|e| e.borrow().is_some())
}

/// Destroys the page's editor, if mounted.
pub fn unmount() {
    if let Some(view) = EDITOR.with(|e| e.borrow_mut().take()) {
        let _ = cm_destroy(&view);
    }
}

/// Replaces the editor's text with `text` when it differs (an edit of the
/// page's model, e.g. "Reset example"; the editor's own edits already match).
pub fn sync_text(text: &str) {
    with_editor(|v| if cm_get_text(v)? != text { cm_set_text(v, text) } else { Ok(()) });
}

/// Marks the diagnostics given as the JSON of [`crate::model::editor::marks_json`].
pub fn set_diagnostics(json: &str) {
    with_editor_or_keep(|v| cm_set_diagnostics(v, json), |w| w.diagnostics = Some(json.to_string()));
}

/// Highlights source line `line` (1-based) as `kind` and scrolls it into
/// view; `None` removes that highlight.
pub fn highlight_line(kind: LineKind, line: Option<u32>) {
    let line = line.unwrap_or(0);
    with_editor_or_keep(
        |v| cm_highlight_line(v, kind.js_name(), line),
        |w| match kind {
            LineKind::Current => w.current = Some(line),
            LineKind::Selected => w.selected = Some(line),
        },
    );
}

/// Marks the source lines of an error path (1-based; empty clears).
pub fn set_path_lines(lines: &[u32]) {
    let json = serde_json::to_string(lines).unwrap_or_else(|_| "[]".into());
    with_editor_or_keep(|v| cm_set_path_lines(v, &json), |w| w.path_lines = Some(lines.to_vec()));
}

/// Puts the caret at `line`, `col` (1-based, characters) and focuses the editor.
pub fn set_caret(line: u32, col: u32) {
    with_editor_or_keep(|v| cm_set_caret(v, line, col), |w| w.caret = Some((line, col)));
}
