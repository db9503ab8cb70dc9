//! The analysis engine's Web Worker, seen from the page: the channel to the
//! worker that computes the runs — the page's own WebAssembly module,
//! handed compiled to a module worker (`static/engine-worker-loader.js`,
//! the worker's side is [`crate::platform::engine_scope`]) — so the page's
//! main thread only folds their events and renders.
//!
//! The messages are [`crate::model::engine_link`]'s typed values: the
//! page's go with serde-wasm-bindgen, the worker's (a slice's trace events,
//! many nested values) as JSON text, which the page parses far faster than
//! it reads a tree of JavaScript objects. The worker is started after the page's first
//! render ([`warm_up`]) or on the first run, and kept; messages sent before it said [`FromEngine::Ready`] wait here.
//! A run that asks a solver gets the engine's worker a port to Z3's worker
//! first (a `MessageChannel`, one end to each): its queries then go to Z3
//! directly and the page only records them in the solver log from the
//! worker's `Asked` / `Answered` reports.
//! Each run has a handler that gets the worker's messages about it. A run
//! cancelled while the engine is busy inside one long step (the worker
//! does not confirm within [`GRACE_MS`]) is stopped by terminating the
//! worker; its other runs are told so, and the next run starts a new one.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{ErrorEvent, MessageChannel, MessageEvent, MessagePort, Worker};

use super::error_text;
use crate::model::engine_link::{FromEngine, Handover, ToEngine};

/// The worker's script (`static/engine-worker-loader.js`: it instantiates
/// the page's own module, which it is handed).
const WORKER_URL: &str = "engine-worker-loader.js";

/// How long a cancelled run may take to be confirmed before the worker is
/// taken to be stuck in the engine and terminated (milliseconds).
pub const GRACE_MS: u32 = 1000;

/// What the page does with the worker's messages about one run.
pub type Handler = Rc<dyn Fn(FromEngine)>;

/// The running worker and the handlers that must live as long as it.
struct Running {
    worker: Worker,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
}

/// What the page posts to the engine's worker: a typed message, or a
/// port to Z3's worker (transferred, so not a serde value).
enum Outgoing {
    Message(ToEngine),
    Z3Port(MessagePort),
}

#[derive(Default)]
struct Channel {
    running: Option<Running>,
    /// The worker said it listens.
    ready: bool,
    /// Messages waiting for the worker to be ready.
    outbox: Vec<Outgoing>,
    /// The number of Z3's worker the engine's worker holds a port to
    /// ([`crate::platform::z3_worker::generation`]).
    z3_link: Option<u64>,
    handlers: HashMap<u64, Handler>,
    /// Cancelled runs the worker has not confirmed yet.
    cancelling: Vec<u64>,
    next_run: u64,
}

thread_local! {
    static CHANNEL: RefCell<Channel> = RefCell::new(Channel::default());
}

/// Starts computing `run` in the engine's worker (starting the worker if
/// needed); `handler` gets every message about it. Returns the run's number.
pub fn start(run: Handover, handler: Handler) -> u64 {
    let id = CHANNEL.with(|c| {
        let mut c = c.borrow_mut();
        c.next_run += 1;
        let id = c.next_run;
        c.handlers.insert(id, handler);
        id
    });
    if run.spec.uses_solver() {
        link_z3();
    }
    send(ToEngine::Start { run: id, source: run.source, spec: run.spec, asker: run.asker });
    id
}

/// Makes sure the engine's worker holds a port to the running Z3 worker
/// (starting Z3's worker if needed; Z3 itself loads at the first query a
/// run asks over the port), so that its runs' queries go to Z3 directly.
/// When that Z3 worker is terminated (stuck or crashed), a port to the
/// next one is handed over while runs remain.
fn link_z3() {
    let linked = CHANNEL.with(|c| c.borrow().z3_link);
    let current = crate::platform::z3_worker::generation();
    if current != 0 && linked == Some(current) {
        return;
    }
    let channel = match MessageChannel::new() {
        Ok(ch) => ch,
        Err(e) => {
            web_sys::console::warn_1(&format!("no port to Z3 for the engine: {}", error_text(&e)).into());
            return;
        }
    };
    let on_stop: Rc<dyn Fn(Option<String>)> = Rc::new(|crash: Option<String>| {
        let runs_left = CHANNEL.with(|c| {
            let mut c = c.borrow_mut();
            c.z3_link = None;
            !c.handlers.is_empty() && c.running.is_some()
        });
        match crash {
            // Its direct queries get no answer; the next run links anew.
            Some(why) => {
                if runs_left {
                    send(ToEngine::Z3Lost { why });
                }
            }
            // A stuck worker replaced: the next one gets the queries again.
            None => {
                if runs_left {
                    link_z3();
                }
            }
        }
    });
    match crate::platform::z3_worker::connect(&channel.port1(), on_stop) {
        Ok(generation) => {
            CHANNEL.with(|c| {
                let mut c = c.borrow_mut();
                c.z3_link = Some(generation);
                c.outbox.push(Outgoing::Z3Port(channel.port2()));
            });
            if let Err(why) = ensure_worker() {
                web_sys::console::warn_1(&why.into());
            }
            flush();
        }
        Err(why) => web_sys::console::warn_1(&format!("no port to Z3 for the engine: {why}").into()),
    }
}

/// Whether a run is computing in the engine's worker (started, and
/// neither finished, refused nor cancelled).
pub fn computing() -> bool {
    CHANNEL.with(|c| !c.borrow().handlers.is_empty())
}

/// Starts the worker now if it is not running (after the page's first
/// render: its wasm then loads and compiles while the student reads the
/// page, not when the first run needs it).
pub fn warm_up() {
    if let Err(why) = ensure_worker() {
        web_sys::console::warn_1(&why.into());
    }
}

/// Sends the solver's output for the query run `run` is parked on.
pub fn answer(run: u64, text: String) {
    send(ToEngine::Answer { run, text });
}

/// Stops run `run`: its handler gets nothing more. If the worker does not
/// confirm within [`GRACE_MS`], the worker is terminated.
pub fn cancel(run: u64) {
    let known = CHANNEL.with(|c| {
        let mut c = c.borrow_mut();
        let known = c.handlers.remove(&run).is_some();
        if known && c.running.is_some() {
            c.cancelling.push(run);
        }
        known
    });
    if !known {
        return;
    }
    send(ToEngine::Cancel { run });
    wasm_bindgen_futures::spawn_local(async move {
        gloo_timers::future::TimeoutFuture::new(GRACE_MS).await;
        let stuck = CHANNEL.with(|c| c.borrow().cancelling.contains(&run));
        if stuck {
            stop_worker("the engine did not stop in time, so its worker was replaced");
        }
    });
}

/// Posts `message` (or keeps it until the worker is ready).
fn send(message: ToEngine) {
    if let Err(why) = ensure_worker() {
        // No engine: every run waiting for it is told.
        stop_worker(&why);
        return;
    }
    CHANNEL.with(|c| c.borrow_mut().outbox.push(Outgoing::Message(message)));
    flush();
}

/// Posts the waiting messages if the worker is ready.
fn flush() {
    let failed = CHANNEL.with(|c| {
        let mut c = c.borrow_mut();
        if !c.ready {
            return None;
        }
        let outbox = std::mem::take(&mut c.outbox);
        let running = c.running.as_ref()?;
        for m in outbox {
            let posted = match m {
                Outgoing::Message(m) => serde_wasm_bindgen::to_value(&m)
                    .map_err(|e| e.to_string())
                    .and_then(|v| running.worker.post_message(&v).map_err(|e| error_text(&e))),
                Outgoing::Z3Port(port) => super::post_port(&running.worker, "z3-port", &port),
            };
            if let Err(e) = posted {
                return Some(e);
            }
        }
        None
    });
    if let Some(why) = failed {
        stop_worker(&format!("a message could not be sent to the engine's worker: {why}"));
    }
}

/// The page's wasm-bindgen glue (the ES module Trunk names
/// `cpa-playground-HASH.js` and preloads), as an absolute URL.
fn glue_url() -> Result<String, String> {
    let document = web_sys::window().and_then(|w| w.document()).ok_or("no document")?;
    let link = document
        .query_selector("link[rel=modulepreload][href*=\"cpa-playground\"]")
        .ok()
        .flatten()
        .ok_or("the page's module is not named in the document")?;
    let href = link.get_attribute("href").ok_or("the page's module link has no href")?;
    let url = web_sys::Url::new_with_base(&href, &document.base_uri().ok().flatten().unwrap_or_default())
        .map_err(|e| error_text(&e))?;
    Ok(url.href())
}

/// Starts the engine's worker unless it is running.
fn ensure_worker() -> Result<(), String> {
    if CHANNEL.with(|c| c.borrow().running.is_some()) {
        return Ok(());
    }
    start_worker()
}

/// Starts the engine's worker: a module worker running the page's own
/// WebAssembly module, handed over compiled (`wasm_bindgen::module()`), so
/// the worker compiles nothing and shares the page's compiled code.
fn start_worker() -> Result<(), String> {
    let options = web_sys::WorkerOptions::new();
    options.set_type(web_sys::WorkerType::Module);
    let worker =
        Worker::new_with_options(WORKER_URL, &options).map_err(|e| format!("cannot start {WORKER_URL}: {}", error_text(&e)))?;
    let boot = js_sys::Object::new();
    js_sys::Reflect::set(&boot, &"glue".into(), &glue_url()?.into()).map_err(|e| error_text(&e))?;
    js_sys::Reflect::set(&boot, &"module".into(), &wasm_bindgen::module()).map_err(|e| error_text(&e))?;
    worker.post_message(&boot).map_err(|e| format!("cannot start {WORKER_URL}: {}", error_text(&e)))?;
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(|e: MessageEvent| on_message(e.data()));
    let on_error = Closure::<dyn FnMut(ErrorEvent)>::new(|e: ErrorEvent| {
        e.prevent_default();
        stop_worker(&format!("the engine's worker failed: {} ({}:{})", e.message(), e.filename(), e.lineno()));
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    CHANNEL.with(|c| {
        let mut c = c.borrow_mut();
        c.running = Some(Running { worker, _on_message: on_message, _on_error: on_error });
        c.ready = false;
    });
    Ok(())
}

/// Terminates the worker; every run it had gets [`FromEngine::Refused`]
/// with `why`.
fn stop_worker(why: &str) {
    let orphans: Vec<(u64, Handler)> = CHANNEL.with(|c| {
        let mut c = c.borrow_mut();
        if let Some(r) = c.running.take() {
            r.worker.set_onmessage(None);
            r.worker.set_onerror(None);
            r.worker.terminate();
        }
        c.ready = false;
        c.outbox.clear();
        // Its port to Z3's worker went with it.
        c.z3_link = None;
        c.cancelling.clear();
        c.handlers.drain().collect()
    });
    for (run, handler) in orphans {
        handler(FromEngine::Refused { run, message: why.to_string() });
    }
}

/// One message from the worker, handed to its run's handler.
fn on_message(data: JsValue) {
    // The worker sends JSON text (see `engine_scope`'s `post`).
    let text = data.as_string().unwrap_or_default();
    let message = match crate::model::engine_link::decode(&text) {
        Ok(m) => m,
        Err(e) => {
            web_sys::console::warn_1(&format!("unreadable message from the engine's worker: {e}").into());
            return;
        }
    };
    let run = match &message {
        FromEngine::Ready => {
            CHANNEL.with(|c| c.borrow_mut().ready = true);
            flush();
            return;
        }
        FromEngine::Cancelled { run } => {
            CHANNEL.with(|c| c.borrow_mut().cancelling.retain(|r| r != run));
            return;
        }
        FromEngine::Events { run, .. }
        | FromEngine::Query { run, .. }
        | FromEngine::Asked { run, .. }
        | FromEngine::Answered { run, .. }
        | FromEngine::Refused { run, .. } => *run,
    };
    // A run's last message ends its handler's life.
    let over = matches!(message, FromEngine::Events { finished: true, .. } | FromEngine::Refused { .. });
    let handler = CHANNEL.with(|c| {
        let mut c = c.borrow_mut();
        if over {
            c.handlers.remove(&run)
        } else {
            c.handlers.get(&run).cloned()
        }
    });
    if let Some(h) = handler {
        h(message);
    }
}
