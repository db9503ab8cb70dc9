//! The browser's own dialogs (asking before an answers file replaces the
//! answers, or before a set's progress is forgotten).

/// Asks the user `question` with the browser's confirmation dialog; `false`
/// when there is no window or the dialog is refused.
pub fn confirm(question: &str) -> bool {
    web_sys::window().and_then(|w| w.confirm_with_message(question).ok()).unwrap_or(false)
}
