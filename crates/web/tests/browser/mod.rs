//! What the wasm-bindgen browser tests share: waiting for the page to get
//! somewhere without betting on how fast it does.
use std::time::Duration;

/// How long a test waits for the page at most (ms). Generous: CI runs the
/// browser tests on 2 busy cores, where a render or the editor's idle-time
/// creation can take far longer than on an idle machine.
pub const PATIENCE_MS: f64 = 5_000.0;

/// Polls `probe` every 10 ms until it returns `Some`, and returns that;
/// panics naming `what` after [`PATIENCE_MS`]. Tests wait for what they
/// need to see (the editor created, a graph drawn) instead of sleeping a
/// fixed time and hoping it happened.
pub async fn wait_for<T>(what: &str, mut probe: impl FnMut() -> Option<T>) -> T {
    let start = js_sys::Date::now();
    loop {
        if let Some(found) = probe() {
            return found;
        }
        if js_sys::Date::now() - start > PATIENCE_MS {
            panic!("waited {PATIENCE_MS} ms for {what}");
        }
        yew::platform::time::sleep(Duration::from_millis(10)).await;
    }
}
