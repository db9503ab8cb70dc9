//! The page's clock, for slicing work between frames and timing queries.

/// Milliseconds since the page loaded (`performance.now()`), or 0 where
/// the browser has no performance API.
pub fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map(|p| p.now()).unwrap_or(0.0)
}
