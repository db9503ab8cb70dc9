//! The page's clock (`performance`): for slicing work between frames,
//! timing queries, and the marks the browser tests measure.

/// Milliseconds since the page loaded (`performance.now()`), or 0 where
/// the browser has no performance API.
pub fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map(|p| p.now()).unwrap_or(0.0)
}

/// Marks a point on the page's performance timeline (`performance.mark`),
/// read by the browser tests' measurements.
pub fn performance_mark(name: &str) {
    if let Some(perf) = web_sys::window().and_then(|w| w.performance()) {
        let _ = perf.mark(name);
    }
}
