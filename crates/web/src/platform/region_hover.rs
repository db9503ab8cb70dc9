//! Hovering a load or store in the CFA marks the rows of its memory region
//! in the regions table (`crate::ui::memory_view`): one style rule in a
//! `<style>` element of its own, matching the rows' `data-region`, so the
//! graph and the table need no shared component state.

/// The id of the style element this module owns.
const STYLE_ID: &str = "region-hover-style";

/// Marks the regions table's rows of `region` as hovered (`None`: none).
pub fn set_hovered_region(region: Option<&str>) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    let style = match doc.get_element_by_id(STYLE_ID) {
        Some(s) => s,
        None => {
            let Ok(s) = doc.create_element("style") else { return };
            s.set_id(STYLE_ID);
            let Some(body) = doc.body() else { return };
            if body.append_child(&s).is_err() {
                return;
            }
            s
        }
    };
    let rule = region.map(|r| {
        let quoted = r.replace('\\', "\\\\").replace('"', "\\\"");
        format!(
            "tr.region-row[data-region=\"{quoted}\"] td {{ background: var(--current-edge-bg); }} \
             tr.region-row[data-region=\"{quoted}\"] td:first-child {{ box-shadow: inset 3px 0 0 var(--accent); }}"
        )
    });
    style.set_text_content(rule.as_deref());
}
