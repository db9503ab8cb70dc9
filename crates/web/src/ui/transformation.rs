//! The Transformation view (Yew): the original program and the
//! transformed one side by side, the legend of the marks, the line the
//! shown step executes, the explicit state, and the state space explored
//! so far (the ARG view of `ui::graphs`, which passes it in as the
//! children, so the two modules do not import each other). What is shown is
//! computed in [`crate::model::transformation`].
//!
//! Linking: hovering a line on either side highlights its partner lines on
//! the other (`linked`); clicking a transformed line pins that and selects
//! its CFA edge in every panel (the editor highlights the original line).

use std::rc::Rc;
use std::sync::Arc;

use cfa::Program;
use transform::print::Mark;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::model::graphs::frame::RunFrame;
use crate::model::selection::Selection;
use crate::model::transformation::{mark_words, ExplicitState, StepMarks, TransformationListing, LEGEND, NO_LOWER};
use crate::ui::selection::use_selection;

/// Properties of [`TransformationView`].
#[derive(Properties, PartialEq)]
pub struct TransformationViewProps {
    /// The analysed program.
    pub program: Arc<Program>,
    /// Its text (the original side).
    pub source: String,
    /// The run at its shown position (a transform run).
    pub frame: Rc<RunFrame>,
    /// The state space explored so far (the graph views' ARG).
    pub children: Html,
}

/// The marks of a line as badges: text (`L`, `op`, …), so they never rely
/// on colour alone.
fn badges(marks: &[Mark]) -> Html {
    html! {
        <span class="tx-badges">
            { for marks.iter().map(|m| {
                let (class, badge, words) = mark_words(*m);
                html! { <span class={classes!("tx-badge", format!("tx-{class}"))} title={words}>{ badge }</span> }
            }) }
        </span>
    }
}

/// The legend: one badge and its meaning per mark, and why nothing lowers.
fn legend() -> Html {
    html! {
        <div class="tx-legend" data-testid="tx-legend">
            { for LEGEND.iter().map(|m| {
                let (class, badge, words) = mark_words(*m);
                let short = words.split(':').next().unwrap_or(words);
                html! { <span class="tx-legend-item" title={words}><span class={classes!("tx-badge", format!("tx-{class}"))}>{ badge }</span>{ format!(" {short}") }</span> }
            }) }
            <span class="tx-legend-item tx-lower-note" title={NO_LOWER}>{ "lower: see text" }</span>
            <span class="tx-legend-item"><span class="tx-now-mark">{ "▶" }</span>{ " this step" }</span>
        </div>
    }
}

/// The explicit state as a table: each variable's value, concrete or
/// abstract (frozen values marked), and the path condition.
fn state_box(state: Option<&ExplicitState>, domain: &str) -> Html {
    let Some(s) = state else {
        return html! { <div class="tx-state" data-testid="tx-state"><p class="hint">{ "Step the run: the explicit state appears here." }</p></div> };
    };
    html! {
        <div class="tx-state" data-testid="tx-state">
            <p class="tx-state-head">
                <strong>{ format!("state {} ", s.id) }</strong>{ format!("@{}", s.location) }
                if !s.call_stack.is_empty() { { format!(" calls {}", s.call_stack) } }
            </p>
            <table class="tx-values">
                <tbody>
                    { for s.values.iter().map(|v| html! {
                        <tr class={classes!(v.is_abstract.then_some("abstract"), v.frozen.then_some("frozen"))}>
                            <th>{ v.name.clone() }</th>
                            <td><code>{ v.value.clone() }</code></td>
                            <td class="tx-kind">{ if v.frozen { format!("{domain}, frozen") } else if v.is_abstract { domain.to_string() } else { "C".to_string() } }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
            if !s.path_condition.is_empty() {
                <p class="tx-pc" data-testid="tx-pc">{ "path condition: " }<code>{ s.path_condition.join(" ∧ ") }</code></p>
            }
        </div>
    }
}

/// Scrolls `column` so that its line marked `current` is in view (a third
/// from the top), when it is not already; only the column scrolls.
fn keep_current_in_view(column: &NodeRef) {
    let Some(col) = column.cast::<web_sys::HtmlElement>() else { return };
    let Some(line) = col.query_selector(".current").ok().flatten().and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) else {
        return;
    };
    let (top, height, view) = (line.offset_top(), line.offset_height(), col.client_height());
    let scrolled = col.scroll_top();
    if top < scrolled || top + height > scrolled + view {
        col.set_scroll_top((top - view / 3).max(0));
    }
}

/// The Transformation view (see the module docs).
#[function_component(TransformationView)]
pub fn transformation_view(props: &TransformationViewProps) -> Html {
    let linked = use_selection();
    // The transformed program: once per run (and program text).
    let listing = {
        let (program, source, info) = (props.program.clone(), props.source.clone(), props.frame.info.clone());
        use_memo((props.frame.run_id, props.source.clone()), move |_| {
            TransformationListing::of(&program, &source, info.as_deref())
        })
    };
    let hovered = use_state(|| None::<u32>);
    let pinned = use_state(|| None::<u32>);
    let listing = match listing.as_ref() {
        Ok(l) => l,
        Err(e) => {
            return html! { <p class="hint graph-empty" data-testid="tx-error">{ format!("No transformed program to show: {e}") }</p> }
        }
    };
    let snap = props.frame.snapshot.clone();
    let step = StepMarks::at(&props.program, &snap);
    // Stepping keeps the executed line in view in both columns.
    let (original_col, transformed_col) = (use_node_ref(), use_node_ref());
    {
        let cols = (original_col.clone(), transformed_col.clone());
        use_effect_with((props.frame.run_id, step.current), move |_| {
            keep_current_in_view(&cols.0);
            keep_current_in_view(&cols.1);
        });
    }
    let state = ExplicitState::at(&snap);
    let link = (*hovered).or(*pinned);
    let hover = |line: u32| {
        let hovered = hovered.clone();
        Callback::from(move |_: MouseEvent| hovered.set((line > 0).then_some(line)))
    };
    let unhover = {
        let hovered = hovered.clone();
        Callback::from(move |_: MouseEvent| hovered.set(None))
    };
    let on_pick = |line: u32, edge: Option<cfa::EdgeId>| {
        let (pinned, linked) = (pinned.clone(), linked.clone());
        Callback::from(move |_: MouseEvent| {
            pinned.set((line > 0).then_some(line));
            if let Some(e) = edge {
                linked.click(Selection::Edge(e));
            }
        })
    };
    let selected_edge = match linked.selection {
        Selection::Edge(e) => Some(e),
        _ => None,
    };
    html! {
        <div class="tx-view" data-testid="transformation" data-domain={listing.domain.clone()}>
            <p class="tx-header" title={listing.header.clone()}>{ listing.header.clone() }</p>
            { legend() }
            <div class="tx-columns">
                <div class="tx-col tx-original" data-testid="tx-original" aria-label="Original program" ref={original_col}>
                    <div class="tx-col-head">{ "original (mini-C)" }</div>
                    { for listing.source.iter().map(|l| {
                        let classes = classes!(
                            "tx-src", l.has_ops.then_some("has-ops"), (link == Some(l.number)).then_some("linked"),
                            (step.current_line == l.number && l.number > 0).then_some("current"), (!l.marks.is_empty()).then_some("marked"));
                        html! {
                            <div class={classes} data-line={l.number.to_string()} onmouseenter={hover(l.number)} onmouseleave={unhover.clone()} onclick={on_pick(l.number, None)}>
                                <span class="tx-no">{ l.number }</span>
                                <code class="tx-code">{ l.text.clone() }</code>
                                { badges(&l.marks) }
                            </div>
                        }
                    }) }
                </div>
                <div class="tx-col tx-transformed" data-testid="tx-transformed" aria-label="Transformed program" ref={transformed_col}>
                    <div class="tx-col-head">{ format!("transformed ({} domain)", listing.domain) }</div>
                    { for listing.lines.iter().map(|l| {
                        if l.edge.is_none() {
                            return html! { <div class="tx-fn">{ l.location.clone() }</div> };
                        }
                        let current = l.edge.is_some() && l.edge == step.current;
                        let next = l.edge.is_some_and(|e| step.next.contains(&e));
                        let classes = classes!(
                            "tx-line", l.marks.iter().map(|m| format!("tx-line-{}", mark_words(*m).0)).collect::<Vec<_>>(),
                            (link == Some(l.original_line)).then_some("linked"), current.then_some("current"), next.then_some("next"),
                            (l.edge == selected_edge && l.edge.is_some()).then_some("selected"));
                        html! {
                            <div class={classes} data-edge={l.edge_key()} data-line={l.original_line.to_string()}
                                title={format!("{}: from line {} (click: select this edge everywhere)", l.location, l.original_line)}
                                onmouseenter={hover(l.original_line)} onmouseleave={unhover.clone()} onclick={on_pick(l.original_line, l.edge)}>
                                <span class="tx-now">{ if current { "▶" } else if next { "›" } else { "" } }</span>
                                <span class="tx-loc">{ l.location.clone() }</span>
                                <code class="tx-code">{ l.op.clone() }</code>
                                { badges(&l.marks) }
                            </div>
                        }
                    }) }
                </div>
            </div>
            <div class="tx-bottom">
                { state_box(state.as_ref(), &listing.domain) }
                <div class="tx-arg" data-testid="tx-arg" aria-label="State space explored so far">
                    { props.children.clone() }
                </div>
            </div>
        </div>
    }
}
