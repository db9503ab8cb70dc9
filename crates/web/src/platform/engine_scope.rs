//! The analysis engine's Web Worker, seen from inside: the page's own
//! WebAssembly module, started a second time in a module worker
//! (`static/engine-worker-loader.js`; the page posts it the module it
//! compiled, so the worker compiles nothing and shares the compiled code)
//! whose `main` finds no document and calls [`run`]. It owns the runs'
//! CPA algorithms ([`crate::model::engine_link::EngineHost`]) and computes
//! them in slices, so the page's main thread only renders; between slices
//! it reads its messages (new runs, solver answers, Cancel). Once the page
//! hands it a port to Z3's worker, a parked run's query goes straight to
//! Z3 there ([`crate::model::engine_link::DirectSolver`]) and the page is
//! only told (`Asked` / `Answered`, for its solver log). It never touches
//! Yew or the document.

use std::cell::{Cell, RefCell};

use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent, MessagePort};

use crate::model::engine_link::{DirectSolver, EngineHost, FromEngine, ToEngine, WORKER_POST_MS, WORKER_SLICE_MS};
use crate::model::run_driver::NO_ANSWER;

/// The port to Z3's worker and the handler of its answers.
type Z3Port = (MessagePort, Closure<dyn FnMut(MessageEvent)>);

thread_local! {
    static HOST: RefCell<EngineHost> = RefCell::new(EngineHost::default());
    /// The slice loop is running (it stops when no run can compute).
    static PUMPING: Cell<bool> = const { Cell::new(false) };
    /// The port to Z3's worker, once the page handed one over, with
    /// the handler of its answers (kept as long as the port).
    static Z3: RefCell<Option<Z3Port>> = const { RefCell::new(None) };
    static DIRECT: RefCell<DirectSolver> = RefCell::new(DirectSolver::default());
}

/// A query for Z3's worker (its `check` message).
#[derive(Serialize)]
struct Check<'a> {
    r#type: &'static str,
    id: u32,
    script: &'a str,
}

/// Z3's worker's reply on the port.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
enum FromZ3 {
    Answer { id: u32, text: String },
    Failed { id: u32, error: String },
}

/// The worker's clock in milliseconds.
fn now() -> f64 {
    crate::platform::clock::now_ms()
}

/// Posts a query to Z3's worker over the port (false: no port, or it failed).
fn ask_z3(id: u32, script: &str) -> bool {
    Z3.with(|z| {
        let z = z.borrow();
        let Some((port, _)) = z.as_ref() else { return false };
        match serde_wasm_bindgen::to_value(&Check { r#type: "check", id, script }) {
            Ok(m) => port.post_message(&m).is_ok(),
            Err(_) => false,
        }
    })
}

/// The page handed over a (new) port to Z3's worker: queries still
/// unanswered are asked again there.
fn connect_z3(port: MessagePort) {
    let on_answer = Closure::<dyn FnMut(MessageEvent)>::new(|e: MessageEvent| on_z3(e.data()));
    port.set_onmessage(Some(on_answer.as_ref().unchecked_ref()));
    Z3.with(|z| {
        if let Some((old, _)) = z.borrow_mut().replace((port, on_answer)) {
            old.set_onmessage(None);
            old.close();
        }
    });
    let again = DIRECT.with(|d| d.borrow_mut().renumber());
    for (id, script) in again {
        ask_z3(id, &script);
    }
}

/// Z3's worker crashed: the port is dropped (queries go to the page
/// until a new one comes) and the queries it held resume with no answer.
fn lose_z3(why: &str) {
    if let Some((port, _)) = Z3.with(|z| z.borrow_mut().take()) {
        port.set_onmessage(None);
        port.close();
    }
    for (run, ms) in DIRECT.with(|d| d.borrow_mut().lose(now())) {
        HOST.with(|h| h.borrow_mut().receive(ToEngine::Answer { run, text: NO_ANSWER.into() }));
        post(&FromEngine::Answered { run, outcome: Err(why.to_string()), ms });
    }
}

/// Z3's answer to a direct query: its run resumes at once, and the page
/// is told (for the solver log).
fn on_z3(data: JsValue) {
    let (id, outcome) = match serde_wasm_bindgen::from_value::<FromZ3>(data) {
        Ok(FromZ3::Answer { id, text }) => (id, Ok(text)),
        Ok(FromZ3::Failed { id, error }) => (id, Err(error)),
        Err(_) => return,
    };
    let Some((run, ms)) = DIRECT.with(|d| d.borrow_mut().answered(id, now())) else { return };
    let text = outcome.clone().unwrap_or_else(|_| NO_ANSWER.into());
    HOST.with(|h| h.borrow_mut().receive(ToEngine::Answer { run, text }));
    post(&FromEngine::Answered { run, outcome, ms });
    pump();
}

/// Sends the host's replies: a query goes straight to Z3's worker when
/// there is a port (the page only hears of it, for its log), to the page
/// otherwise.
fn dispatch(replies: Vec<FromEngine>) {
    for r in replies {
        match r {
            FromEngine::Query { run, query } if Z3.with(|z| z.borrow().is_some()) => {
                let id = DIRECT.with(|d| d.borrow_mut().ask(run, &query.script, now()));
                ask_z3(id, &query.script);
                post(&FromEngine::Asked { run, query });
            }
            other => post(&other),
        }
    }
}

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

/// Posts one message to the page, as the JSON text of
/// [`crate::model::engine_link::encode`].
fn post(message: &FromEngine) {
    match crate::model::engine_link::encode(message) {
        Ok(text) => {
            if let Err(e) = scope().post_message(&JsValue::from_str(&text)) {
                web_sys::console::error_2(&"engine worker: cannot post".into(), &e);
            }
        }
        Err(e) => web_sys::console::error_1(&format!("engine worker: cannot encode a message: {e}").into()),
    }
}

fn receive(data: JsValue) {
    // The page's port to Z3's worker is a transferred object, not a
    // typed message: `{type: 'z3-port', port}`.
    let kind = js_sys::Reflect::get(&data, &"type".into()).ok().and_then(|t| t.as_string());
    if kind.as_deref() == Some("z3-port") {
        if let Ok(port) = js_sys::Reflect::get(&data, &"port".into()) {
            if let Ok(port) = port.dyn_into::<MessagePort>() {
                connect_z3(port);
            }
        }
        return;
    }
    let message = match serde_wasm_bindgen::from_value::<ToEngine>(data) {
        Ok(m) => m,
        Err(e) => {
            web_sys::console::warn_1(&format!("engine worker: unreadable message: {e}").into());
            return;
        }
    };
    match &message {
        ToEngine::Cancel { run } => DIRECT.with(|d| d.borrow_mut().forget(*run)),
        ToEngine::Z3Lost { why } => lose_z3(why),
        _ => {}
    }
    let replies = HOST.with(|h| h.borrow_mut().receive(message));
    dispatch(replies);
    pump();
}

/// Computes slice after slice while some run can, yielding to the
/// worker's event loop in between (so messages are read).
fn pump() {
    if PUMPING.with(|p| p.replace(true)) {
        return;
    }
    wasm_bindgen_futures::spawn_local(async {
        while HOST.with(|h| h.borrow().has_work()) {
            // A slice of WORKER_SLICE_MS, posted to the page every
            // WORKER_POST_MS (small messages, short tasks on the page).
            let t0 = now();
            loop {
                let t1 = now();
                let out = HOST.with(|h| h.borrow_mut().slice(|| now() - t1 > WORKER_POST_MS));
                dispatch(out);
                if !HOST.with(|h| h.borrow().has_work()) || now() - t0 > WORKER_SLICE_MS {
                    break;
                }
            }
            gloo_timers::future::TimeoutFuture::new(0).await;
        }
        PUMPING.with(|p| p.set(false));
    });
}

/// Listens to the page (the worker's entry, called by the page's `main`
/// when it runs in a worker).
pub fn run() {
    console_error_panic_hook::set_once();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(|e: MessageEvent| receive(e.data()));
    scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The worker keeps it for its whole life.
    on_message.forget();
    // Before the page sends anything: the page's decoding of this worker's
    // messages compiled here, off the page's main thread.
    crate::model::engine_link::warm_decoding();
    post(&FromEngine::Ready);
}
