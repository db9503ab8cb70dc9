//! Z3's Web Worker, seen from the page: the channel to the worker that
//! loads, compiles and runs Z3 (`www/js/z3-worker.mjs`, bundled to
//! `z3-worker.js`), so the page's main thread never blocks on Z3.
//!
//! The worker is started the first time a query needs a solver. Requests
//! and replies are typed Rust values (`ToWorker`, `FromWorker`) passed
//! with serde-wasm-bindgen. The page sends one script at a time and keeps
//! the rest queued here, so it always knows which query Z3 is working on:
//! a cancelled query that is still queued is dropped; one that Z3 is
//! solving has its late answer ignored, and if Z3 has not answered within
//! [`GRACE_MS`] the worker is terminated (a stuck check) and a new one
//! started for the queries after it. A crashed worker fails its queries
//! with [`SolverError::Stopped`] and is replaced on the next query.
//!
//! The analysis engine's worker asks Z3's worker directly, over a
//! `MessageChannel` port the page hands both ([`connect`]); those queries
//! never pass through here, and the page hears of them from the engine.
//!
//! For the browser tests and the service worker, the page also gets a
//! global `cpaZ3` with `check(script)` (a Promise of Z3's output text) and
//! `status()` (the loading state as JSON); Z3 itself (`initZ3`, its context)
//! exists only inside the worker.

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;

use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{ErrorEvent, MessageEvent, Worker};

use super::error_text;
use crate::model::solver::{LoadStatus, SolverError};
use crate::platform::clock::performance_mark;

/// The worker's script, next to the page.
const WORKER_URL: &str = "z3-worker.js";

/// How long a cancelled query that Z3 is still solving may take before its
/// worker is terminated and replaced (milliseconds).
pub const GRACE_MS: u32 = 300;

/// A request to Z3's worker.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
enum ToWorker<'a> {
    /// Start loading Z3 now (no query yet); the worker answers with status
    /// messages only.
    Load,
    /// Run this self-contained SMT-LIB2 script and answer with Z3's output.
    Check {
        /// The query's number, repeated in the reply.
        id: u32,
        /// The script.
        script: &'a str,
    },
}

/// A message from Z3's worker.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
enum FromWorker {
    /// How far loading Z3 has come (sent on every change).
    Status(LoadStatus),
    /// Z3's output text for the query `id`.
    Answer {
        /// The query's number.
        id: u32,
        /// Z3's output.
        text: String,
    },
    /// The query `id` got no output: Z3 could not be loaded or threw.
    Failed {
        /// The query's number.
        id: u32,
        /// Why.
        error: String,
    },
}

/// A query waiting for its turn or for Z3's answer.
struct Query {
    id: u32,
    script: String,
}

/// The query Z3 is working on now.
struct InFlight {
    id: u32,
    /// Its asker stopped waiting (cancelled): the answer is dropped.
    abandoned: bool,
}

/// The running worker and the handlers that must live as long as it.
struct Running {
    worker: Worker,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
}

#[derive(Default)]
struct Channel {
    running: Option<Running>,
    status: LoadStatus,
    queue: VecDeque<Query>,
    in_flight: Option<InFlight>,
    /// Askers waiting for an outcome, by query number: the Promise's
    /// `resolve` (the outcome itself is in `outcomes`).
    waiters: HashMap<u32, js_sys::Function>,
    outcomes: HashMap<u32, Result<String, SolverError>>,
    next_id: u32,
    /// A worker was started once (the page's `cpaZ3` API is installed).
    started: bool,
    /// A [`prefetch`] waits for the page to be idle.
    prefetch_scheduled: bool,
    /// Z3 was asked to load (by a prefetch, a page query or a run's query
    /// over a port); starting the worker alone does not load it.
    load_requested: bool,
    answered: bool,
    on_change: Option<Rc<dyn Fn()>>,
    /// Workers started so far (the running one's number).
    generation: u64,
    /// Told when the worker is terminated, with the crash's reason (the
    /// engine's worker then needs a port to the next one).
    on_stop: Option<Rc<dyn Fn(Option<String>)>>,
}

thread_local! {
    static CHANNEL: RefCell<Channel> = RefCell::new(Channel::default());
}

/// Calls `on_change` whenever the loading status changes (one listener:
/// the solver log's, `crate::platform::z3`).
pub fn on_status_change(on_change: Rc<dyn Fn()>) {
    CHANNEL.with(|c| c.borrow_mut().on_change = Some(on_change));
}

/// How far loading Z3 has come (`idle` before the first query).
pub fn status() -> LoadStatus {
    CHANNEL.with(|c| {
        let c = c.borrow();
        if c.status.phase.is_empty() {
            LoadStatus { phase: "idle".into(), ..LoadStatus::default() }
        } else {
            c.status.clone()
        }
    })
}

/// How long a [`prefetch`] waits at most for the page to settle.
const PREFETCH_WAIT_MS: f64 = 1000.0;

/// How often a [`prefetch`] looks again while a run computes (ms).
const RUN_RECHECK_MS: u32 = 250;

/// An idle period at least this long (ms) means the page has settled: no
/// frame or task is due soon (the browser grants up to 50 ms).
const SETTLED_IDLE_MS: f64 = 40.0;

/// Starts loading Z3 before any query: a solver-backed configuration was
/// restored or picked, or the page was opened with a link to one, so Z3
/// downloads and compiles in its worker while the student reads, and the
/// first query finds it ready (or nearly). It starts once the page has
/// settled (two frames, then the editor and a long idle period, see
/// `when_settled`) and `busy()` is false (the page passes "a run
/// computes"), so that on a 2-core machine Z3's start shares the cores
/// neither with the page's own nor with a run that does not need it (a link's runs whose queries the engine decides
/// itself, as the gallery's Listing 1's, answer without Z3). A run's
/// first query meanwhile starts it at once (so does one in a hidden tab,
/// where frames do not run). Does nothing once Z3 loads or a start is
/// scheduled.
pub fn prefetch(busy: fn() -> bool) {
    let schedule = CHANNEL.with(|c| {
        let mut c = c.borrow_mut();
        let schedule = !c.load_requested && !c.prefetch_scheduled;
        c.prefetch_scheduled |= schedule;
        schedule
    });
    if schedule {
        let deadline = crate::platform::clock::now_ms() + PREFETCH_WAIT_MS;
        // Two frames first: the page's first layout, then the editor's
        // (created in a task after the first render, measured in the
        // frame after that).
        after_frames(2, Box::new(move || when_settled(deadline, busy, Box::new(start_prefetched))));
    }
}

/// Calls `then` in the animation frame `frames` frames from now (at once
/// for 0, or without a window).
fn after_frames(frames: u32, then: Box<dyn FnOnce()>) {
    let Some(window) = web_sys::window().filter(|_| frames > 0) else { return then() };
    let next = Closure::once_into_js(move || after_frames(frames - 1, then));
    if window.request_animation_frame(next.unchecked_ref()).is_err() {
        // Cannot happen with a window; `then` went with the closure.
        web_sys::console::warn_1(&"requestAnimationFrame failed: Z3 loads at first need".into());
    }
}

/// The scheduled [`prefetch`]'s start.
fn start_prefetched() {
    CHANNEL.with(|c| c.borrow_mut().prefetch_scheduled = false);
    start_loading();
}

/// Calls `then` in the first idle period of at least [`SETTLED_IDLE_MS`]
/// once the page's editor exists (the last part of the page's start, in a
/// task after the first render), or in any idle period after `deadline`
/// (page clock, ms) — but never while `busy()` (a run computing in the
/// engine's worker asks Z3 itself if it needs it); at once without
/// `requestIdleCallback` (Safari).
fn when_settled(deadline: f64, busy: fn() -> bool, then: Box<dyn FnOnce()>) {
    let Some(window) = web_sys::window() else { return then() };
    let then = Rc::new(RefCell::new(Some(then)));
    let callback = {
        let then = then.clone();
        Closure::once_into_js(move |idle: web_sys::IdleDeadline| {
            let Some(then) = then.borrow_mut().take() else { return };
            let settled = idle.time_remaining() >= SETTLED_IDLE_MS && crate::platform::codemirror::mounted();
            let late = idle.did_timeout() || crate::platform::clock::now_ms() >= deadline;
            if busy() {
                // A run computes: look again a little later.
                gloo_timers::callback::Timeout::new(RUN_RECHECK_MS, move || when_settled(deadline, busy, then)).forget();
            } else if settled || late {
                then();
            } else {
                when_settled(deadline, busy, then);
            }
        })
    };
    let options = web_sys::IdleRequestOptions::new();
    options.set_timeout((deadline - crate::platform::clock::now_ms()).max(1.0) as u32);
    if window.request_idle_callback_with_options(callback.unchecked_ref(), &options).is_err() {
        if let Some(then) = then.borrow_mut().take() {
            then();
        }
    }
}

/// Marks that Z3 is needed, once: `cpa-z3:need` (for the benchmark).
fn mark_needed() {
    if !CHANNEL.with(|c| std::mem::replace(&mut c.borrow_mut().load_requested, true)) {
        performance_mark("cpa-z3:need");
    }
}

/// Tells Z3's worker (started if none runs) to load Z3 now, once.
fn start_loading() {
    if CHANNEL.with(|c| c.borrow().load_requested) {
        return;
    }
    if CHANNEL.with(|c| c.borrow().running.is_none()) {
        start_worker();
    }
    note_loading();
    CHANNEL.with(|c| {
        let c = c.borrow();
        if let (Some(r), Ok(m)) = (&c.running, serde_wasm_bindgen::to_value(&ToWorker::Load)) {
            let _ = r.worker.post_message(&m);
        }
    });
}

/// Z3 is needed now (asked to load, a page query, or a run's first query
/// over a port, which the worker's status tells): marks the moment once
/// (`cpa-z3:need`, for the benchmark) and shows loading in the status.
fn note_loading() {
    mark_needed();
    if status().phase == "idle" {
        set_status(LoadStatus { phase: "script".into(), ..LoadStatus::default() });
    }
}

/// Hands Z3's worker one end of a `MessageChannel` (starting the worker
/// if needed; Z3 loads at the first query asked over the port): whoever
/// holds the other end (the analysis engine's worker) sends `check`
/// messages there and gets the answers there, without the page. Returns the worker's number
/// ([`generation`]); `on_stop` is told when that worker is terminated
/// (with why, if it crashed; `None` when a stuck one was replaced).
pub fn connect(port: &web_sys::MessagePort, on_stop: Rc<dyn Fn(Option<String>)>) -> Result<u64, String> {
    if CHANNEL.with(|c| c.borrow().running.is_none()) {
        start_worker();
    }
    CHANNEL.with(|c| {
        let mut c = c.borrow_mut();
        c.on_stop = Some(on_stop);
        let Some(r) = c.running.as_ref() else { return Err("Z3's worker could not be started".to_string()) };
        super::post_port(&r.worker, "port", port)?;
        Ok(c.generation)
    })
}

/// The running worker's number (a new one after every start; 0: none yet).
pub fn generation() -> u64 {
    CHANNEL.with(|c| {
        let c = c.borrow();
        if c.running.is_some() {
            c.generation
        } else {
            0
        }
    })
}

/// A query asked over a port was answered (by the engine's worker's
/// report): the first answer is marked as for the page's own queries.
pub fn note_answer() {
    if !CHANNEL.with(|c| std::mem::replace(&mut c.borrow_mut().answered, true)) {
        performance_mark("cpa-z3:first-answer");
    }
}

/// A query asked over a port was given up (its run was cancelled) and Z3
/// may still be solving it: if Z3 is loaded, a probe is queued behind it,
/// and when the probe is not answered within [`GRACE_MS`] it is abandoned
/// like a page query, so a Z3 stuck in the old query is replaced. (While
/// Z3 still loads, the query only waits for it; nothing is replaced.)
pub fn probe_after_cancel() {
    if generation() == 0 || !status().ready() {
        return;
    }
    let (id, outcome) = send("(check-sat)");
    let answered = Rc::new(std::cell::Cell::new(false));
    let flag = answered.clone();
    wasm_bindgen_futures::spawn_local(async move {
        let _ = outcome.await;
        flag.set(true);
    });
    wasm_bindgen_futures::spawn_local(async move {
        gloo_timers::future::TimeoutFuture::new(GRACE_MS).await;
        if !answered.get() {
            abandon(id);
        }
    });
}

/// Queues `script` for Z3 (starting its worker if needed) and returns the
/// query's number, for [`abandon`], and its outcome.
pub fn send(script: &str) -> (u32, impl std::future::Future<Output = Result<String, SolverError>>) {
    let mut on_resolve = None;
    let promise = js_sys::Promise::new(&mut |resolve, _reject| on_resolve = Some(resolve));
    let id = CHANNEL.with(|c| {
        let mut c = c.borrow_mut();
        c.next_id += 1;
        let id = c.next_id;
        if let Some(resolve) = on_resolve.take() {
            c.waiters.insert(id, resolve);
        }
        c.queue.push_back(Query { id, script: script.to_string() });
        id
    });
    note_loading(); // a page query loads Z3
    pump();
    let outcome = async move {
        let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
        CHANNEL
            .with(|c| c.borrow_mut().outcomes.remove(&id))
            .unwrap_or_else(|| Err(SolverError::NoAnswer("the page lost this query's answer".into())))
    };
    (id, outcome)
}

/// Runs one self-contained SMT-LIB2 script in Z3's worker and returns its
/// output text.
pub async fn check(script: &str) -> Result<String, SolverError> {
    send(script).1.await
}

/// The asker of query `id` stops waiting: it gets
/// [`SolverError::Cancelled`] now. A queued query never reaches Z3; if Z3
/// is solving it, its answer is dropped, and if none comes within
/// [`GRACE_MS`] the worker is replaced.
pub fn abandon(id: u32) {
    let solving = CHANNEL.with(|c| {
        let mut c = c.borrow_mut();
        c.queue.retain(|q| q.id != id);
        let solving = match c.in_flight.as_mut() {
            Some(f) if f.id == id => {
                f.abandoned = true;
                true
            }
            _ => false,
        };
        settle(&mut c, id, Err(SolverError::Cancelled));
        solving
    });
    if !solving {
        return;
    }
    wasm_bindgen_futures::spawn_local(async move {
        gloo_timers::future::TimeoutFuture::new(GRACE_MS).await;
        let stuck = CHANNEL.with(|c| c.borrow().in_flight.as_ref().is_some_and(|f| f.id == id));
        if stuck {
            stop_worker(None);
            pump();
        }
    });
}

/// Hands query `id` its outcome and wakes its asker (if still waiting).
fn settle(c: &mut Channel, id: u32, outcome: Result<String, SolverError>) {
    if let Some(resolve) = c.waiters.remove(&id) {
        c.outcomes.insert(id, outcome);
        let _ = resolve.call0(&JsValue::UNDEFINED);
    }
}

/// Sends the next queued query if Z3 is free, starting the worker first
/// if there is none.
fn pump() {
    let start = CHANNEL.with(|c| {
        let c = c.borrow();
        c.running.is_none() && !c.queue.is_empty()
    });
    if start {
        start_worker();
        // The new worker loads Z3 for the queued queries (also after a
        // crash, whose `failed` status this replaces).
        set_status(LoadStatus { phase: "script".into(), ..LoadStatus::default() });
    }
    CHANNEL.with(|c| {
        let mut c = c.borrow_mut();
        if c.in_flight.is_some() {
            return;
        }
        let Some(q) = c.queue.pop_front() else { return };
        let message = serde_wasm_bindgen::to_value(&ToWorker::Check { id: q.id, script: &q.script });
        let posted = match (&c.running, message) {
            (Some(r), Ok(m)) => r.worker.post_message(&m).map_err(|e| error_text(&e)),
            (None, _) => Err("Z3's worker could not be started".into()),
            (_, Err(e)) => Err(e.to_string()),
        };
        match posted {
            Ok(()) => c.in_flight = Some(InFlight { id: q.id, abandoned: false }),
            Err(e) => settle(&mut c, q.id, Err(SolverError::Load(e))),
        }
    });
}

/// Marks when Z3's download and its compile began (`cpa-z3:download`,
/// `cpa-z3:compile`, on entering the phase), for the benchmark
/// (tests/bench/z3-main-thread.mjs).
fn mark_phase(phase: &str) {
    match phase {
        "download" => performance_mark("cpa-z3:download"),
        "compile" => performance_mark("cpa-z3:compile"),
        _ => {}
    }
}

/// Starts Z3's worker and wires its messages to [`on_message`].
fn start_worker() {
    let first = CHANNEL.with(|c| !std::mem::replace(&mut c.borrow_mut().started, true));
    if first {
        install_page_api();
    }
    let worker = match Worker::new(WORKER_URL) {
        Ok(w) => w,
        Err(e) => {
            let why = format!("cannot start {WORKER_URL}: {}", error_text(&e));
            set_status(LoadStatus { phase: "failed".into(), error: why, ..LoadStatus::default() });
            return;
        }
    };
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(|e: MessageEvent| on_message(e.data()));
    let on_error = Closure::<dyn FnMut(ErrorEvent)>::new(|e: ErrorEvent| {
        e.prevent_default();
        stop_worker(Some(format!("{} ({}:{})", e.message(), e.filename(), e.lineno())));
        pump();
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    CHANNEL.with(|c| {
        let mut c = c.borrow_mut();
        c.running = Some(Running { worker, _on_message: on_message, _on_error: on_error });
        c.generation += 1;
    });
}

/// Terminates the worker. A crash (`crash` says why) fails the query Z3
/// was solving; a replaced stuck worker's query was already abandoned.
/// Queued queries wait for the next worker.
fn stop_worker(crash: Option<String>) {
    let on_stop = CHANNEL.with(|c| {
        let mut c = c.borrow_mut();
        let on_stop = c.running.as_ref().and(c.on_stop.clone());
        if let Some(r) = c.running.take() {
            r.worker.set_onmessage(None);
            r.worker.set_onerror(None);
            r.worker.terminate();
        }
        if let Some(f) = c.in_flight.take() {
            let why = crash.clone().unwrap_or_else(|| "its worker was replaced".into());
            settle(&mut c, f.id, Err(SolverError::Stopped(why)));
        }
        on_stop
    });
    match crash.clone() {
        Some(why) => set_status(LoadStatus { phase: "failed".into(), error: why, ..LoadStatus::default() }),
        None => set_status(LoadStatus { phase: "idle".into(), ..LoadStatus::default() }),
    }
    if let Some(f) = on_stop {
        f(crash);
    }
}

/// One message from the worker.
fn on_message(data: JsValue) {
    let message = match serde_wasm_bindgen::from_value::<FromWorker>(data) {
        Ok(m) => m,
        Err(e) => {
            web_sys::console::warn_1(&format!("unreadable message from Z3's worker: {e}").into());
            return;
        }
    };
    match message {
        FromWorker::Status(s) => {
            // A run's first query over a port started the load.
            mark_needed();
            if s.ready() {
                performance_mark("cpa-z3:ready");
                offer_z3_to_service_worker();
            } else if CHANNEL.with(|c| c.borrow().status.phase != s.phase) {
                mark_phase(&s.phase);
            }
            set_status(s);
        }
        FromWorker::Answer { id, text } => finish(id, Ok(text)),
        FromWorker::Failed { id, error } => finish(id, Err(SolverError::Load(error))),
    }
}

/// Z3 finished query `id`: its asker gets the outcome (unless it stopped
/// waiting) and the next query goes to Z3.
fn finish(id: u32, outcome: Result<String, SolverError>) {
    let first_answer = CHANNEL.with(|c| {
        let mut c = c.borrow_mut();
        if c.in_flight.as_ref().is_none_or(|f| f.id != id) {
            return false; // from a replaced worker
        }
        let f = c.in_flight.take().expect("checked above");
        if f.abandoned {
            return false;
        }
        let first = outcome.is_ok() && !std::mem::replace(&mut c.answered, true);
        settle(&mut c, id, outcome);
        first
    });
    if first_answer {
        performance_mark("cpa-z3:first-answer");
    }
    pump();
}

fn set_status(s: LoadStatus) {
    let on_change = CHANNEL.with(|c| {
        let mut c = c.borrow_mut();
        c.status = s;
        c.on_change.clone()
    });
    if let Some(f) = on_change {
        f();
    }
}

#[wasm_bindgen(inline_js = r#"
export function cpa_z3_offer_cache() {
  // Offline use: the service worker (static/sw.js) keeps Z3's files once
  // they were loaded; if it did not control the page yet, it fetches them
  // now (from the HTTP cache, usually).
  globalThis.navigator?.serviceWorker?.controller?.postMessage({ type: 'cache-z3' });
}
export function cpa_z3_install(check, status) {
  globalThis.cpaZ3 = { check, status };
}
"#)]
extern "C" {
    fn cpa_z3_offer_cache();
    fn cpa_z3_install(check: &js_sys::Function, status: &js_sys::Function);
}

fn offer_z3_to_service_worker() {
    cpa_z3_offer_cache();
}

/// Defines the page's `cpaZ3` (`check`, `status`) for the browser tests
/// and the service worker's offer of Z3's files.
fn install_page_api() {
    let check = Closure::<dyn Fn(String) -> js_sys::Promise>::new(|script: String| {
        wasm_bindgen_futures::future_to_promise(async move {
            check(&script).await.map(JsValue::from).map_err(|e| js_sys::Error::new(&e.to_string()).into())
        })
    });
    let status = Closure::<dyn Fn() -> String>::new(|| serde_json::to_string(&status()).unwrap_or_default());
    cpa_z3_install(check.as_ref().unchecked_ref(), status.as_ref().unchecked_ref());
    // The page keeps them for its whole life.
    check.forget();
    status.forget();
}
