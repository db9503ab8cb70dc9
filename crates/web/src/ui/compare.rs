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
//! [`crate::model::compare`], and the view's state changes only through
//! [`CompareView::reduce`]; the runs are computed in the analysis engine's
//! Web Worker ([`crate::ui::run::drive_in_worker`]), each on its own, so
//! the page never freezes and a run waiting for Z3 never pauses the others.

use std::cell::RefCell;
use std::rc::Rc;

use gloo_events::{EventListener, EventListenerOptions, EventListenerPhase};
use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use engine::trace::StateId;

use crate::model::analysis::{Panels, PRESETS};
use crate::model::compare::{
    divergence, heat, plot, series, shade, signatures, step_position, step_starts, CompareAction, CompareEffect, CompareView,
    Divergence, Plot, StepMove, SummaryRow, PLOT_H, PLOT_PAD, PLOT_PAD_L, PLOT_W,
};
use crate::model::graphs::cfa::CfaGraph;
use crate::model::graphs::layout::Shape;
use crate::model::page::Marker;
use crate::model::state_view::{detail, StateDetail};
use crate::ui::inspector::StateCard;
use crate::ui::run::{drive_in_worker, CancelFlag};

/// Line colours of the configurations, by pane.
const COLORS: [&str; 3] = ["#c2410c", "#2958c7", "#1f7a44"];

/// The view's state and its computing task, as the callbacks hold them.
#[derive(Clone)]
struct View {
    /// The view's state, changed only by [`View::dispatch`]. A shared cell
    /// rather than `use_reducer`: the runs cannot be cloned, and the
    /// computing task folds the engine worker's events into them in place.
    state: Rc<RefCell<CompareView>>,
    redraw: UseForceUpdateHandle,
    /// The computing task's cancel flag (a task handle, not rendered).
    computing: Rc<RefCell<CancelFlag>>,
    /// The playground's share-link handle: the view reports its set there
    /// and reads the analysis pane's integer model from it.
    links: crate::ui::share::ShareLinks,
}

impl View {
    /// Reduces `action` and does what it asks of the page; `redraw`: and
    /// renders the view again (not for a chooser's change, as before a
    /// run nothing shown depends on it).
    fn apply(&self, action: CompareAction, redraw: bool) {
        let effect = self.state.borrow_mut().reduce(action);
        match effect {
            CompareEffect::None => {}
            CompareEffect::StopComputing => self.computing.borrow().cancel(),
            CompareEffect::Compute => {
                let cancel = CancelFlag::new();
                self.computing.replace(cancel.clone()).cancel();
                let (state, redraw) = (self.state.clone(), self.redraw.clone());
                wasm_bindgen_futures::spawn_local(async move {
                    drive_in_worker(state, cancel, move |_| redraw.force_update()).await;
                });
            }
        }
        if redraw {
            self.redraw.force_update();
        }
    }

    /// Reduces `action` and redraws.
    fn dispatch(&self, action: CompareAction) {
        self.apply(action, true);
    }

    /// A callback that dispatches what `f` makes of the event (if anything).
    fn on<E: 'static>(&self, redraw: bool, f: impl Fn(E) -> Option<CompareAction> + 'static) -> Callback<E> {
        let view = self.clone();
        Callback::from(move |e: E| {
            if let Some(action) = f(e) {
                view.apply(action, redraw);
            }
        })
    }

    /// A button that moves the shared position.
    fn mover(&self, m: StepMove) -> Callback<MouseEvent> {
        self.on(true, move |_: MouseEvent| Some(CompareAction::Move(m)))
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
    let view = View {
        state: use_mut_ref(CompareView::default),
        redraw: use_force_update(),
        computing: use_mut_ref(CancelFlag::new),
        links: crate::ui::share::use_share_links(),
    };

    // Opened with a share link that carries a compare set: open and run it.
    {
        let (view, source) = (view.clone(), props.source.clone());
        use_effect_with((), move |_| {
            if let Some((presets, step, int_model)) = crate::ui::share::take_compare_restore() {
                view.dispatch(CompareAction::Restore { source, presets, step, int_model });
            }
        });
    }

    // While the view is open, ← and → step it (not the analysis pane below):
    // a capturing listener on the window sees the keys first.
    {
        let view = view.clone();
        use_effect_with((), move |_| {
            let listener = step_keys(view);
            move || drop(listener)
        });
    }

    let on_open = {
        let (source, links) = (props.source.clone(), view.links.clone());
        view.on(true, move |_: MouseEvent| {
            Some(CompareAction::Open { source: source.clone(), int_model: links.analysis_now().0.int_model })
        })
    };

    // The example the compared program came from, if any: its guidance
    // stays beside the program in the view.
    let guide = use_memo(props.source.clone(), |s| crate::model::gallery::example_with_program(s));
    let st = view.state.borrow();
    // What a share link made now carries.
    let (shown, position) = st.shared();
    view.links.note_compare(&shown, position);

    html! {
        <>
            <button class="compare-open" data-testid="compare-open" onclick={on_open}
                title="Run two or three configurations on this program side by side">{ "Compare" }</button>
            if st.open {
                { render(&view, &st, &props.source, guide.as_ref().as_ref()) }
            }
        </>
    }
}

/// The window's capturing key listener: ← and → move the shared step
/// while the view is open (outside form fields).
fn step_keys(view: View) -> Option<EventListener> {
    let options = EventListenerOptions { phase: EventListenerPhase::Capture, passive: false };
    let window = web_sys::window()?;
    Some(EventListener::new_with_options(&window, "keydown", options, move |e| {
        let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else { return };
        let in_field = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .is_some_and(|el| matches!(el.tag_name().as_str(), "TEXTAREA" | "INPUT" | "SELECT"));
        if !view.state.borrow().open || in_field || e.ctrl_key() || e.alt_key() || e.meta_key() {
            return;
        }
        let m = match e.key().as_str() {
            "ArrowRight" => StepMove::KeyForward,
            "ArrowLeft" => StepMove::KeyBack,
            _ => return,
        };
        e.prevent_default();
        e.stop_immediate_propagation();
        view.dispatch(CompareAction::Move(m));
    }))
}

/// One pane at the shared step.
struct PaneShown {
    /// Its configuration.
    preset: String,
    /// Its panels at the step.
    panels: Panels,
    /// Whether it diverges here.
    marked: bool,
    /// The state inspected in it (clicked), at the step: its id, and what
    /// it is then (`None`: not created by this step).
    inspected: Option<(String, Option<StateDetail>)>,
}

/// Everything the view shows at the shared step, computed from the runs.
struct Shown {
    max_step: usize,
    step: usize,
    div: Option<Divergence>,
    /// Each pane at the shared step.
    panes: Vec<PaneShown>,
    /// Each run's reached states per CFA location at the shared step.
    heats: Vec<std::collections::BTreeMap<u32, usize>>,
    heat_max: usize,
    /// The program's CFA drawn once (the same program in every pane).
    graph: Option<CfaGraph>,
    nodes: Vec<u32>,
    /// The program's error locations (marked in the heat map).
    error_nodes: Vec<u32>,
    reached_plot: Plot,
    created_plot: Plot,
    rows: Vec<SummaryRow>,
}

impl Shown {
    fn of(st: &CompareView) -> Shown {
        let max_step = st.max_step();
        let step = st.step.min(max_step);
        let sigs: Vec<_> = st.runs.iter().map(|r| signatures(r.cursor.events())).collect();
        let finished: Vec<bool> = st.runs.iter().map(|r| r.finished()).collect();
        let div = divergence(&sigs.iter().map(|s| s.as_slice()).collect::<Vec<_>>(), &finished);
        // Each pane at the shared step (a copy of its cursor, seeked).
        let panes = st
            .runs
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let starts = step_starts(r.cursor.events());
                let pos = step_position(&starts, r.cursor.len(), step);
                let mut c = r.cursor.clone();
                c.seek(pos);
                let marked = div.as_ref().is_some_and(|d| d.step == step && d.differs.get(i).copied().unwrap_or(false));
                let inspected =
                    st.inspected.filter(|&(pane, _)| pane == i).map(|(_, id)| (id.to_string(), detail(c.snapshot(), id)));
                PaneShown { preset: r.spec.preset.clone(), panels: Panels::of(&r.program, &c, &r.lines), marked, inspected }
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
        let nodes = st.runs.first().map(|r| r.program.nodes.iter().map(|n| n.id.0).collect()).unwrap_or_default();
        let error_nodes = graph
            .iter()
            .flat_map(|g| g.nodes.iter())
            .filter(|n| n.markers.contains(&Marker::Error))
            .flat_map(|n| n.cfa_nodes.iter().map(|id| id.0))
            .collect();
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
        let rows = st.runs.iter().map(|r| SummaryRow::of(&r.spec.preset, r.cursor.events())).collect();
        Shown { max_step, step, div, panes, heats, heat_max, graph, nodes, error_nodes, reached_plot, created_plot, rows }
    }
}

/// The open view: the compared program (and its example's guidance)
/// beside its head (choices, Run, status), the stepping controls, the
/// divergence banner, the panes, the heat map and plots, the summary.
fn render(view: &View, st: &CompareView, source: &str, guide: Option<&crate::model::gallery::Example>) -> Html {
    let shown = Shown::of(st);
    html! {
        <div class="compare-overlay" data-testid="compare-view" role="dialog" aria-label="Compare configurations">
            <div class="compare-layout">
                { program_aside(source, guide) }
                <div class="compare-main">
                    { head(view, st, source) }
                    { controls(view, &shown) }
                    { divergence_banner(view, st, &shown) }
                    { panes(view, &shown) }
                    { heat_and_plots(st, &shown) }
                    { summary(&shown) }
                </div>
            </div>
        </div>
    }
}

/// The compared program with line numbers (the panes name lines and
/// nodes, so the source stays in view while the student steps), and the
/// "What to look at" guidance of the example it came from; collapsible.
fn program_aside(source: &str, guide: Option<&crate::model::gallery::Example>) -> Html {
    html! {
        <aside class="compare-source" data-testid="compare-source" aria-label="The compared program">
            if let Some(example) = guide {
                <details class="compare-guide" open=true data-testid="compare-guide">
                    <summary>{ example.title.clone() }</summary>
                    if example.uses_solver() {
                        <crate::ui::example_guide::Z3Progress />
                    }
                    { crate::ui::gallery::blocks(example.guidance()) }
                </details>
            }
            <details open=true>
                <summary>{ "Program" }</summary>
                <ol class="source-lines">
                    { for source.lines().map(|l| html! { <li><code>{ l.to_string() }</code></li> }) }
                </ol>
            </details>
        </aside>
    }
}

/// The view's status line: the runs' progress, why they could not start,
/// or what was compared.
fn status(st: &CompareView) -> String {
    if st.computing {
        format!(
            "computing… {}",
            st.runs.iter().map(|r| format!("{} {} steps", r.spec.preset, r.steps())).collect::<Vec<_>>().join(", ")
        )
    } else if let Some(e) = &st.error {
        e.clone()
    } else {
        format!("{} configurations, {} integers, {} steps at most", st.runs.len(), st.int_model.name(), st.max_steps)
    }
}

/// The head: the configuration choices, the step limit, Run, the status
/// and Close.
fn head(view: &View, st: &CompareView, source: &str) -> Html {
    let on_close = view.on(true, |_: MouseEvent| Some(CompareAction::Close));
    let on_choice = |i: usize| {
        view.on(false, move |e: Event| Some(CompareAction::Choice(i, e.target_unchecked_into::<HtmlSelectElement>().value())))
    };
    let on_limit = view.on(false, |e: Event| {
        let input: HtmlInputElement = e.target_unchecked_into();
        input.value().trim().parse::<u64>().ok().map(CompareAction::Limit)
    });
    let on_run = {
        let (source, links) = (source.to_string(), view.links.clone());
        view.on(true, move |_: MouseEvent| {
            Some(CompareAction::Run { source: source.clone(), int_model: links.analysis_now().0.int_model })
        })
    };
    html! {
        <div class="compare-head">
            <h2>{ "Compare configurations" }</h2>
            { for (0..3).map(|i| html! {
                <select data-testid={format!("compare-preset-{i}")} aria-label={format!("Configuration {}", i + 1)} onchange={on_choice(i)}>
                    if i == 2 { <option value="" selected={st.choice[2].is_empty()}>{ "(none)" }</option> }
                    { for PRESETS.iter().map(|(name, what)| html! {
                        <option value={*name} selected={st.choice[i] == *name} title={*what}>{ *name }</option>
                    }) }
                    // A preset with option overrides (opened from the gallery or a link).
                    if !st.choice[i].is_empty() && !PRESETS.iter().any(|(name, _)| *name == st.choice[i]) {
                        <option value={st.choice[i].clone()} selected=true>{ st.choice[i].clone() }</option>
                    }
                </select>
            }) }
            <label title="limits.steps of each run">{ "Step limit " }
                <input data-testid="compare-limit" type="number" min="0" step="100" value={st.max_steps.to_string()} onchange={on_limit} />
            </label>
            <button class="primary" data-testid="compare-run" onclick={on_run} disabled={st.computing}>{ "Run on this program" }</button>
            <span class="compare-status" data-testid="compare-status">{ status(st) }</span>
            <button class="compare-close" data-testid="compare-close" onclick={on_close} aria-label="Close the compare view">{ "× Close" }</button>
        </div>
    }
}

/// The stepping buttons, the shared slider (with the divergence's tick)
/// and the position.
fn controls(view: &View, shown: &Shown) -> Html {
    let on_slider = view.on(true, |e: InputEvent| {
        let input: HtmlInputElement = e.target_unchecked_into();
        input.value().parse::<usize>().ok().map(|k| CompareAction::Move(StepMove::To(k)))
    });
    let (step, max_step) = (shown.step, shown.max_step);
    html! {
        <div class="compare-controls">
            <button data-testid="compare-start" aria-label="To step 0" title="To step 0" onclick={view.mover(StepMove::Start)}>{ "◀◀" }</button>
            <button data-testid="compare-back" onclick={view.mover(StepMove::Back)}>{ "◀ Step back" }</button>
            <button data-testid="compare-step-fwd" onclick={view.mover(StepMove::Forward)}>{ "Step ▶" }</button>
            <button data-testid="compare-end" aria-label="To the last step" title="To the last step" onclick={view.mover(StepMove::End)}>{ "▶▶" }</button>
            <div class="compare-slider">
                <input data-testid="compare-step" aria-label="Step, shared by the runs" type="range" min="0" max={max_step.to_string()} value={step.to_string()} oninput={on_slider} />
                if let (Some(d), true) = (&shown.div, max_step > 0) {
                    <span class="divergence-tick" title={format!("first divergence: step {}", d.step)}
                        style={format!("left: {:.2}%", 100.0 * d.step as f64 / max_step as f64)}></span>
                }
            </div>
            <span class="position" data-testid="compare-position">{ format!("step {step} of {max_step}") }</span>
        </div>
    }
}

/// The first divergence in words, with "Go to it".
fn divergence_banner(view: &View, st: &CompareView, shown: &Shown) -> Html {
    let div = &shown.div;
    let on_jump = {
        let to = div.as_ref().map(|d| d.step);
        view.on(true, move |_: MouseEvent| to.map(|k| CompareAction::Move(StepMove::To(k))))
    };
    let div_text = match (div, st.computing) {
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
        <p class={classes!("compare-divergence", div.as_ref().map(|d| if d.step == shown.step { "here" } else { "elsewhere" }))} data-testid="compare-divergence">
            <span>{ div_text }</span>
            if div.is_some() {
                <button data-testid="compare-jump-divergence" onclick={on_jump}>{ "Go to it" }</button>
            }
        </p>
    }
}

/// One pane per configuration at the shared step: its step in words,
/// statistics, heat-shaded CFA, verdict, its reached states (click one to
/// inspect it) and the inspected state.
fn panes(view: &View, shown: &Shown) -> Html {
    html! {
        <div class="compare-panes" style={format!("grid-template-columns: repeat({}, minmax(0, 1fr))", shown.panes.len().max(1))}>
            { for shown.panes.iter().enumerate().map(|(i, pane)| {
                let p = &pane.panels;
                html! {
                    <section class={classes!("compare-pane", pane.marked.then_some("diverges"))} data-testid="compare-pane" data-preset={pane.preset.clone()}
                        style={format!("--pane-color: {}", COLORS[i % 3])}>
                        <h3><span class="swatch"></span>{ pane.preset.clone() }</h3>
                        if let Some(why) = crate::model::config_choice::parse(&pane.preset).ok().and_then(|c| c.unsound_by_choice(view.state.borrow().int_model)) {
                            <p class="unsound-by-choice" data-testid="compare-unsound">{ format!("⚠ {why}") }</p>
                        }
                        if pane.marked { <p class="diverges-here">{ "diverges here" }</p> }
                        <div class="step-text" data-testid="compare-step-text" tabindex="0">{ if p.step_text.is_empty() { "(before the first step)".to_string() } else { p.step_text.clone() } }</div>
                        <p class="stats">{ p.stats.clone() }</p>
                        if let Some(x) = &p.symexec {
                            <p class="stats" data-testid="compare-symexec-stats">{ x.text() }</p>
                        }
                        if let Some(g) = &shown.graph {
                            { heat_cfa(g, &shown.heats[i], shown.heat_max) }
                        }
                        if let Some(v) = &p.verdict {
                            <p class={classes!("verdict", format!("verdict-{}", v.split(' ').next().unwrap_or("").to_lowercase()))}>{ v.clone() }</p>
                        }
                        { pane_states(view, i, pane) }
                    </section>
                }
            }) }
        </div>
    }
}

/// A pane's reached set as clickable state ids, by location, and the state
/// clicked (inspected) in full.
fn pane_states(view: &View, pane: usize, shown: &PaneShown) -> Html {
    let inspected = shown.inspected.as_ref().map(|(id, _)| id.as_str());
    let chip = |id: &str, current: bool| {
        let state = id.strip_prefix('s').and_then(|n| n.parse().ok()).map(StateId);
        let onclick = view.on(true, move |_: MouseEvent| state.map(|s| CompareAction::Inspect(pane, s)));
        let class = classes!("state-chip", current.then_some("current"), (inspected == Some(id)).then_some("inspected"));
        html! {
            <button class={class} data-testid="compare-state" data-state={id.to_string()} title={format!("inspect {id}")} {onclick}>{ id.to_string() }</button>
        }
    };
    html! {
        <div class="compare-states">
            <div class="compare-states-head">{ "Reached states — click one to inspect it" }</div>
            <div class="compare-reached" data-testid="compare-reached">
                if shown.panels.reached.is_empty() { <span class="hint">{ "(empty)" }</span> }
                { for shown.panels.reached.iter().map(|g| html! {
                    <span class="compare-loc"><span class="loc-id">{ g.node.clone() }</span>
                        { for g.states.iter().map(|s| chip(&s.id, s.current)) }
                    </span>
                }) }
            </div>
            if let Some((id, d)) = &shown.inspected {
                <div class="compare-inspect" data-testid="compare-inspect">
                    { match d {
                        Some(d) => html! { <StateCard detail={d.clone()} /> },
                        None => html! { <p class="hint">{ format!("{id} does not exist at this step.") }</p> },
                    } }
                </div>
            }
        </div>
    }
}

/// The heat map table (reached states per location and configuration) and
/// the two plots over the steps.
fn heat_and_plots(st: &CompareView, shown: &Shown) -> Html {
    let (nodes, heat_max) = (&shown.nodes, shown.heat_max);
    html! {
        <div class="compare-lower">
            // Focusable: it scrolls sideways, and the keyboard must reach it.
            <section class="compare-heat" data-testid="compare-heat" tabindex="0" aria-labelledby="compare-heat-title">
                <h3 id="compare-heat-title">{ "Reached states per location (heat map)" }</h3>
                <table>
                    <thead><tr><th><span class="sr-only">{ "configuration" }</span></th>{ for nodes.iter().map(|n| {
                        let error = shown.error_nodes.contains(n);
                        html! {
                            <th class={classes!(error.then_some("error"))} data-node={format!("N{n}")}
                                title={if error { format!("N{n}: the error location") } else { format!("N{n}") }}>{ format!("N{n}") }</th>
                        }
                    }) }</tr></thead>
                    <tbody>
                        { for shown.heats.iter().zip(&st.runs).map(|(h, r)| html! {
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
                { svg_plot("Reached-set size over the steps", "compare-plot-reached", &shown.reached_plot) }
                { svg_plot("States created over the steps", "compare-plot-created", &shown.created_plot) }
            </section>
        </div>
    }
}

/// The summary's solver column: queries asked and Z3's time for them.
fn query_cell(r: &SummaryRow, log: &crate::model::solver::SolverLog) -> String {
    let queries = match crate::model::compare::query_times(log, &r.preset) {
        _ if r.solver_queries == 0 => "0".into(),
        Some(t) => format!("{} ({:.0} ms)", r.solver_queries, t.total_ms),
        None => r.solver_queries.to_string(),
    };
    queries + &r.without_solver_note() + &r.retention_note()
}

/// The summary table: per configuration whether it terminates, its
/// verdict, reached and created states, steps and refinements.
fn summary(shown: &Shown) -> Html {
    let rows = &shown.rows;
    let min_created = rows.iter().filter(|r| r.finished).map(|r| r.created).min();
    let log = crate::platform::z3::log();
    // The explorer of a transformed program stores states instead of a
    // reached set and counts its equivalence checks (transform presets).
    let explorer = rows.iter().any(|r| r.preset.starts_with("transform-"));
    html! {
        <section class="compare-summary">
            <h3>{ "Summary" }</h3>
            <table data-testid="compare-summary">
                <thead><tr>
                    <th>{ "configuration" }</th><th>{ "terminates?" }</th><th>{ "verdict" }</th>
                    <th title="States in the final reached set; for the explorer of a transformed program, the states it stored">{ if explorer { "reached / stored" } else { "reached" } }</th><th>{ "created" }</th><th>{ "steps" }</th><th>{ "refinements" }</th>
                    <th title="Solver queries, and Z3's time for them in this page (the first query of the page, which waits for Z3 to load, is left out); how many of them were answered without Z3 (decided by the engine or from earlier answers)">{ "Z3 queries (time)" }</th>
                    if explorer {
                        <th title="Explorer of a transformed program (term domain): solver queries that compared a new state with a stored one">{ "equivalence checks" }</th>
                    }
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
                            <td data-testid="compare-query-times">{ query_cell(r, &log) }</td>
                            if explorer {
                                <td data-testid="compare-equivalence-checks">{ r.equivalence_checks }</td>
                            }
                        </tr>
                    }) }
                </tbody>
            </table>
        </section>
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
                let error = n.markers.contains(&Marker::Error);
                let r = (n.width / 2.0).max(17.0);
                // The badge: the count, at the node's upper right.
                let (bx, by) = if n.shape == Shape::Circle { (x + r * 0.7, y - r * 0.7) } else { (x + n.width / 2.0, y - n.height / 2.0) };
                html! {
                    <g class={classes!("heat-g", error.then_some("error"))} data-node={n.key()} data-count={c.to_string()}>
                        <title>{ format!("{}{}: {c} reached state(s)", n.title, if error { " (error location)" } else { "" }) }</title>
                        if n.shape == Shape::Circle {
                            <circle cx={format!("{x:.1}")} cy={format!("{y:.1}")} r={format!("{r:.1}")} fill={fill} class="heat-node" />
                        } else {
                            <rect x={format!("{:.1}", x - n.width / 2.0)} y={format!("{:.1}", y - n.height / 2.0)} width={format!("{:.1}", n.width)}
                                height={format!("{:.1}", n.height)} rx="4" fill={fill} class="heat-node" />
                        }
                        if error && n.shape == Shape::Circle {
                            <circle cx={format!("{x:.1}")} cy={format!("{y:.1}")} r={format!("{:.1}", r + 4.0)} class="heat-error-ring" fill="none" />
                        }
                        <text x={format!("{x:.1}")} y={format!("{:.1}", y + 4.0)} text-anchor="middle" class="heat-label" fill={text_fill}>
                            { n.title.clone() }
                        </text>
                        if c > 0 {
                            <g class="heat-badge">
                                <rect x={format!("{:.1}", bx - 4.0)} y={format!("{:.1}", by - 9.0)} width={format!("{:.1}", c.to_string().len() as f64 * 7.0 + 8.0)} height="16" rx="8" />
                                <text class="heat-count" x={format!("{bx:.1}")} y={format!("{:.1}", by + 3.5)}>{ c.to_string() }</text>
                            </g>
                        }
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
                { for p.lines.iter().enumerate().map(|(i, l)| html! {
                    <polyline points={l.points.clone()} fill="none" stroke={COLORS[i % 3]} stroke-width="1.8" />
                }) }
                // The end labels, placed apart in the model (they never overlap).
                { for p.labels.iter().enumerate().map(|(i, l)| html! {
                    <text class="end-label" x={format!("{:.1}", l.at.0)} y={format!("{:.1}", l.at.1)}
                        text-anchor={if l.anchor_end { "end" } else { "start" }} fill={COLORS[i % 3]}>{ l.text.clone() }</text>
                }) }
            </svg>
        </figure>
    }
}
