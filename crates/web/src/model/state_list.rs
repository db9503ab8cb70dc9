//! The waitlist and the reached set as lists of rows, and their windowing:
//! with
//! thousands of states, the panels render only the rows that are visible in
//! their scroll box, plus a few above and below, and stand for the rest
//! with empty space of the right height — so one step of the analysis costs
//! the same at 20 reached states and at 2,000.
//!
//! Every row has the same height ([`ROW_PX`], fixed by the stylesheet for
//! windowed lists), so which rows are visible is arithmetic on the scroll
//! offset; no row is measured.

use super::analysis::{LocationGroup, StateLine};

/// One row of a state list: a location's heading (`N5 (3)`, in the reached
/// set) or one state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ListRow {
    /// The location the following states are at, with how many there are.
    Location {
        /// `N5`.
        node: String,
        /// `N5 (3)`.
        label: String,
    },
    /// One abstract state.
    State(StateLine),
}

/// The reached set's groups as rows: each location's heading, then its
/// states.
pub fn reached_rows<'a>(groups: impl IntoIterator<Item = &'a LocationGroup>) -> Vec<ListRow> {
    let mut rows = Vec::new();
    for g in groups {
        rows.push(ListRow::Location { node: g.node.clone(), label: format!("{} ({})", g.node, g.states.len()) });
        rows.extend(g.states.iter().cloned().map(ListRow::State));
    }
    rows
}

/// The height of one row of a windowed list, in CSS pixels (the stylesheet
/// gives `.vrows > li` exactly this height).
pub const ROW_PX: u32 = 19;

/// Lists with at most this many rows are rendered whole (every row in the
/// document, as before windowing: small runs behave and read exactly as
/// they always did); longer ones are windowed.
pub const WINDOW_ABOVE_ROWS: usize = 300;

/// Rows rendered above and below the visible ones, so that scrolling a
/// little shows rows that are already there.
pub const OVERSCAN_ROWS: usize = 20;

/// Which rows of a list to render: `start..end`, with `before_px` and
/// `after_px` of empty space standing for the rows left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    /// The first row rendered.
    pub start: usize,
    /// One past the last row rendered.
    pub end: usize,
    /// Space for the rows above `start`.
    pub before_px: u32,
    /// Space for the rows from `end` on.
    pub after_px: u32,
}

impl Window {
    /// Every row of a list of `rows` rows, no space left for others.
    pub fn all(rows: usize) -> Window {
        Window { start: 0, end: rows, before_px: 0, after_px: 0 }
    }

    /// Whether a list of `rows` rows is windowed at all.
    pub fn applies(rows: usize) -> bool {
        rows > WINDOW_ABOVE_ROWS
    }

    /// The rows of a list of `rows` rows to render when its scroll box,
    /// `viewport_px` high, is scrolled `scroll_top_px` down: the visible
    /// ones and [`OVERSCAN_ROWS`] on each side. A scroll offset past the
    /// end (the list just got shorter) shows the last rows.
    pub fn visible(rows: usize, scroll_top_px: u32, viewport_px: u32) -> Window {
        if !Window::applies(rows) {
            return Window::all(rows);
        }
        let row = ROW_PX as usize;
        let visible = (viewport_px as usize).div_ceil(row).max(1);
        let first_visible = (scroll_top_px as usize / row).min(rows.saturating_sub(visible));
        let start = first_visible.saturating_sub(OVERSCAN_ROWS);
        let end = (first_visible + visible + OVERSCAN_ROWS).min(rows);
        Window { start, end, before_px: (start * row) as u32, after_px: ((rows - end) * row) as u32 }
    }

    /// The scroll offset that shows row `index` in a scroll box
    /// `viewport_px` high that is now scrolled `scroll_top_px` down: the
    /// same offset if the row is already visible, else one that puts the
    /// row a third of the way down.
    pub fn scroll_to_show(index: usize, scroll_top_px: u32, viewport_px: u32) -> u32 {
        let top = index as u32 * ROW_PX;
        if top >= scroll_top_px && top + ROW_PX <= scroll_top_px + viewport_px {
            scroll_top_px
        } else {
            top.saturating_sub(viewport_px / 3)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reached_set_is_its_headings_each_followed_by_its_states() {
        let line = |id: &str| StateLine { id: id.into(), location: "N1".into(), ..StateLine::default() };
        let groups = vec![
            LocationGroup { node: "N1".into(), states: vec![line("s0"), line("s2")] },
            LocationGroup { node: "N3".into(), states: vec![line("s1")] },
        ];
        let rows = reached_rows(&groups);
        let names: Vec<String> = rows
            .iter()
            .map(|r| match r {
                ListRow::Location { label, .. } => label.clone(),
                ListRow::State(s) => s.id.to_string(),
            })
            .collect();
        assert_eq!(names, ["N1 (2)", "s0", "s2", "N3 (1)", "s1"]);
    }

    #[test]
    fn short_lists_are_rendered_whole() {
        assert_eq!(Window::visible(WINDOW_ABOVE_ROWS, 5_000, 300), Window::all(WINDOW_ABOVE_ROWS));
        assert_eq!(Window::visible(0, 0, 300), Window::all(0));
    }

    #[test]
    fn a_long_list_renders_the_visible_rows_and_the_overscan() {
        // 2,000 rows, 380 px high (20 rows), scrolled to row 100.
        let w = Window::visible(2_000, 100 * ROW_PX, 20 * ROW_PX);
        assert_eq!((w.start, w.end), (100 - OVERSCAN_ROWS, 100 + 20 + OVERSCAN_ROWS));
        assert_eq!(w.before_px, (100 - OVERSCAN_ROWS) as u32 * ROW_PX);
        assert_eq!(w.after_px, (2_000 - 140) as u32 * ROW_PX);
    }

    #[test]
    fn space_and_rows_always_add_up_to_the_whole_list() {
        for rows in [301, 500, 2_000] {
            for scroll in [0, 7, 190, 19_000, 1_000_000] {
                for viewport in [0, 19, 400, 5_000] {
                    let w = Window::visible(rows, scroll, viewport);
                    assert!(w.start <= w.end && w.end <= rows, "{w:?}");
                    assert_eq!(w.before_px + (w.end - w.start) as u32 * ROW_PX + w.after_px, rows as u32 * ROW_PX);
                    assert!(w.end > w.start, "something is always rendered: {w:?}");
                }
            }
        }
    }

    #[test]
    fn scrolled_past_the_end_shows_the_last_rows() {
        let w = Window::visible(400, 1_000_000, 20 * ROW_PX);
        assert_eq!(w.end, 400);
        assert_eq!(w.after_px, 0);
    }

    #[test]
    fn scrolling_to_a_row_keeps_a_visible_row_where_it_is() {
        assert_eq!(Window::scroll_to_show(10, 0, 20 * ROW_PX), 0);
        let off = Window::scroll_to_show(500, 0, 30 * ROW_PX);
        assert!(off <= 500 * ROW_PX && 500 * ROW_PX < off + 30 * ROW_PX);
    }
}
