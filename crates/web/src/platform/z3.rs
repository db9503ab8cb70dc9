//! Z3 in the page: queries go to Z3's own Web Worker
//! ([`crate::platform::z3_worker`]), and the page-wide log of every query
//! ([`crate::model::solver::SolverLog`]) with its listeners. What the
//! answers mean is [`crate::model::solver`]; the panel is `crate::ui::solver`.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use crate::model::run_driver::Query;
use crate::model::solver::{Answer, LoadStatus, SolverError, SolverLog};
use crate::platform::clock::now_ms;
use crate::platform::z3_worker;

/// How often a query's wait looks whether its run was cancelled (ms).
const CANCEL_POLL_MS: u32 = 50;

/// Runs one self-contained SMT-LIB2 script in Z3 (loading Z3 first if
/// needed) and returns its output text. Never blocks: Z3 loads and solves
/// in its own worker while the page keeps running.
pub async fn check(script: &str) -> Result<String, SolverError> {
    z3_worker::check(script).await
}

/// How far loading Z3 has come.
pub fn status() -> LoadStatus {
    z3_worker::status()
}

thread_local! {
    static LOG: RefCell<SolverLog> = RefCell::new(SolverLog::default());
    static LISTENERS: RefCell<Vec<(u64, yew::Callback<()>)>> = const { RefCell::new(Vec::new()) };
    static NEXT_LISTENER: RefCell<u64> = const { RefCell::new(0) };
}

/// A copy of the page-wide solver log.
pub fn log() -> SolverLog {
    LOG.with(|l| l.borrow().clone())
}

/// Calls `on_change` whenever the log or the loading status changes;
/// returns a key for [`unsubscribe`].
pub fn subscribe(on_change: yew::Callback<()>) -> u64 {
    let key = NEXT_LISTENER.with(|n| {
        let mut n = n.borrow_mut();
        *n += 1;
        *n
    });
    LISTENERS.with(|l| l.borrow_mut().push((key, on_change)));
    // The loading progress comes from Z3's worker.
    z3_worker::on_status_change(Rc::new(notify));
    key
}

/// Stops calling the listener `key`.
pub fn unsubscribe(key: u64) {
    LISTENERS.with(|l| l.borrow_mut().retain(|(k, _)| *k != key));
}

fn notify() {
    let listeners: Vec<yew::Callback<()>> = LISTENERS.with(|l| l.borrow().iter().map(|(_, c)| c.clone()).collect());
    for c in listeners {
        c.emit(());
    }
}

/// Like [`check`], but recorded in the solver log under `origin`
/// (with the known right answer, if any), and with the loading progress
/// shown while Z3 arrives.
pub async fn check_logged(origin: &str, script: &str, expected: Option<Answer>) -> Result<String, SolverError> {
    let query = Query { origin: origin.into(), script: script.into(), legend: Vec::new() };
    check_logged_until(&query, expected, || false).await
}

/// Like [`check_logged`], for a run that can be cancelled: as soon as
/// `cancelled()` turns true the query is abandoned (it answers
/// [`SolverError::Cancelled`] at once; Z3's late answer is ignored, and a
/// check Z3 is stuck in is stopped by replacing its worker).
pub async fn check_logged_until(
    query: &Query,
    expected: Option<Answer>,
    cancelled: impl Fn() -> bool + 'static,
) -> Result<String, SolverError> {
    let script = query.script.as_str();
    let entry = LOG.with(|l| l.borrow_mut().ask_with_legend(&query.origin, script, expected, query.legend.clone()));
    notify();
    let t0 = now_ms();
    let (query, outcome) = z3_worker::send(script);
    let answered = Rc::new(Cell::new(false));
    let watching = answered.clone();
    wasm_bindgen_futures::spawn_local(async move {
        while !watching.get() {
            if cancelled() {
                z3_worker::abandon(query);
                return;
            }
            gloo_timers::future::TimeoutFuture::new(CANCEL_POLL_MS).await;
        }
    });
    let outcome = outcome.await;
    answered.set(true);
    let ms = now_ms() - t0;
    LOG.with(|l| l.borrow_mut().answer(entry, outcome.clone(), ms));
    notify();
    outcome
}

/// Records in the solver log a query asked of Z3 elsewhere (the engine's
/// worker asks Z3's worker directly); returns the entry for
/// [`log_answered`].
pub fn log_asked(query: &Query) -> usize {
    let entry = LOG.with(|l| l.borrow_mut().ask_with_legend(&query.origin, &query.script, None, query.legend.clone()));
    notify();
    entry
}

/// Records the outcome of a query logged with [`log_asked`], `ms` after it
/// was asked. A cancelled one ([`SolverError::Cancelled`]) that Z3 may
/// still be solving gets Z3 checked for being stuck in it, as the page's
/// own cancelled queries do.
pub fn log_answered(entry: usize, outcome: Result<String, SolverError>, ms: f64) {
    match &outcome {
        Ok(_) => z3_worker::note_answer(),
        Err(SolverError::Cancelled) => z3_worker::probe_after_cancel(),
        Err(_) => {}
    }
    LOG.with(|l| l.borrow_mut().answer(entry, outcome, ms));
    notify();
}
