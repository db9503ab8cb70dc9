//! Work for when the page's main thread is idle (`requestIdleCallback`):
//! after the tasks and frames already pending, so it does not lay out or
//! run together with them in one long task.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The work, until it runs or is cancelled (then `None`).
type Pending = Rc<RefCell<Option<Box<dyn FnOnce()>>>>;

/// Scheduled idle work; dropping it before it ran cancels it.
pub struct IdleWork {
    then: Pending,
}

impl Drop for IdleWork {
    fn drop(&mut self) {
        self.then.borrow_mut().take();
    }
}

/// Calls `then` in the page's next idle period, or after `max_wait_ms` at
/// the latest; in a task of its own at once where the browser has no idle
/// callbacks (Safari).
pub fn when_idle(max_wait_ms: u32, then: impl FnOnce() + 'static) -> IdleWork {
    let then: Pending = Rc::new(RefCell::new(Some(Box::new(then))));
    let run = {
        let then = then.clone();
        move || {
            if let Some(then) = then.borrow_mut().take() {
                then();
            }
        }
    };
    let scheduled = web_sys::window().is_some_and(|window| {
        let options = web_sys::IdleRequestOptions::new();
        options.set_timeout(max_wait_ms);
        let callback = Closure::once_into_js(run.clone());
        window.request_idle_callback_with_options(callback.unchecked_ref(), &options).is_ok()
    });
    if !scheduled {
        gloo_timers::callback::Timeout::new(0, run).forget();
    }
    IdleWork { then }
}
