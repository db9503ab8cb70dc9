//! The Blocks tab of a BAM run (renders [`crate::model::blocks`]): the
//! call tree of blocks entered, each call with its call site, cache hit or
//! miss (a hit marked by colour, the word "hit" and an icon), its reduced
//! entry state and the summary it got; then the cache table. Every state
//! in it is a state link: a click selects it in the reached set and the
//! ARG like every other state line.

use std::collections::BTreeSet;

use engine::trace::StateId;
use yew::prelude::*;

use crate::model::blocks::{BlockPanel, BlockState, CallNode, CounterexampleChecks};
use crate::model::selection::Selection;

/// A state as a selectable chip (its id, then its content, cut to one
/// line; the whole content is its tooltip and the inspector's once
/// selected).
fn state_chip(s: &BlockState, selected: &BTreeSet<StateId>) -> Html {
    let is_selected = matches!(Selection::parse(&s.id), Selection::State(id) if selected.contains(&id));
    html! {
        <span class={classes!("block-state", "selectable", is_selected.then_some("selected"))} data-state={s.id.clone()}
            title={format!("{} {} — click to select this state in every panel", s.id, s.text)}>
            <span class="sid">{ s.id.clone() }</span>{ " " }<span class="stext">{ s.text.clone() }</span>
        </span>
    }
}

/// One call of the tree, indented by its depth.
fn call_node(c: &CallNode, selected: &BTreeSet<StateId>) -> Html {
    let (mark, word, title) = if c.hit {
        ("✔", "hit", "cache hit: the summary of this reduced entry state was reused; the block was not analysed again")
    } else {
        ("●", "miss", "cache miss: a new cache entry; the block was analysed from the reduced entry state")
    };
    let class = classes!(
        "block-call",
        if c.hit { "block-hit" } else { "block-miss" },
        c.open.then_some("block-open"),
        c.latest.then_some("block-latest")
    );
    html! {
        <li class={class} style={format!("--depth: {}", c.depth)} data-testid="block-call" data-block={c.block.clone()}
            data-hit={c.hit.to_string()} data-depth={c.depth.to_string()}>
            <div class="block-head">
                <span class="block-mark" data-testid="block-mark" title={title}>{ format!("{mark} {word}") }</span>{ " " }
                <code class="block-name">{ c.title() }</code>
                <span class="block-site">{ c.site() }</span>
                <span class="block-entry">{ format!(" · entry {}", c.entry) }</span>
                if c.open {
                    <span class="block-open-note">{ " · being analysed" }</span>
                }
                <span class="block-from">{ " · from " }{ state_chip(&c.from, selected) }</span>
            </div>
            <div class="block-line">
                <span class="block-label">{ "reduced entry state " }</span>
                { c.entry_state.as_ref().map(|s| state_chip(s, selected)).unwrap_or_else(|| html! { <span class="hint">{ "(not yet)" }</span> }) }
            </div>
            <div class="block-line">
                <span class="block-label">{ if c.hit { "summary reused " } else { "summary " } }</span>
                { match &c.summary {
                    None => html! { <span class="hint">{ "(the block is being analysed)" }</span> },
                    Some(exits) if exits.is_empty() => html! { <span class="hint">{ if c.is_loop() { "no exit state (the loop is never left here)" } else { "no exit state (the function never returns here)" } }</span> },
                    Some(exits) => html! { <>{ for exits.iter().map(|s| state_chip(s, selected)) }</> },
                } }
            </div>
        </li>
    }
}

/// The order of the checks of the latest error path with their verdicts
/// (shown when there are two: value analysis, then predicate analysis).
pub fn checks_list(checks: &CounterexampleChecks) -> Html {
    if checks.checks.is_empty() {
        return html! {};
    }
    html! {
        <ol class="cex-checks" data-testid="cex-checks">
            { for checks.checks.iter().map(|c| {
                let kind = match c.feasible { Some(false) => "infeasible", Some(true) => "feasible", None => "undecided" };
                html! {
                    <li class={classes!("cex-check", format!("cex-{kind}"))} data-testid="cex-check" title={c.description.clone()}>
                        <span class="cex-check-name">{ c.check.clone() }</span>{ ": " }<b>{ c.verdict.clone() }</b>
                    </li>
                }
            }) }
        </ol>
    }
}

/// The Blocks tab: summary line, call tree, cache table. `onclick`
/// selects the state a chip names (linked selection).
pub fn blocks_panel(panel: &BlockPanel, selected: &BTreeSet<StateId>, onclick: Callback<MouseEvent>) -> Html {
    html! {
        <section class="panel blocks-panel" data-testid="blocks" {onclick}>
            <p class="blocks-summary" data-testid="blocks-summary">{ panel.summary() }</p>
            if let Some(note) = panel.refinement_note() {
                <p class="hint" data-testid="blocks-invalidated">{ note }</p>
            }
            <h4>{ "Calls of blocks (functions; loops under LoopPartitioning), nested by depth" }</h4>
            if panel.calls.is_empty() {
                <p class="hint">{ "No block entered yet in this iteration." }</p>
            }
            <ol class="block-tree" data-testid="block-tree">
                { for panel.calls.iter().map(|c| call_node(c, selected)) }
            </ol>
            <h4>{ "Cache" }</h4>
            <table class="block-cache" data-testid="block-cache">
                <thead><tr><th>{ "entry" }</th><th>{ "block" }</th><th>{ "reduced entry state" }</th><th>{ "exits" }</th><th>{ "hits" }</th></tr></thead>
                <tbody>
                    { for panel.cache.iter().map(|r| html! {
                        <tr data-testid="block-cache-row">
                            <td class="num">
                                { r.entry.to_string() }
                                if r.kept {
                                    { " " }<span class="block-kept" data-testid="block-kept" title="kept from the previous CEGAR iteration: the refinement did not change this block's reduced precision, so its states were re-created, not analysed">{ "kept" }</span>
                                }
                            </td>
                            <td><code>{ r.block.clone() }</code></td>
                            <td>{ r.reduced.as_ref().map(|s| state_chip(s, selected)).unwrap_or_default() }</td>
                            <td class="num">{ r.exits.map_or_else(|| "…".to_string(), |n| n.to_string()) }</td>
                            <td class={classes!("num", (r.hits > 0).then_some("block-hits"))} data-testid="block-cache-hits">{ r.hits.to_string() }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
        </section>
    }
}
