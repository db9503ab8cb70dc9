//! State lines and the waitlist / reached-set lists (`model::state_list`):
//! a list of at most `WINDOW_ABOVE_ROWS` rows is rendered whole; a longer
//! one is windowed — only the rows visible in its own scroll box (and a few
//! around them) are in the document, with padding standing for the rest, so
//! a step at 2,000 reached states renders as fast as one at 20.

use std::collections::BTreeSet;
use std::rc::Rc;

use engine::trace::StateId;
use yew::prelude::*;

use crate::model::analysis::StateLine;
use crate::model::selection::Selection;
use crate::model::state_list::{ListRow, Window, ROW_PX};

/// A state line that can be selected (linked selection): it carries its
/// key in `data-state` and is marked when selected. Keyed by its state (the
/// lists it is in hold a state once): a step that pushes or pops one state
/// moves the other rows instead of rewriting every row's text.
pub fn state_item(s: &StateLine, selected: &BTreeSet<StateId>) -> Html {
    let is_selected = matches!(Selection::parse(&s.id), Selection::State(id) if selected.contains(&id));
    let class = classes!(
        "state",
        "selectable",
        s.current.then_some("current"),
        s.target.then_some("target"),
        s.involved.then_some("involved"),
        s.next.then_some("next"),
        is_selected.then_some("selected")
    );
    html! {
        <li key={s.id.clone()} class={class} data-state={s.id.clone()} title="Click to select this state in every panel">
            <span class="sid">{ s.id.clone() }</span>{ " " }
            <span class="sloc">{ format!("@{}", s.location) }</span>{ " " }
            if s.abstraction {
                <span class="abs-tag" data-testid="abs-tag" title="an abstraction state: ψ was computed here (a block end) and φ starts again from true">{ "abs" }</span>{ " " }
            }
            <span class="stext">{ s.text.clone() }</span>
            if s.next {
                <span class="next-mark" data-testid="popped-next">{ " ← popped next" }</span>
            }
        </li>
    }
}

/// The properties of [`WindowedStates`].
#[derive(Properties, PartialEq)]
pub struct WindowedStatesProps {
    /// All rows of the list (headings and states).
    pub rows: Rc<Vec<ListRow>>,
    /// The states selected in every panel.
    pub selected: Rc<BTreeSet<StateId>>,
    /// The list's `data-testid` (`waitlist`, `reached`).
    pub testid: AttrValue,
    /// A click on a row (the panel selects the state it names).
    pub onclick: Callback<MouseEvent>,
}

/// A long state list in its own scroll box, rendering only the rows in
/// view ([`Window::visible`]); the box remembers where it was scrolled
/// while the rows change from step to step.
#[function_component(WindowedStates)]
pub fn windowed_states(props: &WindowedStatesProps) -> Html {
    // (first visible row, box height): changes only when another row comes
    // into view, so scrolling within a row does not render again.
    let view = use_state_eq(|| (0u32, 400u32));
    let node = use_node_ref();
    {
        let (node, view) = (node.clone(), view.clone());
        use_effect_with((), move |_| {
            if let Some(el) = node.cast::<web_sys::Element>() {
                view.set(((el.scroll_top().max(0) as u32) / ROW_PX, el.client_height().max(0) as u32));
            }
        });
    }
    let onscroll = {
        let view = view.clone();
        Callback::from(move |e: Event| {
            if let Some(el) = e.target_dyn_into::<web_sys::Element>() {
                view.set(((el.scroll_top().max(0) as u32) / ROW_PX, el.client_height().max(0) as u32));
            }
        })
    };
    let (first_row, height) = *view;
    let w = Window::visible(props.rows.len(), first_row * ROW_PX, height);
    html! {
        // Its own scroll box, so keyboard users must be able to focus it to
        // scroll it (the arrow keys then scroll the list).
        <div class="vlist" ref={node} {onscroll} data-testid={format!("{}-window", props.testid)} tabindex="0"
            role="region" aria-label={format!("{} rows, scroll to see more", props.rows.len())}>
            <ul class="states vrows" data-testid={props.testid.clone()} onclick={props.onclick.clone()}
                data-rows={props.rows.len().to_string()}
                style={format!("padding-top: {}px; padding-bottom: {}px", w.before_px, w.after_px)}>
                { for props.rows[w.start..w.end].iter().map(|r| match r {
                    ListRow::Location { node, label } => html! {
                        <li key={format!("@{node}")} class="loc" data-node={node.clone()}>{ label.clone() }</li>
                    },
                    ListRow::State(s) => state_item(s, &props.selected),
                }) }
            </ul>
        </div>
    }
}
