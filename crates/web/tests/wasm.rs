//! The page's code compiled to WebAssembly and run in headless chromium
//! (`wasm-bindgen-test`; scripts/test.sh runs it with
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test -p web --target wasm32-unknown-unknown`).
//! Natively this file is empty: the same view-model tests run on the host.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::*;
use web::model::page::{CfaView, Model, EXAMPLE_PROGRAM};

mod browser;
use browser::wait_for;

wasm_bindgen_test_configure!(run_in_browser);

/// The front end and the lowering work the same in wasm32 as natively.
#[wasm_bindgen_test]
fn example_lowers_in_wasm() {
    let model = Model::new(EXAMPLE_PROGRAM);
    let text = model.view.text();
    assert!(matches!(model.view, CfaView::Cfa { .. }), "{text}");
    assert!(text.contains("[loop head]"), "{text}");
    assert!(text.contains("ERROR"), "{text}");
}

/// The Yew app mounts and shows the listing of the example.
#[wasm_bindgen_test]
async fn app_renders_the_example_listing() {
    let document = web_sys::window().unwrap().document().unwrap();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    yew::Renderer::<web::ui::page::App>::with_root(root.clone()).render();
    let listing = wait_for("the CFA listing", || root.query_selector("[data-testid=cfa-listing]").unwrap()).await;
    let text = listing.text_content().unwrap_or_default();
    assert!(text.contains("loop head"), "{text}");
    assert!(text.contains("ERROR"), "{text}");
}

/// The page honours `restartAlgorithm.stageTimeMs` as the CLI does (its
/// wall clock is the browser's): a run that no step limit ends — C's
/// counter takes 2³² laps — ends UNKNOWN with the time limit named (long
/// before the step limit, which ends it instead when the limit is ignored).
#[wasm_bindgen_test]
fn the_page_honours_the_stage_time_limit() {
    use web::model::analysis::{Run, RunSpec};
    let spec = RunSpec {
        preset: "value".into(),
        int_model: minic::IntModel::C,
        max_steps: 200_000,
        properties: Some("#include value.properties\nrestartAlgorithm.stageTimeMs = 50\n".into()),
    };
    let run = Run::start("int main() { int i = 0; while (1) { i = i + 1; } return 0; }", spec).unwrap().complete();
    let last = run.cursor.events().last().cloned();
    let text = format!("{last:?}");
    assert!(text.contains("time limit reached: restartAlgorithm.stageTimeMs = 50"), "{text}");
}
