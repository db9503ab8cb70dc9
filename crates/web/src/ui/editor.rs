//! The code editor component: CodeMirror ([`crate::platform::codemirror`])
//! kept in sync with the page's program text and its diagnostics
//! ([`crate::model::editor`]).

use std::rc::Rc;

use wasm_bindgen::prelude::*;
use yew::prelude::*;

use crate::model::editor::{diagnostic_marks, marks_json};
use crate::model::page::DiagnosticRow;
use crate::platform::codemirror;

/// How long the editor waits for the page to be idle after its first render
/// at most (ms): a busy start (a link that opens a compare view while Z3
/// loads) still gets its editor within this.
const EDITOR_WAIT_MS: u32 = 300;

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
    // The latest callback, read by the change listener created once. A
    // non-rendering handle (kept with `use_mut_ref`, not in state): the
    // editor's JavaScript listener outlives renders and must call the
    // current callback, and replacing it must not re-render the editor.
    let on_edit = use_mut_ref(|| props.on_edit.clone());
    *on_edit.borrow_mut() = props.on_edit.clone();

    // The text to create the editor with: the latest, since the editor is
    // created after the render that mounted this component.
    let latest_source = use_mut_ref(String::new);
    latest_source.borrow_mut().clone_from(&props.source);

    {
        let (host, on_edit, latest_source) = (host.clone(), on_edit.clone(), latest_source.clone());
        let fallback = fallback.clone();
        use_effect_with((), move |_| {
            let listener = Rc::new(Closure::<dyn FnMut(String)>::new(move |text: String| {
                let cb = on_edit.borrow().clone();
                cb.emit(text);
            }));
            // CodeMirror is created when the page is first idle after its
            // first render: in a task of its own, and after the frames that
            // lay out what the page's start adds (the first render, a compare
            // view opened by a link), so the editor's own layout is all its
            // first measure does (on a cold load they share the cores with
            // Z3's compile).
            let create = {
                let listener = listener.clone();
                crate::platform::idle::when_idle(EDITOR_WAIT_MS, move || {
                    if let Some(el) = host.cast::<web_sys::Element>() {
                        if codemirror::mount(&el, &latest_source.borrow(), &listener).is_err() {
                            fallback.set(true);
                        }
                    }
                })
            };
            move || {
                // Not created yet: dropping the timeout cancels it.
                drop(create);
                codemirror::unmount();
                drop(listener);
            }
        });
    }
    use_effect_with(props.source.clone(), |source| codemirror::sync_text(source));
    let json = marks_json(&diagnostic_marks(&props.source, &props.diagnostics));
    use_effect_with(json, |json| codemirror::set_diagnostics(json));

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
