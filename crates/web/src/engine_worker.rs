//! Entry point of the analysis engine's Web Worker (the `engine-worker`
//! binary; Trunk builds it as a worker next to the page, see
//! `www/index.html`). It owns the runs' CPA algorithms
//! ([`web::model::engine_link::EngineHost`]) and computes them in slices,
//! so the page's main thread only renders; between slices it reads its
//! messages (new runs, solver answers, Cancel). It never touches Yew or the
//! document: only the model's run pieces and the engine are linked in.
//! Natively it only explains itself, so the workspace builds on the host.

#[cfg(target_arch = "wasm32")]
mod worker {
    use std::cell::{Cell, RefCell};

    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

    use web::model::engine_link::{EngineHost, FromEngine, ToEngine, WORKER_SLICE_MS};

    thread_local! {
        static HOST: RefCell<EngineHost> = RefCell::new(EngineHost::default());
        /// The slice loop is running (it stops when no run can compute).
        static PUMPING: Cell<bool> = const { Cell::new(false) };
    }

    fn scope() -> DedicatedWorkerGlobalScope {
        js_sys::global().unchecked_into()
    }

    /// Posts one message to the page, as JSON text: a slice's events are
    /// many nested values, and one string crosses to the page and is
    /// parsed there far faster than a tree of JavaScript objects is built
    /// here and read back there (and every 64-bit integer stays exact).
    fn post(message: &FromEngine) {
        match serde_json::to_string(message) {
            Ok(text) => {
                if let Err(e) = scope().post_message(&JsValue::from_str(&text)) {
                    web_sys::console::error_2(&"engine worker: cannot post".into(), &e);
                }
            }
            Err(e) => web_sys::console::error_1(&format!("engine worker: cannot encode a message: {e}").into()),
        }
    }

    fn receive(data: JsValue) {
        let message = match serde_wasm_bindgen::from_value::<ToEngine>(data) {
            Ok(m) => m,
            Err(e) => {
                web_sys::console::warn_1(&format!("engine worker: unreadable message: {e}").into());
                return;
            }
        };
        let replies = HOST.with(|h| h.borrow_mut().receive(message));
        for r in &replies {
            post(r);
        }
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
                let t0 = js_sys::Date::now();
                let out = HOST.with(|h| h.borrow_mut().slice(|| js_sys::Date::now() - t0 > WORKER_SLICE_MS));
                for m in &out {
                    post(m);
                }
                gloo_timers::future::TimeoutFuture::new(0).await;
            }
            PUMPING.with(|p| p.set(false));
        });
    }

    pub fn run() {
        console_error_panic_hook::set_once();
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(|e: MessageEvent| receive(e.data()));
        scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        // The worker keeps it for its whole life.
        on_message.forget();
        post(&FromEngine::Ready);
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {
    worker::run();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("engine-worker is the web page's analysis worker; build it with `trunk build` (see README.md)");
    std::process::exit(2);
}
