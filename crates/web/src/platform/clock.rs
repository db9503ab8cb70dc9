//! The page's clock (`performance`): for slicing work between frames,
//! timing queries, and the marks the browser tests measure.

use wasm_bindgen::JsCast;

/// Milliseconds since this page or worker started (`performance.now()` of
/// the global scope, so the engine's worker reads the same clock as the
/// page), or 0 where there is no performance API.
pub fn now_ms() -> f64 {
    PERFORMANCE.with(|p| p.as_ref().map(|p| p.now()).unwrap_or(0.0))
}

thread_local! {
    /// The global scope's `performance`, looked up once.
    static PERFORMANCE: Option<web_sys::Performance> = js_sys::Reflect::get(&js_sys::global(), &"performance".into())
        .ok()
        .and_then(|p| p.dyn_into::<web_sys::Performance>().ok());
}

/// Marks a point on the page's performance timeline (`performance.mark`),
/// read by the browser tests' measurements.
pub fn performance_mark(name: &str) {
    if let Some(perf) = web_sys::window().and_then(|w| w.performance()) {
        let _ = perf.mark(name);
    }
}
