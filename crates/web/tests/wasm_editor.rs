//! The editor's wasm-bindgen glue (`web::model::editor`), in headless chromium,
//! against a recording stand-in for the `CpaEditor` global (the real one
//! is CodeMirror, tested end to end in tests/e2e/editor-views.test.mjs):
//! the component creates the editor once with the program, passes the
//! diagnostics as line/column ranges, replaces the text only when it
//! differs, and the line highlights reach the editor.
//!
//!   CHROMEDRIVER=/usr/bin/chromedriver cargo test -p web --target wasm32-unknown-unknown --test wasm_editor
#![cfg(target_arch = "wasm32")]

use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;
use web::model::editor::LineKind;
use web::model::page::DiagnosticRow;
use web::platform::codemirror::highlight_line;
use web::ui::editor::CodeEditor;
use yew::prelude::*;

mod browser;
use browser::wait_for;

wasm_bindgen_test_configure!(run_in_browser);

/// Installs a `CpaEditor` that records every call in `globalThis.editorCalls`.
fn install_fake_editor() {
    js_sys::eval(
        r#"
        globalThis.editorCalls = [];
        const log = (...a) => globalThis.editorCalls.push(a.map(String).join('|'));
        globalThis.CpaEditor = {
          create(el, text, onChange) { log('create', text); globalThis.editorChange = onChange; return { text }; },
          getText(v) { return v.text; },
          setText(v, t) { log('setText', t); v.text = t; },
          setDiagnostics(v, json) { log('setDiagnostics', json); },
          highlightLine(v, kind, line) { log('highlightLine', kind, line); },
          setCaret(v, line, col) { log('setCaret', line, col); },
          destroy(v) { log('destroy'); },
        };
        "#,
    )
    .expect("the stand-in installs");
}

fn calls() -> Vec<String> {
    let v = js_sys::eval("globalThis.editorCalls.slice()").unwrap_or(JsValue::NULL);
    js_sys::Array::from(&v).iter().filter_map(|c| c.as_string()).collect()
}

#[derive(Properties, PartialEq)]
struct HostProps {
    source: String,
    diagnostics: Vec<DiagnosticRow>,
}

#[function_component(Host)]
fn host(props: &HostProps) -> Html {
    html! { <CodeEditor source={props.source.clone()} diagnostics={props.diagnostics.clone()} on_edit={Callback::noop()} /> }
}

/// Both scenarios touch the one `CpaEditor` global, and wasm-bindgen-test
/// interleaves async tests at every `await`; so they run in order in one test.
#[wasm_bindgen_test]
async fn the_editor_glue_with_and_without_the_editor_script() {
    the_component_drives_the_editor_glue().await;
    without_the_editor_script_a_plain_text_area_keeps_the_page_usable().await;
}

async fn the_component_drives_the_editor_glue() {
    install_fake_editor();
    let document = web_sys::window().unwrap().document().unwrap();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    let diag = DiagnosticRow { line: 1, col: 5, is_error: true, message: "expected `;`".into() };
    let mut app =
        yew::Renderer::<Host>::with_root_and_props(root.clone(), HostProps { source: "int x".into(), diagnostics: vec![diag] })
            .render();
    // The editor is created when the page is first idle (at most
    // EDITOR_WAIT_MS after the render), and its diagnostics follow.
    let c = wait_for("the editor created with its diagnostics", || {
        let c = calls();
        c.iter().any(|x| x.starts_with("setDiagnostics|")).then_some(c)
    })
    .await;
    assert_eq!(c[0], "create|int x", "{c:?}");
    assert!(!c.iter().any(|x| x.starts_with("setText")), "the text is not replaced by itself: {c:?}");
    let diags = c.iter().find(|x| x.starts_with("setDiagnostics|")).expect("diagnostics are passed");
    assert!(diags.contains(r#""line":1"#) && diags.contains(r#""col":5"#) && diags.contains(r#""endCol":6"#), "{diags}");
    assert!(root.query_selector("[data-testid=editor]").unwrap().is_some());

    // A new program from outside (e.g. "Reset example") replaces the text once.
    app.update(HostProps { source: "int main() { return 0; }".into(), diagnostics: vec![] });
    let c = wait_for("the new text and its diagnostics", || {
        let c = calls();
        (c.last().map(String::as_str) == Some("setDiagnostics|[]")).then_some(c)
    })
    .await;
    assert_eq!(c.iter().filter(|x| x.starts_with("setText")).count(), 1, "{c:?}");
    assert_eq!(c.last().map(String::as_str), Some("setDiagnostics|[]"), "{c:?}");

    highlight_line(LineKind::Current, Some(3));
    highlight_line(LineKind::Selected, None);
    web::platform::codemirror::set_caret(2, 7);
    let c = calls();
    assert_eq!(&c[c.len() - 3..], ["highlightLine|current|3", "highlightLine|selected|0", "setCaret|2|7"]);

    app.destroy();
    wait_for("the editor destroyed", || (calls().last().map(String::as_str) == Some("destroy")).then_some(())).await;
    // Without an editor, pointing at lines does nothing (and never panics).
    highlight_line(LineKind::Current, Some(1));
    assert_eq!(calls().last().map(String::as_str), Some("destroy"));
}

async fn without_the_editor_script_a_plain_text_area_keeps_the_page_usable() {
    js_sys::eval("delete globalThis.CpaEditor").expect("removes the global");
    let document = web_sys::window().unwrap().document().unwrap();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    let app =
        yew::Renderer::<Host>::with_root_and_props(root.clone(), HostProps { source: "int x;".into(), diagnostics: vec![] })
            .render();
    let area =
        wait_for("a textarea instead of the editor", || root.query_selector("[data-testid=editor] textarea").unwrap()).await;
    let area: web_sys::HtmlTextAreaElement = wasm_bindgen::JsCast::dyn_into(area).unwrap();
    assert_eq!(area.value(), "int x;");
    app.destroy();
}
