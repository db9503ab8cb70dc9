//! The analysis engine's Web Worker, seen from the page: the channel to the
//! worker (the `engine-worker` binary, started through its loader
//! `static/engine-worker-loader.js`) that computes the runs, so the page's main
//! thread only folds their events and renders.
//!
//! The messages are [`crate::model::engine_link`]'s typed values: the
//! page's go with serde-wasm-bindgen, the worker's (a slice's trace events,
//! many nested values) as JSON text, which the page parses far faster than
//! it reads a tree of JavaScript objects. The worker is started after the page's first
//! render ([`warm_up`]) or on the first run, and kept; messages sent before it said [`FromEngine::Ready`] wait here.
//! Each run has a handler that gets the worker's messages about it. A run
//! cancelled while the engine is busy inside one long step (the worker
//! does not confirm within [`GRACE_MS`]) is stopped by terminating the
//! worker; its other runs are told so, and the next run starts a new one.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{ErrorEvent, MessageEvent, Worker};

use crate::model::engine_link::{FromEngine, Handover, ToEngine};

/// The worker's script (`static/engine-worker-loader.js`: it loads the
/// `engine-worker` binary's glue and wasm).
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

#[derive(Default)]
struct Channel {
    running: Option<Running>,
    /// The worker said it listens.
    ready: bool,
    /// Messages waiting for the worker to be ready.
    outbox: Vec<ToEngine>,
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
    send(ToEngine::Start { run: id, source: run.source, spec: run.spec, asker: run.asker });
    id
}

/// Starts the worker now if it is not running (after the page's first
/// render: its wasm then loads and compiles while the student reads the
/// page, not when the first run needs it).
pub fn warm_up() {
    let start = CHANNEL.with(|c| c.borrow().running.is_none());
    if start {
        if let Err(why) = start_worker() {
            web_sys::console::warn_1(&why.into());
        }
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
    let start = CHANNEL.with(|c| c.borrow().running.is_none());
    if start {
        if let Err(why) = start_worker() {
            // No engine: every run waiting for it is told.
            stop_worker(&why);
            return;
        }
    }
    CHANNEL.with(|c| c.borrow_mut().outbox.push(message));
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
            let posted = serde_wasm_bindgen::to_value(&m)
                .map_err(|e| e.to_string())
                .and_then(|v| running.worker.post_message(&v).map_err(|e| error_text(&e)));
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

fn start_worker() -> Result<(), String> {
    let worker = Worker::new(WORKER_URL).map_err(|e| format!("cannot start {WORKER_URL}: {}", error_text(&e)))?;
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
        c.cancelling.clear();
        c.handlers.drain().collect()
    });
    for (run, handler) in orphans {
        handler(FromEngine::Refused { run, message: why.to_string() });
    }
}

/// One message from the worker, handed to its run's handler.
fn on_message(data: JsValue) {
    // The worker sends JSON text (see the `engine-worker` binary's `post`).
    let text = data.as_string().unwrap_or_default();
    let message = match serde_json::from_str::<FromEngine>(&text) {
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
        FromEngine::Events { run, .. } | FromEngine::Query { run, .. } | FromEngine::Refused { run, .. } => *run,
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

fn error_text(e: &JsValue) -> String {
    e.as_string()
        .or_else(|| js_sys::Reflect::get(e, &"message".into()).ok().and_then(|m| m.as_string()))
        .unwrap_or_else(|| "unknown error".into())
}
