//! The service worker (`static/sw.js`): registering it, so the page works
//! offline once it was opened, and the explicit update to a new build (the
//! new worker waits until the student presses "Reload" in the notice of
//! `crate::ui::update_notice`). Release builds only: a debug build (`trunk
//! serve`) unregisters any worker, so development never sees a cached page.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = r#"
let registration = null;
let applying = false;
// The worker's word that it could not store Z3 (`z3-not-kept`): listened
// for from the start, since a controlled page fetches Z3 through the worker
// long before the page registers it again.
let z3NotKept = null;
let reportNotKept = null;
if ('serviceWorker' in navigator) {
  navigator.serviceWorker.addEventListener('message', (e) => {
    if (!e.data || e.data.type !== 'z3-not-kept') return;
    z3NotKept = String(e.data.reason);
    if (reportNotKept) reportNotKept(z3NotKept);
  });
}
function offerZ3() {
  // Z3 loaded before this worker controlled the page: let it keep a copy.
  const z3 = globalThis.cpaZ3;
  const controller = navigator.serviceWorker.controller;
  if (z3 && controller && JSON.parse(z3.status()).phase === 'ready') controller.postMessage({ type: 'cache-z3' });
}
export function cpa_sw_register(onUpdate, onZ3NotKept, enabled) {
  if (!('serviceWorker' in navigator)) return;
  const sw = navigator.serviceWorker;
  if (!enabled) {
    sw.getRegistrations().then((all) => all.forEach((r) => r.unregister()), () => {});
    return;
  }
  reportNotKept = onZ3NotKept;
  if (z3NotKept !== null) onZ3NotKept(z3NotKept);
  let hadController = !!sw.controller;
  sw.addEventListener('controllerchange', () => {
    if (applying) { location.reload(); return; }
    // Another tab activated a new build: this page's code is the old one.
    if (hadController) onUpdate();
    hadController = true;
    offerZ3();
  });
  sw.register('sw.js').then((r) => {
    registration = r;
    if (r.waiting && sw.controller) onUpdate();
    r.addEventListener('updatefound', () => {
      const worker = r.installing;
      if (!worker) return;
      worker.addEventListener('statechange', () => {
        if (worker.state === 'installed' && sw.controller) onUpdate();
      });
    });
  }, (e) => console.warn('CPA Playground works online only: the service worker was not registered:', e));
  sw.ready.then(offerZ3, () => {});
}
export function cpa_sw_apply_update() {
  const waiting = registration && registration.waiting;
  if (waiting) {
    applying = true;
    waiting.postMessage({ type: 'skip-waiting' });
  } else {
    location.reload();
  }
}
"#)]
extern "C" {
    fn cpa_sw_register(on_update: &js_sys::Function, on_z3_not_kept: &js_sys::Function, enabled: bool);
    fn cpa_sw_apply_update();
}

/// How long after the page's first render the service worker is
/// registered at the earliest. Installing it downloads the whole build
/// again (the page's wasm, examples, exercises) into its cache; on a first
/// visit that competed with the page's own start and with Z3's download and
/// compile (a cold load to Listing 1's verdict took ≈ 400 ms longer on a
/// 2-core machine), so it waits until the page has started.
pub const QUIET_AFTER_MS: u32 = 1_500;

/// How often the page looks again whether it is quiet before it registers
/// the service worker.
const RECHECK_MS: u32 = 250;

/// How long without the student's input (a key, a pointer or click, the wheel) counts
/// as quiet: the worker's install, if it began while a student steps
/// through a run, made a step's render miss its frame now and then
/// (`tests/bench/render-step.mjs`: p95 of the first row 14–19 ms against
/// 11 ms without the install).
pub const QUIET_INPUT_MS: f64 = 1_000.0;

/// Registers the service worker once the page is quiet: at least
/// [`QUIET_AFTER_MS`] after this call, never while Z3 is loading (the
/// worker's install would share the cores and the connection with Z3's
/// download and compile, which a student is waiting for), and only after
/// [`QUIET_INPUT_MS`] without input. Then as [`register`].
pub fn register_when_quiet(on_update: impl Fn() + 'static, on_z3_not_kept: impl Fn(String) + 'static) {
    let last_input = std::rc::Rc::new(std::cell::Cell::new(crate::platform::clock::now_ms()));
    let listeners: Vec<gloo_events::EventListener> = match web_sys::window() {
        Some(window) => ["keydown", "pointerdown", "click", "wheel"]
            .into_iter()
            .map(|kind| {
                let last_input = last_input.clone();
                let options = gloo_events::EventListenerOptions { passive: true, ..gloo_events::EventListenerOptions::default() };
                gloo_events::EventListener::new_with_options(&window, kind, options, move |_| {
                    last_input.set(crate::platform::clock::now_ms())
                })
            })
            .collect(),
        None => Vec::new(),
    };
    wasm_bindgen_futures::spawn_local(async move {
        gloo_timers::future::TimeoutFuture::new(QUIET_AFTER_MS).await;
        while crate::platform::z3_worker::status().loading()
            || crate::platform::clock::now_ms() - last_input.get() < QUIET_INPUT_MS
        {
            gloo_timers::future::TimeoutFuture::new(RECHECK_MS).await;
        }
        drop(listeners);
        register(on_update, on_z3_not_kept);
    });
}

/// Registers the service worker (release builds; a debug build removes
/// any) and calls `on_update` when a new build of the page is ready to
/// be used: installed and waiting, or already activated by another tab;
/// and `on_z3_not_kept` with the browser's reason when the worker could
/// not store Z3's files for offline use (a full disk: the browser grants
/// no room for 35 MB), so offline runs of solver-backed analyses would fail.
pub fn register(on_update: impl Fn() + 'static, on_z3_not_kept: impl Fn(String) + 'static) {
    let callback = Closure::<dyn Fn()>::new(on_update);
    let not_kept = Closure::<dyn Fn(String)>::new(on_z3_not_kept);
    cpa_sw_register(callback.as_ref().unchecked_ref(), not_kept.as_ref().unchecked_ref(), !cfg!(debug_assertions));
    // Called once per page load; the worker may report at any time.
    callback.forget();
    not_kept.forget();
}

/// Switches to the new build: activates the waiting worker, and the page
/// reloads as soon as it controls the page (or reloads at once when
/// another tab already activated it).
pub fn apply_update() {
    cpa_sw_apply_update();
}
