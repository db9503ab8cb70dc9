//! The page's address: its fragment (share links and exercise links live
//! there), reloading, and showing a link without reloading.

use gloo_events::EventListener;

/// The address's fragment (`#…`), empty when there is none.
pub fn hash() -> String {
    web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default()
}

/// Opens the address with fragment `fragment` (`#…`): the page reloads
/// through the `hashchange` listener of [`on_hash_change`], or at once when
/// the fragment is already that one.
pub fn open_fragment(fragment: &str) {
    let Some(location) = web_sys::window().map(|w| w.location()) else { return };
    if location.hash().ok().as_deref() == Some(fragment) {
        let _ = location.reload();
    } else {
        let _ = location.set_hash(fragment);
    }
}

/// Reloads the page.
pub fn reload() {
    if let Some(w) = web_sys::window() {
        let _ = w.location().reload();
    }
}

/// The page's address without its fragment.
pub fn base() -> String {
    let href = web_sys::window().and_then(|w| w.location().href().ok()).unwrap_or_default();
    href.split('#').next().unwrap_or_default().to_string()
}

/// Shows `url` in the address bar without a `hashchange` (no reload) and
/// without a new history entry (`history.replaceState`).
pub fn show(url: &str) {
    if let Some(h) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(url));
    }
}

/// Calls `f` whenever the fragment changes (a link pasted into the
/// address bar); dropping the listener stops it.
pub fn on_hash_change(f: impl FnMut(&web_sys::Event) + 'static) -> Option<EventListener> {
    web_sys::window().map(|w| EventListener::new(&w, "hashchange", f))
}
