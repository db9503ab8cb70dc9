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
pub mod font_warmup;
pub mod idle;
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

/// Hands `worker` one end of a `MessageChannel`: posts `{type: kind, port}`
/// with the port transferred (the engine's worker gets its port to Z3's
/// worker this way, and Z3's worker the other end).
pub(crate) fn post_port(worker: &web_sys::Worker, kind: &str, port: &web_sys::MessagePort) -> Result<(), String> {
    let message = js_sys::Object::new();
    js_sys::Reflect::set(&message, &"type".into(), &kind.into()).map_err(|e| error_text(&e))?;
    js_sys::Reflect::set(&message, &"port".into(), port).map_err(|e| error_text(&e))?;
    worker.post_message_with_transfer(&message, &js_sys::Array::of1(port)).map_err(|e| error_text(&e))
}
