//! Z3 in the page: the glue (`www/js/z3-glue.mjs`, bundled to
//! `z3-glue.js`, injected on first need) and the page-wide log of every
//! query ([`crate::model::solver::SolverLog`]) with its listeners. What the
//! answers mean is [`crate::model::solver`]; the panel is `crate::ui::solver`.

use std::cell::RefCell;

use wasm_bindgen::prelude::*;

use crate::model::solver::{Answer, LoadStatus, SolverError, SolverLog};
use crate::platform::clock::now_ms;

// The loader: injects the glue (www/js/z3-glue.mjs, bundled to
// z3-glue.js) on first use and marks, for the measurements, when a
// solver was first needed and when the first answer came back.
#[wasm_bindgen(inline_js = r#"
let gluePromise = null;
let firstAnswer = false;
function glue() {
  if (!gluePromise) {
    performance.mark('cpa-z3:need');
    gluePromise = new Promise((resolve, reject) => {
      if (globalThis.cpaZ3) { resolve(globalThis.cpaZ3); return; }
      const s = document.createElement('script');
      s.src = 'z3-glue.js';
      s.onload = () => globalThis.cpaZ3 ? resolve(globalThis.cpaZ3) : reject(new Error('z3-glue.js did not define cpaZ3'));
      s.onerror = () => reject(new Error('cannot load z3-glue.js'));
      document.head.appendChild(s);
    });
  }
  return gluePromise;
}
export async function cpa_z3_check(script) {
  const g = await glue();
  const out = await g.check(script);
  if (!firstAnswer) { firstAnswer = true; performance.mark('cpa-z3:first-answer'); }
  return out;
}
export function cpa_z3_status() {
  if (!gluePromise) return '{"phase":"idle"}';
  return globalThis.cpaZ3 ? globalThis.cpaZ3.status() : '{"phase":"script"}';
}
"#)]
extern "C" {
    #[wasm_bindgen(catch)]
    async fn cpa_z3_check(script: String) -> Result<JsValue, JsValue>;
    fn cpa_z3_status() -> String;
}

fn error_text(e: &JsValue) -> String {
    e.as_string()
        .or_else(|| js_sys::Reflect::get(e, &"message".into()).ok().and_then(|m| m.as_string()))
        .unwrap_or_else(|| "unknown error".into())
}

/// Runs one self-contained SMT-LIB2 script in Z3 (loading Z3 first if
/// needed) and returns its output text. Never blocks: the page keeps
/// running while Z3 loads and solves.
pub async fn check(script: &str) -> Result<String, SolverError> {
    match cpa_z3_check(script.to_string()).await {
        Ok(v) => v.as_string().ok_or_else(|| SolverError::NoAnswer("Z3 returned no text".into())),
        Err(e) => Err(SolverError::Load(error_text(&e))),
    }
}

/// How far loading Z3 has come.
pub fn status() -> LoadStatus {
    LoadStatus::from_json(&cpa_z3_status())
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
    let id = LOG.with(|l| l.borrow_mut().ask(origin, script, expected));
    notify();
    if !status().ready() {
        // Redraw the progress indicator until this query is answered.
        wasm_bindgen_futures::spawn_local(async move {
            loop {
                gloo_timers::future::TimeoutFuture::new(150).await;
                notify();
                let answered = LOG.with(|l| l.borrow().entries.iter().any(|e| e.id == id && e.result.is_some()));
                if answered {
                    return;
                }
            }
        });
    }
    let t0 = now_ms();
    let outcome = check(script).await;
    let ms = now_ms() - t0;
    LOG.with(|l| l.borrow_mut().answer(id, outcome.clone(), ms));
    notify();
    outcome
}
