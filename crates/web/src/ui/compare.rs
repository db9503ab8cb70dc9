//! The compare view (Yew): two or three configurations on the program in
//! the editor, run side by side and stepped in sync.
//!
//! A "Compare" button in the top bar opens it over the page. Its panes are
//! labelled with their configurations; a shared slider moves all of them
//! to the same algorithm step; the first step where they behave
//! differently is marked (banner, slider tick, plot marker, pane outline);
//! a heat map shows each configuration's reached states per CFA location;
//! two SVG plots show reached-set size and states created over the steps;
//! a summary table ends it. Everything shown is computed in
//! [`crate::model::compare`]; the runs advance in slices of at most
//! [`crate::model::analysis::SLICE_MS`] so the page never freezes.

use std::cell::RefCell;
use std::rc::Rc;

use gloo_events::{EventListener, EventListenerOptions, EventListenerPhase};
use gloo_timers::future::TimeoutFuture;
use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::model::analysis::SLICE_MS;
use crate::model::analysis::{Panels, Run, RunSpec, PRESETS};
use crate::model::compare::{
    divergence, heat, plot, series, shade, signatures, step_position, step_starts, Divergence, Plot, SummaryRow, DEFAULT_SET,
    PLOT_H, PLOT_PAD, PLOT_PAD_L, PLOT_W,
};
use crate::model::graphs::cfa::CfaGraph;
use crate::model::graphs::layout::Shape;
use crate::platform::clock::now_ms;

/// Line colours of the configurations, by pane.
const COLORS: [&str; 3] = ["#c2410c", "#2958c7", "#1f7a44"];

/// The default step limit of compared runs (merge^sep may not terminate).
const DEFAULT_LIMIT: u64 = 3000;

struct CompareState {
    open: bool,
    /// Chosen configurations; an empty string leaves the third pane out.
    choice: [String; 3],
    max_steps: u64,
    /// The integer model of every compared run: the analysis pane's (or
    /// the opened link's) when the runs start.
    int_model: minic::IntModel,
    runs: Vec<Run>,
    error: Option<String>,
    computing: bool,
    gen: u64,
    /// The shared position: an algorithm step number.
    step: usize,
    /// A share link's step, applied once the runs are computed.
    pending_step: Option<usize>,
}

impl Default for CompareState {
    fn default() -> Self {
        CompareState {
            open: false,
            choice: DEFAULT_SET.map(String::from),
            max_steps: DEFAULT_LIMIT,
            int_model: minic::IntModel::C,
            runs: Vec::new(),
            error: None,
            computing: false,
            gen: 0,
            step: 0,
            pending_step: None,
        }
    }
}

type State = Rc<RefCell<CompareState>>;

fn start(state: &State, redraw: &UseForceUpdateHandle, source: &str) {
    let mut st = state.borrow_mut();
    st.gen += 1;
    st.step = 0;
    st.runs.clear();
    st.error = None;
    let presets: Vec<String> = st.choice.iter().filter(|p| !p.is_empty()).cloned().collect();
    for p in presets {
        match Run::start(source, RunSpec { preset: p, max_steps: st.max_steps, int_model: st.int_model, properties: None }) {
            Ok(run) => st.runs.push(run),
            Err(e) => {
                st.error = Some(e);
                st.runs.clear();
                break;
            }
        }
    }
    st.computing = !st.runs.is_empty();
    let gen = st.gen;
    drop(st);
    if state.borrow().computing {
        let (state, redraw) = (state.clone(), redraw.clone());
        wasm_bindgen_futures::spawn_local(async move { compute(state, redraw, gen).await });
    }
    redraw.force_update();
}

async fn compute(state: State, redraw: UseForceUpdateHandle, gen: u64) {
    loop {
        // One slice; the borrow ends with the block, before any await.
        let (all_done, parked) = {
            let mut st = state.borrow_mut();
            if st.gen != gen {
                return;
            }
            let t0 = now_ms();
            let mut all_done;
            let mut parked = None;
            loop {
                all_done = true;
                for (i, run) in st.runs.iter_mut().enumerate().filter(|(_, r)| !r.finished()) {
                    if run.pending_query().is_none() {
                        all_done &= run.advance(8);
                    } else {
                        all_done = false;
                    }
                    if parked.is_none() {
                        parked = run.pending_query().map(|q| (i, q, run.spec.preset.clone()));
                    }
                }
                // Only runs waiting for Z3 are left, or the slice is over.
                let all_parked = st.runs.iter().all(|r| r.finished() || r.pending_query().is_some());
                if all_done || now_ms() - t0 > SLICE_MS || (all_parked && parked.is_some()) {
                    break;
                }
            }
            if all_done {
                st.computing = false;
                if let Some(k) = st.pending_step.take() {
                    st.step = k;
                }
            }
            (all_done, parked)
        };
        redraw.force_update();
        if all_done {
            return;
        }
        // A symbolic run waits for Z3; the others continue after its answer.
        if let Some((i, (qid, script), preset)) = parked {
            let out = crate::platform::z3::check_logged(&format!("compare ({preset}): query {qid}"), &script, None).await;
            let mut st = state.borrow_mut();
            if st.gen != gen {
                return;
            }
            if let Some(run) = st.runs.get_mut(i) {
                run.answer_query(&out.unwrap_or_else(|_| "unknown".into()));
            }
            continue;
        }
        TimeoutFuture::new(0).await;
    }
}

/// Properties of [`CompareButton`].
#[derive(Properties, PartialEq)]
pub struct CompareProps {
    /// The editor's program text (what is compared).
    pub source: String,
}

/// The top bar's "Compare" button and the compare view it opens.
#[function_component(CompareButton)]
pub fn compare_button(props: &CompareProps) -> Html {
    let state: State = use_mut_ref(CompareState::default);
    let redraw = use_force_update();

    // Opened with a share link that carries a compare set: open and run it.
    {
        let (state, redraw, source) = (state.clone(), redraw.clone(), props.source.clone());
        use_effect_with((), move |_| {
            if let Some((presets, step, model)) = crate::ui::share::take_compare_restore() {
                {
                    let mut st = state.borrow_mut();
                    st.open = true;
                    st.int_model = model;
                    for (i, slot) in st.choice.iter_mut().enumerate() {
                        *slot = presets.get(i).cloned().unwrap_or_default();
                    }
                    st.pending_step = step;
                }
                start(&state, &redraw, &source);
            }
        });
    }

    // While the view is open, ← and → step it (not the analysis pane below):
    // a capturing listener on the window sees the keys first.
    {
        let (state, redraw) = (state.clone(), redraw.clone());
        use_effect_with((), move |_| {
            let options = EventListenerOptions { phase: EventListenerPhase::Capture, passive: false };
            let listener = web_sys::window().map(|w| {
                EventListener::new_with_options(&w, "keydown", options, move |e| {
                    let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else { return };
                    let in_field = e
                        .target()
                        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                        .is_some_and(|el| matches!(el.tag_name().as_str(), "TEXTAREA" | "INPUT" | "SELECT"));
                    let mut st = state.borrow_mut();
                    if !st.open || in_field || e.ctrl_key() || e.alt_key() || e.meta_key() {
                        return;
                    }
                    let max = st.runs.iter().map(|r| r.steps() as usize).max().unwrap_or(0);
                    match e.key().as_str() {
                        "ArrowRight" => st.step = (st.step + 1).min(max),
                        "ArrowLeft" => st.step = st.step.min(max).saturating_sub(1),
                        _ => return,
                    }
                    e.prevent_default();
                    e.stop_immediate_propagation();
                    drop(st);
                    redraw.force_update();
                })
            });
            move || drop(listener)
        });
    }

    let on_open = {
        let (state, redraw, source) = (state.clone(), redraw.clone(), props.source.clone());
        Callback::from(move |_: MouseEvent| {
            let first = {
                let mut st = state.borrow_mut();
                st.open = true;
                if st.runs.is_empty() {
                    st.int_model = crate::ui::share::analysis_now().0.int_model;
                }
                st.runs.is_empty()
            };
            if first {
                start(&state, &redraw, &source);
            } else {
                redraw.force_update();
            }
        })
    };

    let st = state.borrow();
    // What a share link made now carries.
    let shown: Vec<String> = if st.open { st.runs.iter().map(|r| r.spec.preset.clone()).collect() } else { Vec::new() };
    crate::ui::share::note_compare(&shown, st.open.then_some(st.step));

    html! {
        <>
            <button class="compare-open" data-testid="compare-open" onclick={on_open}
                title="Run two or three configurations on this program side by side">{ "Compare" }</button>
            if st.open {
                { view(&state, &st, &redraw, &props.source) }
            }
        </>
    }
}

fn view(state: &State, st: &CompareState, redraw: &UseForceUpdateHandle, source: &str) -> Html {
    let set_step = |f: Rc<dyn Fn(usize, usize) -> usize>| {
        let (state, redraw) = (state.clone(), redraw.clone());
        Callback::from(move |_: MouseEvent| {
            let mut s = state.borrow_mut();
            let max = s.runs.iter().map(|r| r.steps() as usize).max().unwrap_or(0);
            s.step = f(s.step, max).min(max);
            drop(s);
            redraw.force_update();
        })
    };
    let on_close = {
        let (state, redraw) = (state.clone(), redraw.clone());
        Callback::from(move |_: MouseEvent| {
            state.borrow_mut().open = false;
            redraw.force_update();
        })
    };
    let on_choice = |i: usize| {
        let state = state.clone();
        Callback::from(move |e: Event| {
            let sel: HtmlSelectElement = e.target_unchecked_into();
            state.borrow_mut().choice[i] = sel.value();
        })
    };
    let on_limit = {
        let state = state.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            if let Ok(n) = input.value().trim().parse::<u64>() {
                state.borrow_mut().max_steps = n.min(crate::model::share::MAX_STEP_LIMIT);
            }
        })
    };
    let on_run = {
        let (state, redraw, source) = (state.clone(), redraw.clone(), source.to_string());
        Callback::from(move |_: MouseEvent| {
            state.borrow_mut().int_model = crate::ui::share::analysis_now().0.int_model;
            start(&state, &redraw, &source)
        })
    };
    let on_slider = {
        let (state, redraw) = (state.clone(), redraw.clone());
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            if let Ok(k) = input.value().parse::<usize>() {
                state.borrow_mut().step = k;
                redraw.force_update();
            }
        })
    };

    let max_step = st.runs.iter().map(|r| r.steps() as usize).max().unwrap_or(0);
    let step = st.step.min(max_step);
    let sigs: Vec<_> = st.runs.iter().map(|r| signatures(r.cursor.events())).collect();
    let finished: Vec<bool> = st.runs.iter().map(|r| r.finished()).collect();
    let div: Option<Divergence> = divergence(&sigs.iter().map(|s| s.as_slice()).collect::<Vec<_>>(), &finished);
    let on_jump = {
        let (state, redraw, to) = (state.clone(), redraw.clone(), div.as_ref().map(|d| d.step));
        Callback::from(move |_: MouseEvent| {
            if let Some(k) = to {
                state.borrow_mut().step = k;
                redraw.force_update();
            }
        })
    };

    // Each pane at the shared step (a copy of its cursor, seeked).
    let panes: Vec<(String, Panels, bool)> = st
        .runs
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let starts = step_starts(r.cursor.events());
            let pos = step_position(&starts, r.cursor.len(), step);
            let mut c = r.cursor.clone();
            c.seek(pos);
            let marked = div.as_ref().is_some_and(|d| d.step == step && d.differs.get(i).copied().unwrap_or(false));
            (r.spec.preset.clone(), Panels::of(&r.program, &c), marked)
        })
        .collect();
    let heats: Vec<_> = st
        .runs
        .iter()
        .map(|r| {
            let starts = step_starts(r.cursor.events());
            let mut c = r.cursor.clone();
            c.seek(step_position(&starts, r.cursor.len(), step));
            heat(&c)
        })
        .collect();
    let heat_max = heats.iter().flat_map(|h| h.values().copied()).max().unwrap_or(0);
    // Every pane's CFA drawn with its counts (the same program, one layout).
    let graph = st.runs.first().map(|r| CfaGraph::build(&r.program, CfaGraph::fold_by_default(&r.program)));
    let nodes: Vec<u32> = st.runs.first().map(|r| r.program.nodes.iter().map(|n| n.id.0).collect()).unwrap_or_default();
    let all_series: Vec<_> = st.runs.iter().map(|r| series(r.cursor.events())).collect();
    let markers: Vec<usize> = div.iter().map(|d| d.step).chain(std::iter::once(step)).collect();
    let reached_plot = plot(
        &st.runs.iter().zip(&all_series).map(|(r, s)| (r.spec.preset.clone(), s.reached.clone())).collect::<Vec<_>>(),
        &markers,
        300,
    );
    let created_plot = plot(
        &st.runs.iter().zip(&all_series).map(|(r, s)| (r.spec.preset.clone(), s.created.clone())).collect::<Vec<_>>(),
        &markers,
        300,
    );
    let rows: Vec<SummaryRow> = st.runs.iter().map(|r| SummaryRow::of(&r.spec.preset, r.cursor.events())).collect();
    let min_created = rows.iter().filter(|r| r.finished).map(|r| r.created).min();

    let status = if st.computing {
        format!(
            "computing… {}",
            st.runs.iter().map(|r| format!("{} {} steps", r.spec.preset, r.steps())).collect::<Vec<_>>().join(", ")
        )
    } else if let Some(e) = &st.error {
        e.clone()
    } else {
        format!("{} configurations, {} integers, {} steps at most", st.runs.len(), st.int_model.name(), st.max_steps)
    };
    let div_text = match (&div, st.computing) {
        (Some(d), _) => {
            let who: Vec<&str> =
                st.runs.iter().zip(&d.differs).filter(|(_, x)| **x).map(|(r, _)| r.spec.preset.as_str()).collect();
            format!(
                "First divergence at step {}: {} behave{} differently from {}.",
                d.step,
                who.join(", "),
                if who.len() == 1 { "s" } else { "" },
                st.runs[0].spec.preset
            )
        }
        (None, true) => "Looking for the first step where they differ…".to_string(),
        (None, false) => "They behave the same at every step.".to_string(),
    };

    html! {
        <div class="compare-overlay" data-testid="compare-view" role="dialog" aria-label="Compare configurations">
            <div class="compare-head">
                <h2>{ "Compare configurations" }</h2>
                { for (0..3).map(|i| html! {
                    <select data-testid={format!("compare-preset-{i}")} onchange={on_choice(i)}>
                        if i == 2 { <option value="" selected={st.choice[2].is_empty()}>{ "(none)" }</option> }
                        { for PRESETS.iter().map(|(name, what)| html! {
                            <option value={*name} selected={st.choice[i] == *name} title={*what}>{ *name }</option>
                        }) }
                    </select>
                }) }
                <label title="limits.steps of each run">{ "Step limit " }
                    <input data-testid="compare-limit" type="number" min="0" step="100" value={st.max_steps.to_string()} onchange={on_limit} />
                </label>
                <button class="primary" data-testid="compare-run" onclick={on_run} disabled={st.computing}>{ "Run on this program" }</button>
                <span class="compare-status" data-testid="compare-status">{ status }</span>
                <button class="compare-close" data-testid="compare-close" onclick={on_close} aria-label="Close the compare view">{ "× Close" }</button>
            </div>
            <div class="compare-controls">
                <button data-testid="compare-start" onclick={set_step(Rc::new(|_, _| 0))}>{ "◀◀" }</button>
                <button data-testid="compare-back" onclick={set_step(Rc::new(|k, _| k.saturating_sub(1)))}>{ "◀ Step back" }</button>
                <button data-testid="compare-step-fwd" onclick={set_step(Rc::new(|k, _| k + 1))}>{ "Step ▶" }</button>
                <button data-testid="compare-end" onclick={set_step(Rc::new(|_, m| m))}>{ "▶▶" }</button>
                <div class="compare-slider">
                    <input data-testid="compare-step" type="range" min="0" max={max_step.to_string()} value={step.to_string()} oninput={on_slider} />
                    if let (Some(d), true) = (&div, max_step > 0) {
                        <span class="divergence-tick" title={format!("first divergence: step {}", d.step)}
                            style={format!("left: {:.2}%", 100.0 * d.step as f64 / max_step as f64)}></span>
                    }
                </div>
                <span class="position" data-testid="compare-position">{ format!("step {step} of {max_step}") }</span>
            </div>
            <p class={classes!("compare-divergence", div.as_ref().map(|d| if d.step == step { "here" } else { "elsewhere" }))} data-testid="compare-divergence">
                <span>{ div_text }</span>
                if div.is_some() {
                    <button data-testid="compare-jump-divergence" onclick={on_jump}>{ "Go to it" }</button>
                }
            </p>
            <div class="compare-panes" style={format!("grid-template-columns: repeat({}, minmax(0, 1fr))", panes.len().max(1))}>
                { for panes.iter().enumerate().map(|(i, (preset, p, marked))| html! {
                    <section class={classes!("compare-pane", marked.then_some("diverges"))} data-testid="compare-pane" data-preset={preset.clone()}
                        style={format!("--pane-color: {}", COLORS[i % 3])}>
                        <h3><span class="swatch"></span>{ preset.clone() }</h3>
                        if *marked { <p class="diverges-here">{ "diverges here" }</p> }
                        <div class="step-text" data-testid="compare-step-text">{ if p.step_text.is_empty() { "(before the first step)".to_string() } else { p.step_text.clone() } }</div>
                        <p class="stats">{ p.stats.clone() }</p>
                        if let Some(g) = &graph {
                            { heat_cfa(g, &heats[i], heat_max) }
                        }
                        if let Some(v) = &p.verdict {
                            <p class={classes!("verdict", format!("verdict-{}", v.split(' ').next().unwrap_or("").to_lowercase()))}>{ v.clone() }</p>
                        }
                    </section>
                }) }
            </div>
            <div class="compare-lower">
                <section class="compare-heat" data-testid="compare-heat">
                    <h3>{ "Reached states per location (heat map)" }</h3>
                    <table>
                        <thead><tr><th></th>{ for nodes.iter().map(|n| html! { <th>{ format!("N{n}") }</th> }) }</tr></thead>
                        <tbody>
                            { for heats.iter().zip(&st.runs).map(|(h, r)| html! {
                                <tr data-preset={r.spec.preset.clone()}>
                                    <th>{ r.spec.preset.clone() }</th>
                                    { for nodes.iter().map(|n| {
                                        let c = h.get(n).copied().unwrap_or(0);
                                        let a = shade(c, heat_max);
                                        let style = format!("background: rgba(194, 65, 12, {:.3}); color: {}", a * 0.85, if a > 0.55 { "#fff" } else { "inherit" });
                                        html! { <td style={style} title={format!("N{n}: {c} reached state(s)")}>{ if c == 0 { String::new() } else { c.to_string() } }</td> }
                                    }) }
                                </tr>
                            }) }
                        </tbody>
                    </table>
                </section>
                <section class="compare-plots">
                    { svg_plot("Reached-set size over the steps", "compare-plot-reached", &reached_plot) }
                    { svg_plot("States created over the steps", "compare-plot-created", &created_plot) }
                </section>
            </div>
            <section class="compare-summary">
                <h3>{ "Summary" }</h3>
                <table data-testid="compare-summary">
                    <thead><tr>
                        <th>{ "configuration" }</th><th>{ "terminates?" }</th><th>{ "verdict" }</th>
                        <th>{ "reached" }</th><th>{ "created" }</th><th>{ "steps" }</th><th>{ "refinements" }</th>
                    </tr></thead>
                    <tbody>
                        { for rows.iter().enumerate().map(|(i, r)| html! {
                            <tr data-preset={r.preset.clone()}>
                                <td><span class="swatch" style={format!("background: {}", COLORS[i % 3])}></span>{ r.preset.clone() }</td>
                                <td>{ if !r.finished { "…" } else if r.terminates { "yes" } else { "no (limit)" } }</td>
                                <td class={format!("verdict-{}", r.verdict.to_lowercase())}>{ r.verdict.clone() }</td>
                                <td>{ r.reached }</td>
                                <td class={classes!((Some(r.created) == min_created && r.finished).then_some("best"))}>{ r.created }</td>
                                <td>{ r.steps }</td>
                                <td>{ r.refinements }</td>
                            </tr>
                        }) }
                    </tbody>
                </table>
            </section>
        </div>
    }
}

/// The CFA with each node shaded by its reached-state count (a heat map on
/// the CFA; counts of a folded chain are summed).
fn heat_cfa(g: &CfaGraph, counts: &std::collections::BTreeMap<u32, usize>, max: usize) -> Html {
    // Crop to the nodes (edge labels are not drawn here), with room for the
    // loops' back edges on the sides.
    let pad = 24.0;
    let x0 = g.nodes.iter().map(|n| n.center.x - n.width / 2.0).fold(f64::INFINITY, f64::min).min(g.width) - pad;
    let x1 = g.nodes.iter().map(|n| n.center.x + n.width / 2.0).fold(f64::NEG_INFINITY, f64::max).max(0.0) + pad;
    let (x0, x1) = if x0.is_finite() && x1 > x0 { (x0, x1) } else { (0.0, g.width) };
    html! {
        <svg class="heat-cfa" data-testid="compare-heat-cfa" overflow="visible"
            viewBox={format!("{x0:.0} {:.0} {:.0} {:.0}", -6.0, x1 - x0, g.height + 12.0)}
            role="img" aria-label="reached states per CFA location">
            { for g.edges.iter().map(|e| html! {
                <path d={e.path.clone()} class={classes!("heat-edge", e.back.then_some("back"))} fill="none" />
            }) }
            { for g.nodes.iter().map(|n| {
                let c: usize = n.cfa_nodes.iter().map(|id| counts.get(&id.0).copied().unwrap_or(0)).sum();
                let a = shade(c, max);
                let fill = if c == 0 { "#ffffff".to_string() } else { format!("rgba(194, 65, 12, {:.3})", 0.15 + 0.8 * a) };
                let text_fill = if a > 0.5 { "#fff" } else { "#1d2330" };
                let (x, y) = (n.center.x, n.center.y);
                html! {
                    <g>
                        <title>{ format!("{}: {c} reached state(s)", n.title) }</title>
                        if n.shape == Shape::Circle {
                            <circle cx={format!("{x:.1}")} cy={format!("{y:.1}")} r={format!("{:.1}", (n.width / 2.0).max(17.0))} fill={fill} class="heat-node" />
                        } else {
                            <rect x={format!("{:.1}", x - n.width / 2.0)} y={format!("{:.1}", y - n.height / 2.0)} width={format!("{:.1}", n.width)}
                                height={format!("{:.1}", n.height)} rx="4" fill={fill} class="heat-node" />
                        }
                        <text x={format!("{x:.1}")} y={format!("{:.1}", y + 5.0)} text-anchor="middle" class="heat-count" fill={text_fill}>
                            { if c == 0 { n.title.clone() } else { c.to_string() } }
                        </text>
                    </g>
                }
            }) }
        </svg>
    }
}

fn svg_plot(title: &str, testid: &str, p: &Plot) -> Html {
    let (x0, x1, y0, y1) = (PLOT_PAD_L, PLOT_W - PLOT_PAD, PLOT_PAD, PLOT_H - PLOT_PAD);
    html! {
        <figure class="plot" data-testid={testid.to_string()}>
            <figcaption>{ title }</figcaption>
            <svg viewBox={format!("0 0 {PLOT_W} {}", PLOT_H + 14.0)} role="img" aria-label={title.to_string()}>
                <line class="axis" x1={x0.to_string()} y1={y1.to_string()} x2={x1.to_string()} y2={y1.to_string()} />
                <line class="axis" x1={x0.to_string()} y1={y0.to_string()} x2={x0.to_string()} y2={y1.to_string()} />
                <text class="tick" x={(x0 - 4.0).to_string()} y={(y0 + 4.0).to_string()} text-anchor="end">{ p.y_max }</text>
                <text class="tick" x={(x0 - 4.0).to_string()} y={y1.to_string()} text-anchor="end">{ "0" }</text>
                <text class="tick" x={x0.to_string()} y={(y1 + 12.0).to_string()} text-anchor="start">{ "step 0" }</text>
                <text class="tick" x={x1.to_string()} y={(y1 + 12.0).to_string()} text-anchor="end">{ format!("step {}", p.x_max) }</text>
                { for p.markers.iter().enumerate().map(|(i, x)| {
                    // The divergence marker comes first (when there is one), the cursor last.
                    let class = if i + 1 == p.markers.len() { "cursor" } else { "divergence" };
                    html! { <line class={class} x1={format!("{x:.1}")} y1={y0.to_string()} x2={format!("{x:.1}")} y2={y1.to_string()} /> }
                }) }
                { for p.lines.iter().enumerate().map(|(i, l)| {
                    // Label a line at its end: left of it in the right half, right of it otherwise.
                    let right_half = l.end.0 > (x0 + x1) / 2.0;
                    let (lx, anchor) = if right_half { (l.end.0 - 2.0, "end") } else { (l.end.0 + 4.0, "start") };
                    html! {
                        <g>
                            <polyline points={l.points.clone()} fill="none" stroke={COLORS[i % 3]} stroke-width="1.8" />
                            <text class="end-label" x={format!("{lx:.1}")} y={format!("{:.1}", (l.end.1 - 4.0 - 9.0 * i as f64).max(9.0))}
                                text-anchor={anchor} fill={COLORS[i % 3]}>{ format!("{} {}", l.label, l.last) }</text>
                        </g>
                    }
                }) }
            </svg>
        </figure>
    }
}
