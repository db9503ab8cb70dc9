//! The ARIA tabs pattern for the page's tab lists (the analysis pane's
//! tabs, the graph tabs): each list is one Tab stop, its selected tab
//! ([`roving_tabindex`]), and on a focused tab the arrows, Home and End
//! move among its tabs ([`move_among_tabs`], called by the analysis pane's
//! key listener before its step shortcuts).

use wasm_bindgen::JsCast;

/// A tab's `tabindex`: `0` for the selected tab of its list, `-1` for the
/// others (reached with the arrows instead of Tab).
pub fn roving_tabindex(selected: bool) -> &'static str {
    if selected {
        "0"
    } else {
        "-1"
    }
}

/// For a focused `tab`: ← / → select the previous / next tab of its
/// `tablist` (wrapping around), Home / End the first / last, and move the
/// focus there. Returns whether `key` was one of these.
pub fn move_among_tabs(tab: &web_sys::Element, key: &str) -> bool {
    let Some(list) = tab.closest("[role=tablist]").ok().flatten() else { return false };
    let Ok(found) = list.query_selector_all("[role=tab]") else { return false };
    let tabs: Vec<web_sys::HtmlElement> =
        (0..found.length()).filter_map(|i| found.get(i)).filter_map(|n| n.dyn_into().ok()).collect();
    let Some(at) = tabs.iter().position(|t| t.is_same_node(Some(tab))) else { return false };
    let last = tabs.len() - 1;
    let to = match key {
        "ArrowRight" => {
            if at == last {
                0
            } else {
                at + 1
            }
        }
        "ArrowLeft" => {
            if at == 0 {
                last
            } else {
                at - 1
            }
        }
        "Home" => 0,
        "End" => last,
        _ => return false,
    };
    let _ = tabs[to].focus();
    tabs[to].click();
    true
}
