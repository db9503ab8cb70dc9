//! The state inspector (Yew): one abstract state in full — its values, its
//! octagon as inequalities, as a DBM table and as a 2-D plot of two chosen
//! variables. What is shown is computed by [`crate::model::state_view`] and
//! [`crate::model::octagon_plot`]; this only draws it.
//!
//! Which state: the one chosen in the inspector's list, else the state
//! selected in the linked panels, else the state the shown event is about.
//! A merge result is shown as a merge card first
//! ([`crate::model::merge_card`]): both inputs and the result, their
//! octagons overlaid in one plot.

use engine::trace::StateId;
use yew::prelude::*;

use crate::model::merge_card::{summary, MergeCard, ShownMerge};
use crate::model::octagon_plot::{plot, points_attr, Overlay, Plot};
use crate::model::selection::Selection;
use crate::model::state_view::{axes, DbmTable, Part, PredicatePart, StateDetail, SymExecPart};
use crate::ui::selection::use_selection;

/// Properties of [`StateInspector`].
#[derive(Properties, PartialEq)]
pub struct StateInspectorProps {
    /// States offered in the chooser: `(id, "s12 @N5")`.
    pub choices: Vec<(StateId, String)>,
    /// The state shown when nothing is chosen or selected.
    pub auto: Option<StateId>,
    /// Looks a state up at the shown position.
    pub resolve: Callback<StateId, Option<StateDetail>>,
    /// The merge the shown event is, if it is one (its result is shown as
    /// a merge card also when the merge changed nothing).
    #[prop_or_default]
    pub shown_merge: Option<ShownMerge>,
}

/// The inspector panel.
#[function_component(StateInspector)]
pub fn state_inspector(props: &StateInspectorProps) -> Html {
    let chosen = use_state(|| None::<StateId>);
    let axes_choice = use_state(|| (String::new(), String::new()));
    let linked = use_selection();

    let selected = match linked.selection {
        Selection::State(s) => Some(s),
        _ => None,
    };
    // Selecting a state in another panel takes over from the list's choice.
    {
        let chosen = chosen.clone();
        use_effect_with(selected, move |s| {
            if s.is_some() {
                chosen.set(None);
            }
        });
    }
    let target = (*chosen).or(selected).or(props.auto);
    let detail = target.and_then(|s| props.resolve.emit(s));

    let on_choose = {
        let chosen = chosen.clone();
        Callback::from(move |e: Event| {
            let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
            let v = sel.value();
            chosen.set(v.strip_prefix('s').and_then(|n| n.parse().ok()).map(StateId));
        })
    };
    // The chooser's states change at nearly every step (they follow the
    // shown state's location), and rewriting ~40 option texts was a large
    // part of a step's DOM work. So the options are in the document only
    // while the student is at the list: from a pointer over it or its focus
    // (both come before it opens) until both have left it.
    let armed = use_state(|| false);
    fn arm<E: 'static>(armed: &UseStateHandle<bool>, on: bool) -> Callback<E> {
        let armed = armed.clone();
        Callback::from(move |_: E| {
            if *armed != on {
                armed.set(on);
            }
        })
    }
    // The pointer leaving disarms unless the list has the focus.
    let on_leave = {
        let armed = armed.clone();
        Callback::from(move |e: PointerEvent| {
            let focused = web_sys::window().and_then(|w| w.document()).and_then(|d| d.active_element());
            let this: Option<web_sys::Element> = e.target_dyn_into();
            if *armed && this != focused {
                armed.set(false);
            }
        })
    };
    let chooser = html! {
        <label class="insp-choose">{ "State " }
            <select data-testid="inspect-state" data-options={if *armed { "all" } else { "chosen" }} onchange={on_choose}
                onpointerenter={arm(&armed, true)} onfocus={arm(&armed, true)} onpointerdown={arm(&armed, true)} onpointerleave={on_leave} onblur={arm(&armed, false)}>
                // A fixed text: the state's id is in the heading below, and a
                // text changing at every step made the list measure again.
                <option value="" selected={chosen.is_none()}>
                    { if selected.is_some() { "the selected state" } else { "the shown step's state" } }
                </option>
                // A state chosen earlier stays in the list while it is shown.
                if let Some(c) = (*chosen).filter(|c| !props.choices.iter().any(|(id, _)| id == c)) {
                    <option value={c.to_string()} selected=true>{ c.to_string() }</option>
                }
                if *armed {
                    { for props.choices.iter().map(|(id, label)| html! {
                        <option value={id.to_string()} selected={*chosen == Some(*id)}>{ label.clone() }</option>
                    }) }
                } else if let Some((c, label)) = props.choices.iter().find(|(id, _)| *chosen == Some(*id)) {
                    <option value={c.to_string()} selected=true>{ label.clone() }</option>
                }
            </select>
        </label>
    };

    let body = match &detail {
        None => html! { <p class="hint">{ "No state to show at this event." }</p> },
        Some(d) => {
            let axes_choice = axes_choice.clone();
            let card = MergeCard::of(d, props.shown_merge, |id| props.resolve.emit(id));
            html! {
                <>
                    if let Some(card) = &card { { merge_card(card, &axes_choice) } }
                    { detail_body(d, &axes_choice) }
                </>
            }
        }
    };

    html! {
        <section class="panel inspector" data-testid="inspector">
            <h3>{ "State" }{ chooser }</h3>
            { body }
        </section>
    }
}

/// A state in full: its id, location, call stack and status, then each
/// component's part.
fn detail_body(d: &StateDetail, axes_choice: &UseStateHandle<(String, String)>) -> Html {
    html! {
        <>
            <p class="insp-head">
                <span class="sid">{ d.id.clone() }</span>
                if !d.location.is_empty() { { " @" }{ d.location.clone() } }
                if !d.callstack.is_empty() { <span class="insp-stack">{ format!(" [calls {}]", d.callstack.join(" ")) }</span> }
                <span class="insp-status">{ format!(" — {}", d.status) }</span>
            </p>
            { for d.parts.iter().map(|p| part(p, axes_choice)) }
        </>
    }
}

/// Properties of [`StateCard`].
#[derive(Properties, PartialEq)]
pub struct StateCardProps {
    /// The state, readable.
    pub detail: StateDetail,
}

/// One state in full outside the state panel (a compare pane's inspected
/// state), with its own choice of plot axes.
#[function_component(StateCard)]
pub fn state_card(props: &StateCardProps) -> Html {
    let axes_choice = use_state(|| (String::new(), String::new()));
    html! {
        <div class="state-card" data-testid="state-card">{ detail_body(&props.detail, &axes_choice) }</div>
    }
}

/// A predicate-analysis state: ψ, φ one conjunct per line, whether it is
/// an abstraction state and how long its block is; for an abstraction
/// state the predicates and how ψ was computed.
fn predicate_part(p: &PredicatePart) -> Html {
    let kind = if p.abstraction_state {
        format!(
            "abstraction state (a block end: ψ computed here, φ starts again from true; the block had {} edge{})",
            p.block_length,
            if p.block_length == 1 { "" } else { "s" }
        )
    } else {
        format!("not an abstraction state: {} edge{} into the block", p.block_length, if p.block_length == 1 { "" } else { "s" })
    };
    html! {
        <div class="insp-predicate" data-testid="inspect-predicate">
            <p class="insp-abs-kind" data-testid="inspect-abs-kind">{ kind }</p>
            <div class="insp-sub">{ "ψ — abstraction formula (over the predicates)" }</div>
            <p class="insp-formula" data-testid="inspect-psi">{ p.abstraction.clone() }</p>
            <div class="insp-sub">{ "φ — path formula since the block start (SSA)" }</div>
            if p.path.is_empty() {
                <p class="insp-formula" data-testid="inspect-phi">{ "true" }</p>
            } else {
                <ul class="insp-constraints" data-testid="inspect-phi">{ for p.path.iter().map(|c| html! { <li>{ c.clone() }</li> }) }</ul>
            }
            { crate::ui::memory_view::memory_cells(p) }
            if p.abstraction_state {
                <div class="insp-sub">{ "Predicates the abstraction used" }</div>
                if p.predicates.is_empty() {
                    <p class="insp-formula">{ "none (so ψ can only be true or false)" }</p>
                } else {
                    <ul class="insp-constraints" data-testid="inspect-predicates">{ for p.predicates.iter().map(|c| html! { <li>{ c.clone() }</li> }) }</ul>
                }
                if let Some(t) = p.computed_text() {
                    <p class="insp-abs-result" data-testid="inspect-abs-result">{ t }</p>
                }
            }
        </div>
    }
}

/// A symbolic-execution state: the symbolic memory, the path condition
/// one conjunct per line, the history; at an abstraction point what it
/// added (eq and simple).
fn symexec_part(p: &SymExecPart) -> Html {
    let list = |testid: &'static str, items: &[String]| {
        if items.is_empty() {
            html! { <p class="insp-formula" data-testid={testid}>{ "true" }</p> }
        } else {
            html! { <ul class="insp-constraints" data-testid={testid}>{ for items.iter().map(|c| html! { <li>{ c.clone() }</li> }) }</ul> }
        }
    };
    html! {
        <div class="insp-symexec" data-testid="inspect-symexec">
            if p.abstraction_point {
                <p class="insp-abs-kind" data-testid="inspect-point-kind">{ p.point_text().unwrap_or_else(|| "abstraction point (memory abstracted)".into()) }</p>
            }
            <div class="insp-sub">{ format!("Symbolic memory (depth {} in the tree)", p.depth) }</div>
            if p.memory.is_empty() {
                <p class="insp-values">{ "nothing assigned yet" }</p>
            } else {
                <table class="insp-values" data-testid="inspect-memory">
                    { for p.memory.iter().map(|(n, v)| html! { <tr><td class="vname">{ n.clone() }</td><td class="vval">{ v.clone() }</td></tr> }) }
                </table>
            }
            <div class="insp-sub">{ "Path condition" }</div>
            { list("inspect-pc", &p.path_condition) }
            <div class="insp-sub">{ "History (visits per abstraction location on this path)" }</div>
            <p class="insp-formula" data-testid="inspect-history">{ p.history_text() }</p>
            if let Some(point) = &p.point {
                <div class="insp-sub">{ "eq(P, m, m_A) — agrees with the old memory on the predicates" }</div>
                { list("inspect-eq", &point.eq) }
                <div class="insp-sub">{ "simple(P, l, m_A, h) — differs from each earlier abstraction here" }</div>
                { list("inspect-simple", &point.simple) }
            }
        </div>
    }
}

/// One part of the state (values, symbolic memory, constraints, a CPA's
/// text, or an octagon with its plot and DBM).
fn part(p: &Part, axes_choice: &UseStateHandle<(String, String)>) -> Html {
    match p {
        Part::Values(values) if values.is_empty() => html! { <p class="insp-values">{ "values: ⊤ (nothing known)" }</p> },
        Part::Values(values) => html! {
            <>
                <div class="insp-sub">{ "Values (all other variables: ⊤)" }</div>
                <table class="insp-values" data-testid="inspect-values">
                    { for values.iter().map(|(n, v)| html! { <tr><td class="vname">{ n.clone() }</td><td class="vval">{ v.clone() }</td></tr> }) }
                </table>
            </>
        },
        Part::Symbolic(values) => html! {
            <>
                <div class="insp-sub">{ "Symbolic memory" }</div>
                if values.is_empty() {
                    <p class="insp-values">{ "nothing known" }</p>
                } else {
                    <table class="insp-values" data-testid="inspect-symbolic">
                        { for values.iter().map(|(n, v)| html! { <tr><td class="vname">{ n.clone() }</td><td class="vval">{ v.clone() }</td></tr> }) }
                    </table>
                }
            </>
        },
        Part::Constraints(cs) => html! {
            <ul class="insp-constraints">{ for cs.iter().map(|c| html! { <li>{ c.clone() }</li> }) }</ul>
        },
        Part::Predicate(p) => predicate_part(p),
        Part::SymExec(p) => symexec_part(p),
        Part::Text(cpa, text) => {
            html! { <p class="insp-text"><span class="insp-cpa">{ format!("{cpa}: ") }</span>{ text.clone() }</p> }
        }
        Part::Octagon { constraints, dbm, vars, bottom, view } => {
            let (ax, ay) = &**axes_choice;
            let chosen_axes = axes(vars, ax, ay);
            let plot_html = match chosen_axes.as_ref().and_then(|(x, y)| plot(view, x, y)) {
                Some(p) => plot_svg(&p),
                None if *bottom => html! { <p class="hint">{ "⊥: the octagon is empty, nothing to plot." }</p> },
                None => html! { <p class="hint">{ "A plot needs two constrained variables." }</p> },
            };
            let chooser = chosen_axes.map(|(x, y)| {
                let pick = |is_x: bool| {
                    let axes_choice = axes_choice.clone();
                    let (x, y) = (x.clone(), y.clone());
                    Callback::from(move |e: Event| {
                        let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
                        let v = sel.value();
                        axes_choice.set(if is_x { (v, y.clone()) } else { (x.clone(), v) });
                    })
                };
                html! {
                    <div class="insp-axes">
                        { axis_select("x: ", "plot-x", vars, &x, pick(true)) }
                        { axis_select("y: ", "plot-y", vars, &y, pick(false)) }
                    </div>
                }
            });
            html! {
                <div class="insp-octagon">
                    <div class="insp-sub">{ "Octagon constraints" }</div>
                    <ul class="insp-constraints" data-testid="inspect-constraints">
                        if *bottom {
                            <li>{ "⊥ (false)" }</li>
                        } else if constraints.is_empty() {
                            <li>{ "⊤ (no constraint)" }</li>
                        } else {
                            { for constraints.iter().map(|c| html! { <li>{ c.clone() }</li> }) }
                        }
                    </ul>
                    <div class="insp-sub">{ "2-D projection" }</div>
                    { for chooser }
                    { plot_html }
                    <details class="insp-dbm" open=true>
                        <summary>{ "DBM (closed)" }</summary>
                        { dbm_table(dbm) }
                    </details>
                </div>
            }
        }
    }
}

/// A merge as one card: the merge in words, one column per state (new,
/// reached, result) with what it knows, and their octagons overlaid on the
/// plot's axes (the ones chosen for the result below).
fn merge_card(card: &MergeCard, axes_choice: &UseStateHandle<(String, String)>) -> Html {
    let (ax, ay) = &**axes_choice;
    let overlay = axes(&card.vars, ax, ay).and_then(|(x, y)| card.plot(&x, &y));
    html! {
        <div class={classes!("merge-card", card.changed.then_some("changed"))} data-testid="merge-card">
            <div class="insp-sub">{ "Merge" }</div>
            <p class="merge-heading" data-testid="merge-heading">{ card.heading.clone() }</p>
            <div class="merge-columns">
                { for card.columns().into_iter().map(|(words, role, d)| html! {
                    <div class={classes!("merge-col", role)} data-testid="merge-input" data-role={role} data-state={d.id.clone()}>
                        <div class="merge-role"><span class="swatch"></span>{ words }</div>
                        <div class="merge-sid">{ d.id.clone() }{ if d.location.is_empty() { String::new() } else { format!(" @{}", d.location) } }</div>
                        <ul class="merge-lines">{ for summary(d).into_iter().map(|l| html! { <li>{ l }</li> }) }</ul>
                    </div>
                }) }
            </div>
            if let Some(o) = overlay { { overlay_svg(&o) } }
        </div>
    }
}

/// The merge's octagons in one plot: one polygon per state, in the
/// columns' colours (new, reached, result).
fn overlay_svg(o: &Overlay) -> Html {
    let [w, h] = o.size;
    let f = |v: f64| format!("{v:.1}");
    let roles = ["new", "reached", "result"];
    html! {
        <figure class="octagon-plot merge-plot" data-testid="merge-plot">
            <svg viewBox={format!("0 0 {w} {h}")} width={f(w)} height={f(h)} role="img"
                 aria-label={format!("the merge's octagons projected on {} and {}", o.x, o.y)}>
                { plot_frame(o.size, o.area, (&o.x_ticks, &o.y_ticks), (&o.x, &o.y)) }
                { for o.layers.iter().zip(roles).filter(|(l, _)| !l.points.is_empty()).map(|(l, role)| html! {
                    <g class={classes!("merge-shape", role)} data-testid="merge-shape" data-role={role}>
                        if let [p] = l.points[..] {
                            // A single point (every variable exact): a dot.
                            <circle class="point" cx={f(p[0])} cy={f(p[1])} r="4"><title>{ l.name.clone() }</title></circle>
                        } else {
                            <polygon points={points_attr(&l.points)}><title>{ l.name.clone() }</title></polygon>
                        }
                        { for l.sides.iter().map(|s| html! {
                            <line class={if s.open { "side open" } else { "side" }}
                                  x1={f(s.from[0])} y1={f(s.from[1])} x2={f(s.to[0])} y2={f(s.to[1])} />
                        }) }
                    </g>
                }) }
            </svg>
            <figcaption>
                { for o.layers.iter().zip(roles).map(|(l, role)| html! {
                    <span class={classes!("merge-key", role)}><span class="swatch"></span>{ l.name.clone() }</span>
                }) }
                { " — dotted: open sides (unbounded)" }
            </figcaption>
        </figure>
    }
}

/// The chooser of one axis of the octagon's plot: one option per
/// constrained variable, `chosen` selected.
fn axis_select(words: &'static str, testid: &'static str, vars: &[String], chosen: &str, onchange: Callback<Event>) -> Html {
    html! {
        <label>{ words }
            <select data-testid={testid} {onchange}>
                { for vars.iter().map(|v| html! { <option value={v.clone()} selected={v == chosen}>{ v.clone() }</option> }) }
            </select>
        </label>
    }
}

/// The octagon's closed difference-bound matrix as a table (∞ cells and
/// the diagonal marked).
fn dbm_table(dbm: &DbmTable) -> Html {
    if dbm.labels.is_empty() {
        return html! { <p class="hint">{ "No variable is constrained." }</p> };
    }
    html! {
        <div class="dbm-wrap">
            <table class="dbm" data-testid="dbm" title="row i, column j: labels[j] − labels[i] ≤ cell">
                <thead><tr><th class="dbm-corner">{ "j − i ≤" }</th>{ for dbm.labels.iter().map(|l| html! { <th>{ l.clone() }</th> }) }</tr></thead>
                <tbody>
                    { for dbm.rows.iter().zip(&dbm.labels).enumerate().map(|(i, (row, label))| html! {
                        <tr>
                            <th>{ label.clone() }</th>
                            { for row.iter().enumerate().map(|(j, c)| {
                                let class = classes!(
                                    (i == j).then_some("diag"),
                                    (c == "∞").then_some("inf"),
                                );
                                html! { <td class={class}>{ c.clone() }</td> }
                            }) }
                        </tr>
                    }) }
                </tbody>
            </table>
        </div>
    }
}

/// The octagon projected on two variables, as an SVG figure: the area,
/// ticks, the interval box, the polygon and its open sides.
fn plot_svg(p: &Plot) -> Html {
    let [w, h] = p.size;
    let f = |v: f64| format!("{v:.1}");
    let title = if p.vertices.is_empty() {
        "empty".to_string()
    } else {
        p.vertices.iter().map(|v| format!("({}, {})", v[0], v[1])).collect::<Vec<_>>().join(" ")
    };
    html! {
        <figure class="octagon-plot" data-testid="octagon-plot">
            <svg viewBox={format!("0 0 {w} {h}")} width={f(w)} height={f(h)} role="img"
                 aria-label={format!("octagon projected on {} and {}", p.x, p.y)}>
                { plot_frame(p.size, p.area, (&p.x_ticks, &p.y_ticks), (&p.x, &p.y)) }
                if let Some([bl, bt, br, bb]) = p.interval_box {
                    // The interval box: only its bounded sides are drawn.
                    <g class="interval-box" data-testid="interval-box">
                        { for [(bl, bt, bl, bb), (bl, bt, br, bt), (br, bt, br, bb), (bl, bb, br, bb)]
                            .into_iter()
                            .zip(p.box_bounded)
                            .filter(|(_, bounded)| *bounded)
                            .map(|((x1, y1, x2, y2), _)| html! { <line x1={f(x1)} y1={f(y1)} x2={f(x2)} y2={f(y2)} /> }) }
                    </g>
                }
                if !p.points.is_empty() {
                    <polygon class="octagon" data-testid="octagon-polygon" points={points_attr(&p.points)}>
                        <title>{ title }</title>
                    </polygon>
                    { for p.sides.iter().map(|s| html! {
                        <line class={if s.open { "side open" } else { "side" }}
                              x1={f(s.from[0])} y1={f(s.from[1])} x2={f(s.to[0])} y2={f(s.to[1])} />
                    }) }
                }
            </svg>
            <figcaption>{ p.box_text.clone() }{ " — dashed: the interval box; dotted: open sides (unbounded)" }</figcaption>
        </figure>
    }
}

/// The states the inspector's chooser offers (computed in [`crate::model::state_view`]).
pub use crate::model::state_view::choices;

/// A plot's frame: the plotting area `[left, top, right, bottom]` of an
/// SVG of `size`, a grid line and a label at every tick of both axes, and
/// the axes' variable names.
fn plot_frame(
    size: [f64; 2],
    area: [f64; 4],
    (x_ticks, y_ticks): (&[crate::model::octagon_plot::Tick], &[crate::model::octagon_plot::Tick]),
    (x, y): (&str, &str),
) -> Html {
    let [_, h] = size;
    let [left, top, right, bottom] = area;
    let f = |v: f64| format!("{v:.1}");
    html! {
        <>
            <rect class="plot-area" x={f(left)} y={f(top)} width={f(right - left)} height={f(bottom - top)} />
            { for x_ticks.iter().map(|t| html! {
                <g class="tick">
                    <line class="grid" x1={f(t.at)} x2={f(t.at)} y1={f(top)} y2={f(bottom)} />
                    <text x={f(t.at)} y={f(bottom + 14.0)} text-anchor="middle">{ t.label.clone() }</text>
                </g>
            }) }
            { for y_ticks.iter().map(|t| html! {
                <g class="tick">
                    <line class="grid" x1={f(left)} x2={f(right)} y1={f(t.at)} y2={f(t.at)} />
                    <text x={f(left - 4.0)} y={f(t.at + 4.0)} text-anchor="end">{ t.label.clone() }</text>
                </g>
            }) }
            <text class="axis-label" x={f(right)} y={f(h - 2.0)} text-anchor="end">{ x.to_string() }</text>
            <text class="axis-label" x={f(left + 4.0)} y={f(top + 10.0)}>{ y.to_string() }</text>
        </>
    }
}
