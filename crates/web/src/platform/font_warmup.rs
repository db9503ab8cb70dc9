//! The font samples of `www/index.html` (`#font-warmup`): hidden text in
//! every font the first screens use, laid out in the page's first frame
//! while the app's wasm downloads, so the first renders do not wait for
//! the system to resolve fonts on the main thread.

/// The samples' element id in `www/index.html`.
const WARMUP_ID: &str = "font-warmup";

/// Removes the samples once the app has rendered: their fonts stay
/// resolved in the browser's font cache.
pub fn release() {
    if let Some(samples) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id(WARMUP_ID)) {
        samples.remove();
    }
}
