//! The browser's services, each behind a few plain functions so that the
//! components in `crate::ui` never call web-sys or JavaScript themselves
//! (browser only).

pub mod clipboard;
pub mod clock;
pub mod codemirror;
pub mod dialog;
pub mod engine_scope;
pub mod engine_worker;
pub mod files;
pub mod location;
pub mod region_hover;
pub mod service_worker;
pub mod storage;
pub mod z3;
pub mod z3_worker;

/// The text of a JavaScript error value (a thrown string, or an `Error`'s
/// `message`), for messages shown to the student or logged.
pub(crate) fn error_text(e: &wasm_bindgen::JsValue) -> String {
    e.as_string()
        .or_else(|| js_sys::Reflect::get(e, &"message".into()).ok().and_then(|m| m.as_string()))
        .unwrap_or_else(|| "unknown error".into())
}
