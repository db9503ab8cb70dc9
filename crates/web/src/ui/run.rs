//! The page's one driver for computations run in slices (browser glue of
//! [`crate::model::run_driver`]): the analysis pane's run, the compare
//! view's runs and the exercise grader all go through [`drive`].
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

use crate::model::run_driver::{slice, SliceEnd, Sliced, NO_ANSWER, SLICE_MS};
use crate::platform::clock::now_ms;

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
