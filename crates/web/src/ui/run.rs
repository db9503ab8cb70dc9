//! The page's drivers of computations (browser glue of
//! [`crate::model::run_driver`] and [`crate::model::engine_link`]): the
//! analysis pane's run and the compare view's runs are computed in the
//! engine's Web Worker ([`drive_in_worker`]), and the page only folds their
//! events; the exercise grader and the error-path check are computed on
//! the page in slices ([`drive`]).
//!
//! A slice computes for at most [`SLICE_MS`] milliseconds of the page's
//! clock, then yields to the browser (a zero timer), so the page never
//! freezes and Cancel works at any time. A computation parked on a solver
//! query is answered by the page's Z3 in its own Web Worker
//! ([`crate::platform::z3::check_logged_until`], recorded in the solver
//! log); meanwhile the page keeps running, and Cancel stops the wait at once.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use gloo_timers::future::TimeoutFuture;

use crate::model::engine_link::{FromEngine, Mirror};
use crate::model::run_driver::{slice, SliceEnd, Sliced, NO_ANSWER, SLICE_MS};
use crate::platform::clock::now_ms;
use crate::platform::engine_worker;

/// How often a run computed in the engine's worker looks whether it was
/// cancelled (milliseconds).
const CANCEL_POLL_MS: u32 = 30;

/// Stops a running task: set by the pane that started it (Cancel, a new
/// run replacing it), read by the task between slices and after each
/// solver answer. A handle, not state that renders, so a shared cell.
#[derive(Clone, Default)]
pub struct CancelFlag(Rc<Cell<bool>>);

impl CancelFlag {
    /// A flag not set yet.
    pub fn new() -> CancelFlag {
        CancelFlag::default()
    }

    /// Asks the task to stop (it stops before its next slice).
    pub fn cancel(&self) {
        self.0.set(true);
    }

    /// Whether the task was asked to stop.
    pub fn cancelled(&self) -> bool {
        self.0.get()
    }
}

/// How a driven computation ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// It is over.
    Done,
    /// It was cancelled.
    Cancelled,
}

/// Drives `task` slice by slice until it is done or `cancel` is set.
/// After every slice (with no borrow of `task` held) `after_slice` is told
/// how the slice ended, e.g. to redraw; a parked slice's query then goes to
/// Z3, and the computation resumes with the answer (`unknown` when Z3
/// could not answer).
pub async fn drive<T: Sliced>(task: Rc<RefCell<T>>, cancel: CancelFlag, after_slice: impl Fn(&SliceEnd)) -> Ended {
    loop {
        if cancel.cancelled() {
            return Ended::Cancelled;
        }
        // One slice; the borrow ends with the statement, before any await.
        let end = {
            let t0 = now_ms();
            slice(&mut *task.borrow_mut(), || now_ms() - t0 > SLICE_MS)
        };
        after_slice(&end);
        match end {
            SliceEnd::Done => return Ended::Done,
            SliceEnd::Parked(q) => {
                // Cancel stops waiting at once (Z3 runs in its own worker).
                let asker = cancel.clone();
                let out = crate::platform::z3::check_logged_until(&q, None, move || asker.cancelled()).await;
                if cancel.cancelled() {
                    return Ended::Cancelled;
                }
                task.borrow_mut().answer(&out.unwrap_or_else(|_| NO_ANSWER.into()));
            }
            SliceEnd::Yield => TimeoutFuture::new(0).await,
        }
    }
}

/// Computes `task`'s runs in the engine's worker until all are over or
/// `cancel` is set. The runs are handed over ([`Mirror::hand_over`]);
/// each batch of events the worker sends is folded into the task and
/// `after_slice` is told (e.g. to redraw); a run's solver query goes to the
/// page's Z3 (recorded in the solver log) and its answer back to the worker.
/// Cancel stops the runs in the worker at once (and the worker itself if
/// the engine is stuck in a step).
pub async fn drive_in_worker<T: Mirror + 'static>(
    task: Rc<RefCell<T>>,
    cancel: CancelFlag,
    after_slice: impl Fn(&SliceEnd) + 'static,
) -> Ended {
    let handed = task.borrow_mut().hand_over();
    let left = Rc::new(Cell::new(handed.len()));
    let after_slice: Rc<dyn Fn(&SliceEnd)> = Rc::new(after_slice);
    let mut runs = Vec::new();
    for h in handed {
        let part = h.part;
        let (task, cancel, left, after_slice) = (task.clone(), cancel.clone(), left.clone(), after_slice.clone());
        let handler = move |message: FromEngine| {
            if cancel.cancelled() {
                return;
            }
            match message {
                FromEngine::Events { events, finished, .. } => {
                    task.borrow_mut().fold(part, events, finished);
                    if finished {
                        left.set(left.get() - 1);
                    }
                    after_slice(if finished { &SliceEnd::Done } else { &SliceEnd::Yield });
                }
                FromEngine::Query { run, query } => {
                    let (asker, waiter) = (cancel.clone(), cancel.clone());
                    wasm_bindgen_futures::spawn_local(async move {
                        let out = crate::platform::z3::check_logged_until(&query, None, move || asker.cancelled()).await;
                        if !waiter.cancelled() {
                            engine_worker::answer(run, out.unwrap_or_else(|_| NO_ANSWER.into()));
                        }
                    });
                }
                FromEngine::Refused { message, .. } => {
                    // The trace so far stays steppable; the run is over.
                    web_sys::console::error_1(&format!("analysis stopped: {message}").into());
                    task.borrow_mut().fold(part, Vec::new(), true);
                    left.set(left.get() - 1);
                    after_slice(&SliceEnd::Done);
                }
                FromEngine::Ready | FromEngine::Cancelled { .. } => {}
            }
        };
        runs.push(engine_worker::start(h, Rc::new(handler)));
    }
    while left.get() > 0 {
        if cancel.cancelled() {
            for run in runs {
                engine_worker::cancel(run);
            }
            return Ended::Cancelled;
        }
        TimeoutFuture::new(CANCEL_POLL_MS).await;
    }
    Ended::Done
}
