//! The graph views' glue in headless chromium (`wasm-bindgen-test`): the
//! frame store tells its subscribers only about changed frames, and the
//! page draws the example's CFA as an SVG graph.
//!
//!   CHROMEDRIVER=/usr/bin/chromedriver cargo test -p web --target wasm32-unknown-unknown --profile wasm-test --test wasm_graphs
#![cfg(target_arch = "wasm32")]

use std::cell::Cell;
use std::rc::Rc;

use wasm_bindgen_test::*;
use web::model::analysis::{Run, RunSpec};
use web::model::graphs::frame::RunFrame;
use web::model::page::EXAMPLE_PROGRAM;
use web::ui::graphs::FrameStore;

mod browser;
use browser::wait_for;

wasm_bindgen_test_configure!(run_in_browser);

/// Setting a frame equal to the current one notifies nobody; a new
/// position does; frames of an unchanged trace share its states.
#[wasm_bindgen_test]
fn the_frame_store_notifies_only_changes() {
    let mut run = Run::start(EXAMPLE_PROGRAM, RunSpec::default()).unwrap().complete();
    run.cursor.seek(20);
    let store = FrameStore::default();
    let calls = Rc::new(Cell::new(0));
    let id = {
        let calls = calls.clone();
        store.subscribe(yew::Callback::from(move |_| calls.set(calls.get() + 1)))
    };
    let f20 = Rc::new(RunFrame::new(1, &run, true, None));
    assert_eq!(f20.snapshot.states.len(), 4);
    store.set(Some(f20.clone()));
    assert_eq!(calls.get(), 1);
    let again = Rc::new(RunFrame::new(1, &run, true, Some(&f20)));
    assert!(Rc::ptr_eq(&again.arg_states, &f20.arg_states), "the trace did not grow: its states are reused");
    store.set(Some(again));
    assert_eq!(calls.get(), 1, "an equal frame is no change");
    run.cursor.seek(21);
    store.set(Some(Rc::new(RunFrame::new(1, &run, true, Some(&f20)))));
    assert_eq!(calls.get(), 2);
    store.unsubscribe(id);
    store.set(None);
    assert_eq!(calls.get(), 2);
    assert!(store.get().is_none());
}

/// The app draws the example's CFA as a graph: 13 nodes, one loop head.
#[wasm_bindgen_test]
async fn app_draws_the_cfa_graph() {
    let document = web_sys::window().unwrap().document().unwrap();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    yew::Renderer::<web::ui::page::App>::with_root(root.clone()).render();
    let nodes = wait_for("the CFA graph's nodes", || {
        let nodes = root.query_selector_all("[data-testid=cfa-graph] .cfa-node").unwrap();
        (nodes.length() > 0).then_some(nodes)
    })
    .await;
    assert_eq!(nodes.length(), 13);
    let heads = root.query_selector_all("[data-testid=cfa-graph] .cfa-node.loop-head").unwrap();
    assert_eq!(heads.length(), 1);
}
