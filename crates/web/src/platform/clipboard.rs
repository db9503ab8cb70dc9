//! The clipboard (the solver log's and the share link's Copy buttons).

use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = r#"
export function cpa_copy_text(text) {
  if (navigator.clipboard) navigator.clipboard.writeText(text).catch(() => {});
}
"#)]
extern "C" {
    fn cpa_copy_text(text: String);
}

/// Copies `text` to the clipboard (silently does nothing where the browser
/// refuses).
pub fn copy(text: &str) {
    cpa_copy_text(text.to_string());
}
