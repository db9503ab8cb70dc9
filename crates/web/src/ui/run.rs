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
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::model::engine_link::{FromEngine, Mirror};
use crate::model::run_driver::{slice, SliceEnd, Sliced, NO_ANSWER, SLICE_MS};
use crate::platform::clock::now_ms;
use crate::platform::engine_worker;

/// How often a run computed in the engine's worker looks whether it was
/// cancelled (milliseconds).
const CANCEL_POLL_MS: u32 = 30;

/// How long a requested redraw waits at most when no animation frame comes
/// (a hidden tab gets none; milliseconds).
const FRAME_FALLBACK_MS: i32 = 250;

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
/// each batch of events the worker sends is folded into the task as it
/// arrives, and `after_slice` is told (e.g. to redraw) at most once per
/// animation frame, however many batches came in between (`FrameRedraw`:
/// drawing the pane costs far more than folding a batch). A run's solver
/// query goes from the engine's worker to Z3's worker directly (the page
/// records it in the solver log from the worker's reports), or, when the
/// engine has no port to Z3, through the page's Z3 and back.
/// Cancel stops the runs in the worker at once (and the worker itself if
/// the engine is stuck in a step).
pub async fn drive_in_worker<T: Mirror + 'static>(
    task: Rc<RefCell<T>>,
    cancel: CancelFlag,
    after_slice: impl Fn(&SliceEnd) + 'static,
) -> Ended {
    let handed = task.borrow_mut().hand_over();
    let left = Rc::new(Cell::new(handed.len()));
    let after_slice = FrameRedraw::new(after_slice);
    let mut runs = Vec::new();
    // The solver log's entries of queries the engine asked Z3 directly and
    // not yet answered: entry and when it was logged, by run.
    let open: Rc<RefCell<Vec<(u64, usize, f64)>>> = Rc::default();
    for h in handed {
        let part = h.part;
        let (task, cancel, left, after_slice) = (task.clone(), cancel.clone(), left.clone(), after_slice.clone());
        let open = open.clone();
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
                    after_slice.request(finished);
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
                FromEngine::Asked { run, query } => {
                    let entry = crate::platform::z3::log_asked(&query);
                    open.borrow_mut().push((run, entry, now_ms()));
                }
                FromEngine::Answered { run, outcome, ms } => {
                    let entry = {
                        let mut open = open.borrow_mut();
                        open.iter().position(|o| o.0 == run).map(|k| open.remove(k).1)
                    };
                    if let Some(entry) = entry {
                        let outcome = outcome.map_err(crate::model::solver::SolverError::Load);
                        crate::platform::z3::log_answered(entry, outcome, ms as f64);
                    }
                }
                FromEngine::Refused { run, message } => {
                    // The trace so far stays steppable; the run is over.
                    web_sys::console::error_1(&format!("analysis stopped: {message}").into());
                    let stopped: Vec<_> = {
                        let mut open = open.borrow_mut();
                        let (gone, kept) = open.drain(..).partition(|o| o.0 == run);
                        *open = kept;
                        gone
                    };
                    log_given_up(stopped, || crate::model::solver::SolverError::Stopped(message.clone()));
                    task.borrow_mut().fold(part, Vec::new(), true);
                    left.set(left.get() - 1);
                    after_slice.request(true);
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
            // The log says which queries were given up (Z3's late answers
            // are dropped in the engine's worker).
            log_given_up(open.borrow_mut().drain(..), || crate::model::solver::SolverError::Cancelled);
            return Ended::Cancelled;
        }
        TimeoutFuture::new(CANCEL_POLL_MS).await;
    }
    Ended::Done
}

/// Closes the solver log's entries of `open` queries (run, entry, when
/// asked) that will get no answer, each with the error `why`.
fn log_given_up(open: impl IntoIterator<Item = (u64, usize, f64)>, why: impl Fn() -> crate::model::solver::SolverError) {
    for (_, entry, asked) in open {
        crate::platform::z3::log_answered(entry, Err(why()), now_ms() - asked);
    }
}

/// Redraws at most once per animation frame: every request before the
/// next frame is served by the one draw at that frame (or after
/// [`FRAME_FALLBACK_MS`] when the tab gets no frames). The draw is told
/// [`SliceEnd::Done`] once some request said the computation ended.
#[derive(Clone)]
struct FrameRedraw(Rc<FrameState>);

struct FrameState {
    /// A draw is scheduled (the number of the request that scheduled it).
    scheduled: Cell<Option<u64>>,
    /// Requests so far.
    requests: Cell<u64>,
    /// Some request said the computation ended.
    done: Cell<bool>,
    draw: Box<dyn Fn(&SliceEnd)>,
}

impl FrameRedraw {
    fn new(draw: impl Fn(&SliceEnd) + 'static) -> FrameRedraw {
        FrameRedraw(Rc::new(FrameState {
            scheduled: Cell::new(None),
            requests: Cell::new(0),
            done: Cell::new(false),
            draw: Box::new(draw),
        }))
    }

    /// Asks for a draw at the next frame (`done`: the computation ended).
    fn request(&self, done: bool) {
        let st = &self.0;
        if done {
            st.done.set(true);
        }
        if st.scheduled.get().is_some() {
            return;
        }
        let number = st.requests.get() + 1;
        st.requests.set(number);
        st.scheduled.set(Some(number));
        let Some(window) = web_sys::window() else {
            self.draw(number);
            return;
        };
        let (on_frame, on_timer) = (self.clone(), self.clone());
        let frame = Closure::once_into_js(move || on_frame.draw(number));
        let timer = Closure::once_into_js(move || on_timer.draw(number));
        let framed = window.request_animation_frame(frame.unchecked_ref()).is_ok();
        let timed =
            window.set_timeout_with_callback_and_timeout_and_arguments_0(timer.unchecked_ref(), FRAME_FALLBACK_MS).is_ok();
        if !framed && !timed {
            self.draw(number);
        }
    }

    /// The draw of request `number`, by whichever of its frame and its
    /// timer comes first.
    fn draw(&self, number: u64) {
        let st = &self.0;
        if st.scheduled.get() != Some(number) {
            return;
        }
        st.scheduled.set(None);
        (st.draw)(if st.done.get() { &SliceEnd::Done } else { &SliceEnd::Yield });
    }
}
