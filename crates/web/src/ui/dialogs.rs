//! Escape closes the dialog on top: the keyboard shortcuts, Make exercise,
//! the examples gallery, the share link, the compare view. Each dialog keeps
//! its own open state; its close button is named `Close …` (`aria-label`),
//! so one document listener presses the close button of the first open
//! dialog in `ON_TOP_FIRST` order.

use gloo_events::EventListener;
use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, KeyboardEvent};
use yew::prelude::*;

/// The dialogs' close buttons, the one drawn on top first (popovers over
/// overlays).
const ON_TOP_FIRST: &[&str] = &[
    ".help-pop button[aria-label^=Close]",
    ".skeleton-pop button[aria-label^=Close]",
    ".gallery-backdrop button[aria-label^=Close]",
    ".share-pop button[aria-label^=Close]",
    ".share-error button[aria-label=Dismiss]",
    "[data-testid=compare-close]",
];

/// Installs the document's Escape listener for the component's lifetime.
#[hook]
pub fn use_escape_closes_dialogs() {
    use_effect_with((), |_| {
        let listener = web_sys::window().and_then(|w| w.document()).map(|document| {
            let doc = document.clone();
            EventListener::new(&document, "keydown", move |e| {
                let Some(e) = e.dyn_ref::<KeyboardEvent>() else { return };
                if e.key() == "Escape" {
                    close_top(&doc);
                }
            })
        });
        move || drop(listener)
    });
}

/// Presses the close button of the open dialog on top, if any.
fn close_top(document: &web_sys::Document) {
    for selector in ON_TOP_FIRST {
        let button = document.query_selector(selector).ok().flatten().and_then(|b| b.dyn_into::<HtmlElement>().ok());
        if let Some(button) = button {
            button.click();
            return;
        }
    }
}
