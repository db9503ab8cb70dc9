//! The analysis pane (Yew): the configuration chooser, the Analyze/Cancel
//! actions, the stepping controls and the panels of [`crate::model::analysis`].
//!
//! The CPA+ algorithm runs in slices: each timer tick computes waitlist pops
//! for at most [`SLICE_MS`] milliseconds, then yields to the browser, so the
//! page never freezes and Cancel works at any time. Stepping only seeks the
//! [`engine::view::Cursor`] over the recorded events (step back is a seek,
//! never a re-run).

use std::cell::RefCell;
use std::rc::Rc;

use gloo_events::{EventListener, EventListenerOptions};
use gloo_timers::future::TimeoutFuture;
use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlSelectElement, KeyboardEvent};
use yew::prelude::*;

use crate::model::analysis::{next_break, Breakpoint, Panels, Run, RunSpec, StateLine, PRESETS, SLICE_MS};
use crate::platform::clock::now_ms;

/// Why the forward controls are disabled in predict mode.
const PREDICTING: &str = "Predict mode: answer the questions below, then “Show the step”";

/// Play speeds offered (events per second).
const SPEEDS: &[u32] = &[2, 5, 10, 30, 100];

/// The pane's mutable state, shared with the computing and playing tasks.
#[derive(Default)]
struct Shared {
    spec: RunSpec,
    run: Option<Run>,
    /// The program text the run analyses (the listing is highlighted only
    /// while the editor still holds it).
    run_source: String,
    /// Bumped to cancel the computing task.
    compute_gen: u64,
    computing: bool,
    cancelled: bool,
    error: Option<String>,
    /// Bumped to stop the playing task.
    play_gen: u64,
    playing: bool,
    speed: u32,
    /// The event position a share link asked for, shown once computed.
    pending_seek: Option<usize>,
    /// Predict mode is on: the student must answer before the next step is
    /// shown, so only predict mode's own "show the step" moves forward.
    predicting: bool,
}

/// A stepping control.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Ctl {
    Step,
    Back,
    End,
    Start,
    Seek(usize),
    Break(Breakpoint),
    TogglePlay,
    /// Predict mode shows the step it asked about (or goes to its start).
    Reveal(usize),
}

type State = Rc<RefCell<Shared>>;

fn control(shared: &State, redraw: &UseForceUpdateHandle, ctl: Ctl) {
    let mut sh = shared.borrow_mut();
    if ctl != Ctl::TogglePlay {
        // Any manual move pauses.
        sh.playing = false;
        sh.play_gen += 1;
    }
    let predicting = sh.predicting;
    let Some(run) = sh.run.as_mut() else { return };
    let pos = run.cursor.position();
    // In predict mode nothing but the prediction reveals what comes next.
    let forward = match ctl {
        Ctl::Step | Ctl::End | Ctl::Break(_) | Ctl::TogglePlay => true,
        Ctl::Seek(k) => k > pos,
        Ctl::Back | Ctl::Start | Ctl::Reveal(_) => false,
    };
    if predicting && forward {
        drop(sh);
        redraw.force_update();
        return;
    }
    match ctl {
        Ctl::Step => {
            run.cursor.seek(pos + 1);
        }
        Ctl::Back => {
            run.cursor.seek(pos.saturating_sub(1));
        }
        Ctl::End => {
            let n = run.cursor.len();
            run.cursor.seek(n);
        }
        Ctl::Start => {
            run.cursor.seek(0);
        }
        Ctl::Seek(k) | Ctl::Reveal(k) => {
            run.cursor.seek(k);
        }
        Ctl::Break(bp) => {
            let to = next_break(&run.cursor, bp).unwrap_or(run.cursor.len());
            run.cursor.seek(to);
        }
        Ctl::TogglePlay => {
            sh.playing = !sh.playing;
            sh.play_gen += 1;
            if sh.playing {
                let gen = sh.play_gen;
                let (shared, redraw) = (shared.clone(), redraw.clone());
                wasm_bindgen_futures::spawn_local(async move { play(shared, redraw, gen).await });
            }
        }
    }
    drop(sh);
    redraw.force_update();
}

async fn play(shared: State, redraw: UseForceUpdateHandle, gen: u64) {
    loop {
        let speed = shared.borrow().speed.max(1);
        TimeoutFuture::new(1000 / speed).await;
        {
            let mut sh = shared.borrow_mut();
            if sh.play_gen != gen || !sh.playing {
                return;
            }
            let computing = sh.computing;
            let Some(run) = sh.run.as_mut() else { return };
            let pos = run.cursor.position();
            if pos >= run.cursor.len() {
                if !computing {
                    sh.playing = false;
                    drop(sh);
                    redraw.force_update();
                    return;
                }
            } else {
                run.cursor.seek(pos + 1);
            }
        }
        redraw.force_update();
    }
}

async fn compute(shared: State, redraw: UseForceUpdateHandle, gen: u64) {
    loop {
        // One slice; the borrow ends with the block, before any await.
        let parked = {
            let mut sh = shared.borrow_mut();
            if sh.compute_gen != gen {
                return;
            }
            let Some(run) = sh.run.as_mut() else { return };
            let t0 = now_ms();
            let mut done;
            loop {
                done = run.advance(8);
                if done || now_ms() - t0 > SLICE_MS || run.pending_query().is_some() {
                    break;
                }
            }
            // Parked on a solver query (symbolic analyses): Z3 answers
            // asynchronously, the page keeps running meanwhile.
            let parked = run.pending_query().map(|q| (q, run.spec.preset.clone()));
            if done {
                sh.computing = false;
                // A share link's step, once the trace is there.
                if let Some(k) = sh.pending_seek.take() {
                    if let Some(run) = sh.run.as_mut() {
                        run.cursor.seek(k.min(run.cursor.len()));
                    }
                }
            }
            drop(sh);
            redraw.force_update();
            if done {
                return;
            }
            parked
        };
        if let Some(((qid, script), preset)) = parked {
            let out = crate::platform::z3::check_logged(&format!("analysis ({preset}): query {qid}"), &script, None).await;
            let mut sh = shared.borrow_mut();
            if sh.compute_gen != gen {
                return;
            }
            if let Some(run) = sh.run.as_mut() {
                // No answer (Z3 failed to load): `unknown`, which the CPAs treat soundly.
                run.answer_query(&out.unwrap_or_else(|_| "unknown".into()));
            }
            continue;
        }
        TimeoutFuture::new(0).await;
    }
}

/// Properties of [`AnalysisPane`].
#[derive(Properties, PartialEq)]
pub struct AnalysisPaneProps {
    /// The editor's current program text.
    pub source: String,
    /// Whether the program lowers to a CFA (Analyze is offered only then).
    pub analyzable: bool,
    /// Told the run's shown position whenever it changes (the graph views).
    #[prop_or_default]
    pub on_frame: Callback<Option<Rc<crate::ui::graphs::RunFrame>>>,
    /// An exercise locks the configuration: the chooser and the
    /// configuration panel are read-only (Analyze still runs it).
    #[prop_or_default]
    pub locked: bool,
}

/// The analysis pane: chooser, run status, controls and panels.
#[function_component(AnalysisPane)]
pub fn analysis_pane(props: &AnalysisPaneProps) -> Html {
    let shared: State = use_mut_ref(|| Shared {
        speed: 10,
        spec: crate::platform::storage::load_spec().unwrap_or_default(),
        ..Shared::default()
    });
    let redraw = use_force_update();

    // Opened with a share link: its configuration, and its step once computed.
    {
        let (shared, redraw, source) = (shared.clone(), redraw.clone(), props.source.clone());
        use_effect_with((), move |_| {
            // What a share link carries: the run shown, else the chooser.
            let probe = shared.clone();
            crate::ui::share::register_analysis(Box::new(move || {
                let sh = probe.borrow();
                sh.run.as_ref().map_or((sh.spec.clone(), None), |r| (r.spec.clone(), Some(r.cursor.position())))
            }));
            if let Some((spec, position)) = crate::ui::share::take_restore() {
                let mut sh = shared.borrow_mut();
                sh.spec = spec.clone();
                if let (Some(k), Ok(run)) = (position, Run::start(&source, spec)) {
                    sh.run = Some(run);
                    sh.run_source = source;
                    sh.computing = true;
                    sh.pending_seek = Some(k);
                    sh.compute_gen += 1;
                    let gen = sh.compute_gen;
                    let (shared, redraw) = (shared.clone(), redraw.clone());
                    wasm_bindgen_futures::spawn_local(async move { compute(shared, redraw, gen).await });
                }
                drop(sh);
                redraw.force_update();
            }
        });
    }

    // ←/→ step, space plays/pauses — anywhere except in form fields.
    {
        let (shared, redraw) = (shared.clone(), redraw.clone());
        use_effect_with((), move |_| {
            let document = web_sys::window().and_then(|w| w.document());
            let listener = document.map(|d| {
                // Not passive: the arrow keys and space must not scroll the page.
                EventListener::new_with_options(&d, "keydown", EventListenerOptions::enable_prevent_default(), move |e| {
                    let Some(e) = e.dyn_ref::<KeyboardEvent>() else { return };
                    if e.ctrl_key() || e.alt_key() || e.meta_key() {
                        return;
                    }
                    let in_field = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).is_some_and(|el| {
                        matches!(el.tag_name().as_str(), "TEXTAREA" | "INPUT" | "SELECT")
                                // The code editor (CodeMirror's contenteditable).
                                || el.closest("[contenteditable=true]").ok().flatten().is_some()
                    });
                    if in_field {
                        return;
                    }
                    let ctl = match e.key().as_str() {
                        "ArrowRight" => Ctl::Step,
                        "ArrowLeft" => Ctl::Back,
                        " " => Ctl::TogglePlay,
                        _ => return,
                    };
                    e.prevent_default();
                    control(&shared, &redraw, ctl);
                })
            });
            move || drop(listener)
        });
    }

    let on_preset = {
        let (shared, redraw) = (shared.clone(), redraw.clone());
        Callback::from(move |e: Event| {
            let sel: HtmlSelectElement = e.target_unchecked_into();
            shared.borrow_mut().spec.preset = sel.value();
            // A preset replaces what the configuration panel composed (and
            // with it a configuration error of the last Analyze).
            shared.borrow_mut().spec.properties = None;
            if shared.borrow().error.as_deref().is_some_and(crate::model::analysis::is_config_error) {
                shared.borrow_mut().error = None;
            }
            redraw.force_update();
            crate::platform::storage::save_spec(&shared.borrow().spec);
        })
    };
    let on_model = {
        let shared = shared.clone();
        Callback::from(move |e: Event| {
            let sel: HtmlSelectElement = e.target_unchecked_into();
            shared.borrow_mut().spec.int_model = if sel.value() == "c" { minic::IntModel::C } else { minic::IntModel::Math };
            crate::platform::storage::save_spec(&shared.borrow().spec);
        })
    };
    let on_limit = {
        let shared = shared.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            if let Ok(n) = input.value().trim().parse::<u64>() {
                shared.borrow_mut().spec.max_steps = n;
                crate::platform::storage::save_spec(&shared.borrow().spec);
            }
        })
    };
    let on_analyze = {
        let (shared, redraw, source) = (shared.clone(), redraw.clone(), props.source.clone());
        Callback::from(move |_: MouseEvent| {
            let mut sh = shared.borrow_mut();
            sh.compute_gen += 1;
            sh.play_gen += 1;
            sh.playing = false;
            sh.cancelled = false;
            match Run::start(&source, sh.spec.clone()) {
                Ok(run) => {
                    sh.run = Some(run);
                    sh.run_source = source.clone();
                    sh.error = None;
                    sh.computing = true;
                    let gen = sh.compute_gen;
                    let (shared, redraw) = (shared.clone(), redraw.clone());
                    wasm_bindgen_futures::spawn_local(async move { compute(shared, redraw, gen).await });
                }
                Err(e) => {
                    sh.run = None;
                    sh.error = Some(e);
                    sh.computing = false;
                }
            }
            drop(sh);
            redraw.force_update();
        })
    };
    let on_cancel = {
        let (shared, redraw) = (shared.clone(), redraw.clone());
        Callback::from(move |_: MouseEvent| {
            let mut sh = shared.borrow_mut();
            sh.compute_gen += 1;
            sh.computing = false;
            sh.cancelled = true;
            drop(sh);
            redraw.force_update();
        })
    };
    let on_speed = {
        let shared = shared.clone();
        Callback::from(move |e: Event| {
            let sel: HtmlSelectElement = e.target_unchecked_into();
            shared.borrow_mut().speed = sel.value().parse().unwrap_or(10);
        })
    };
    let ctl = |c: Ctl| {
        let (shared, redraw) = (shared.clone(), redraw.clone());
        Callback::from(move |_: MouseEvent| control(&shared, &redraw, c))
    };
    let on_slider = {
        let (shared, redraw) = (shared.clone(), redraw.clone());
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            if let Ok(k) = input.value().parse::<usize>() {
                control(&shared, &redraw, Ctl::Seek(k));
            }
        })
    };

    // The configuration panel's text (None: the plain preset).
    let on_properties = {
        let (shared, redraw) = (shared.clone(), redraw.clone());
        Callback::from(move |text: Option<String>| {
            let mut sh = shared.borrow_mut();
            // A configuration error of the last Analyze is about the old text.
            if sh.error.as_deref().is_some_and(crate::model::analysis::is_config_error) {
                sh.error = None;
            }
            sh.spec.properties = text;
            drop(sh);
            crate::platform::storage::save_spec(&shared.borrow().spec);
            redraw.force_update();
        })
    };
    let sh = shared.borrow();
    let spec = sh.spec.clone();
    let chooser = html! {
        <div class="chooser" data-testid="chooser">
            <fieldset class="chooser-fields" disabled={props.locked} title={if props.locked { "The exercise locks the configuration" } else { "" }}>
            <label>{ "Configuration " }
                <select data-testid="preset" onchange={on_preset}>
                    { for PRESETS.iter().map(|(name, what)| html! {
                        <option value={*name} selected={spec.preset == *name} title={*what}>{ *name }</option>
                    }) }
                </select>
            </label>
            <label>{ "Integers " }
                <select data-testid="int-model" onchange={on_model}>
                    <option value="c" selected={spec.int_model == minic::IntModel::C}>{ "c" }</option>
                    <option value="math" selected={spec.int_model == minic::IntModel::Math}>{ "math (teaching)" }</option>
                </select>
            </label>
            <label title="limits.steps: the run stops as UNKNOWN after this many waitlist pops (0: no limit)">{ "Step limit " }
                <input data-testid="step-limit" type="number" min="0" step="100" value={spec.max_steps.to_string()} onchange={on_limit} />
            </label>
            </fieldset>
            <button class="primary" data-testid="analyze" disabled={!props.analyzable || sh.computing} onclick={on_analyze}>{ "Analyze" }</button>
            if sh.computing {
                <button data-testid="cancel" onclick={on_cancel}>{ "Cancel" }</button>
            }
            <fieldset class="chooser-fields" disabled={props.locked}>
                <crate::ui::config_panel::ConfigPanel preset={spec.preset.clone()} properties={spec.properties.clone()} on_change={on_properties}
                    run_problem={sh.error.clone().filter(|e| crate::model::analysis::is_config_error(e))} />
            </fieldset>
            if props.locked {
                <span class="chip" data-testid="config-locked">{ "locked by the exercise" }</span>
            }
        </div>
    };

    // The editor highlights the line of the edge being processed (a hook:
    // called on every render, before any early return).
    let shown = sh.run.as_ref().map(|run| Panels::of(&run.program, &run.cursor));
    use_effect_with(shown.as_ref().and_then(|p| p.current_line).filter(|_| sh.run_source == props.source), |line| {
        crate::platform::codemirror::highlight_line(crate::model::editor::LineKind::Current, *line)
    });
    // ... and the line of the selected state, node or edge (crate::model::selection).
    let selection = crate::ui::selection::use_selection().selection;
    // Before any run (or after an edit), a selected node or edge is resolved
    // against the program's own CFA, lowered once per program text.
    let no_fresh_run = sh.run.is_none() || sh.run_source != props.source;
    let own_program = use_memo((props.source.clone(), no_fresh_run && !selection.is_none()), |(source, needed)| {
        if *needed {
            cfa::from_source(source).ok()
        } else {
            None
        }
    });
    let selected_line = match sh.run.as_ref().filter(|_| !no_fresh_run) {
        Some(run) => selection.resolve(&run.program, Some(run.cursor.snapshot())).lines.into_iter().next(),
        None => own_program.as_ref().as_ref().and_then(|p| selection.resolve(p, None).lines.into_iter().next()),
    };
    use_effect_with(selected_line, |line| {
        crate::platform::codemirror::highlight_line(crate::model::editor::LineKind::Selected, *line)
    });
    // The graph views follow the shown position (a frame is built only
    // when the position, the run or its freshness changed).
    let linked = crate::ui::selection::use_selection();
    let frame_cache = use_mut_ref(|| None::<Rc<crate::ui::graphs::RunFrame>>);
    let frame = sh.run.as_ref().map(|run| {
        let fresh = sh.run_source == props.source;
        let snap = run.cursor.snapshot();
        let mut cache = frame_cache.borrow_mut();
        match cache.as_ref() {
            Some(f)
                if f.run_id == sh.compute_gen
                    && f.fresh == fresh
                    && f.snapshot.position == snap.position
                    && f.snapshot.states.len() == snap.states.len()
                    && f.events_len == run.cursor.len() =>
            {
                f.clone()
            }
            previous => {
                let f = Rc::new(crate::ui::graphs::RunFrame::new(sh.compute_gen, run, fresh, previous.map(|p| p.as_ref())));
                *cache = Some(f.clone());
                f
            }
        }
    });
    {
        let on_frame = props.on_frame.clone();
        use_effect_with(frame, move |f| on_frame.emit(f.clone()));
    }

    let Some(run) = sh.run.as_ref() else {
        return html! {
            <div class="analysis" data-testid="analysis">
                { chooser }
                if let Some(e) = &sh.error {
                    <p class="status status-error" data-testid="run-status">{ e.clone() }</p>
                } else {
                    <p class="hint">{ "Choose a configuration and press Analyze to run the CPA+ reachability algorithm; then step through its events." }</p>
                }
            </div>
        };
    };

    let steps = run.steps();
    let status = if sh.computing {
        format!("computing… {steps} steps, {} events so far", run.cursor.len())
    } else if sh.cancelled && !run.finished() {
        format!("cancelled after {steps} steps ({} events); the trace so far can be stepped", run.cursor.len())
    } else {
        let outcome = run.cursor.events().iter().rev().find_map(|e| match e {
            engine::trace::Event::AnalysisFinished { verdict, reason, .. } => Some(format!("{} — {reason}", verdict.upper())),
            _ => None,
        });
        format!("{} ({steps} steps, {} events)", outcome.unwrap_or_else(|| "finished".into()), run.cursor.len())
    };
    let status_class = if sh.computing { "run-status computing" } else { "run-status done" };
    let panels = shown.unwrap_or_default();
    let fresh = sh.run_source == props.source;
    let speed = sh.speed;
    let playing = sh.playing;
    let predicting = sh.predicting;
    // Predict mode and the state inspector (predict_app.rs, inspector_app.rs).
    let snap = run.cursor.snapshot();
    let next_step = crate::model::predict::StepOutcome::next(run.cursor.events(), run.cursor.position(), run.finished());
    let auto_state = crate::model::state_view::auto_state(snap, run.cursor.events());
    let inspect_choices = crate::ui::inspector::choices(snap, run.cursor.events(), auto_state);
    let resolve_state = {
        let shared = shared.clone();
        Callback::from(move |id: engine::trace::StateId| {
            shared.borrow().run.as_ref().and_then(|r| crate::model::state_view::detail(r.cursor.snapshot(), id))
        })
    };
    let on_seek = {
        let (shared, redraw) = (shared.clone(), redraw.clone());
        Callback::from(move |k: usize| control(&shared, &redraw, Ctl::Seek(k)))
    };
    let on_reveal = {
        let (shared, redraw) = (shared.clone(), redraw.clone());
        Callback::from(move |k: usize| control(&shared, &redraw, Ctl::Reveal(k)))
    };
    let on_predict_mode = {
        let (shared, redraw) = (shared.clone(), redraw.clone());
        Callback::from(move |on: bool| {
            let mut sh = shared.borrow_mut();
            sh.predicting = on;
            if on {
                sh.playing = false;
                sh.play_gen += 1;
            }
            drop(sh);
            redraw.force_update();
        })
    };

    // Linked selection: a selected CFA node filters the reached set; a
    // clicked state is selected everywhere (crate::model::selection).
    let selected_states = linked.selection.resolve(&run.program, Some(snap)).states;
    // CEGAR, counterexample checks and restarts (empty for plain runs).
    let cegar = crate::model::analysis::CegarView::of(&run.program, snap);
    let filter_node = linked.selection.node().map(|n| n.to_string()).filter(|_| fresh);
    let reached_shown: Vec<&crate::model::analysis::LocationGroup> =
        panels.reached.iter().filter(|g| filter_node.as_ref().is_none_or(|n| &g.node == n)).collect();
    let on_state_click = {
        let linked = linked.clone();
        Callback::from(move |e: MouseEvent| {
            let item = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .and_then(|el| el.closest("[data-state]").ok().flatten());
            if let Some(item) = item {
                let sel = crate::model::selection::Selection::parse(&item.get_attribute("data-state").unwrap_or_default());
                if !sel.is_none() {
                    linked.click(sel);
                }
            }
        })
    };
    let on_show_all = {
        let linked = linked.clone();
        Callback::from(move |_: MouseEvent| linked.set(crate::model::selection::Selection::None))
    };

    html! {
        <div class="analysis" data-testid="analysis">
            { chooser }
            <p class={status_class} data-testid="run-status">
                <span class="run-config">{ run.spec.describe() }</span>{ ": " }{ status }
            </p>
            if !fresh {
                <p class="hint stale">{ "The program changed since this run; press Analyze to run it again." }</p>
            }
            <div class="controls" data-testid="controls">
                <button data-testid="step-start" title="Back to event 0" onclick={ctl(Ctl::Start)}>{ "◀◀ Start" }</button>
                <button data-testid="step-back" title="Step back (←)" onclick={ctl(Ctl::Back)}>{ "◀ Step back" }</button>
                <button data-testid="step" title={if predicting { PREDICTING } else { "Step (→)" }} disabled={predicting} onclick={ctl(Ctl::Step)}>{ "Step ▶" }</button>
                <button data-testid="play" title={if predicting { PREDICTING } else { "Play / pause (space)" }} disabled={predicting} onclick={ctl(Ctl::TogglePlay)}>{ if playing { "Pause" } else { "Play" } }</button>
                <select data-testid="speed" title="Play speed" onchange={on_speed}>
                    { for SPEEDS.iter().map(|s| html! { <option value={s.to_string()} selected={*s == speed}>{ format!("{s} ev/s") }</option> }) }
                </select>
                <button data-testid="run-end" title={if predicting { PREDICTING } else { "Last event" }} disabled={predicting} onclick={ctl(Ctl::End)}>{ "Run to end ▶▶" }</button>
            </div>
            <div class="timeline">
                <label>{ "Events " }
                    <input data-testid="timeline" type="range" min="0" max={run.cursor.len().to_string()} value={panels.position.to_string()} oninput={on_slider}
                        disabled={predicting} title={if predicting { PREDICTING } else { "" }} />
                </label>
                <span data-testid="position" class="position">{ format!("event {} of {}", panels.position, panels.total) }</span>
            </div>
            if !cegar.is_empty() {
                <div class="iterations" data-testid="iterations">
                    <span class="bp-label">{ "CEGAR iterations: " }</span>
                    { for cegar.segments.iter().enumerate().map(|(i, start)| {
                        let end = cegar.segments.get(i + 1).copied().unwrap_or(run.cursor.len());
                        let shown = panels.position >= *start && (panels.position < end || i + 1 == cegar.segments.len());
                        let seek = { let on_seek = on_seek.clone(); let start = *start; Callback::from(move |_: MouseEvent| on_seek.emit(start)) };
                        let width = 100.0 * (end.saturating_sub(*start)) as f64 / run.cursor.len().max(1) as f64;
                        html! {
                            <button class={classes!("iteration", shown.then_some("shown"))} style={format!("flex-grow: {width:.3}")}
                                title={format!("iteration {} starts at event {start}", i + 1)} onclick={seek}>{ format!("{}", i + 1) }</button>
                        }
                    }) }
                </div>
            }
            <div class="breakpoints" title={if predicting { PREDICTING } else { "" }}>
                <fieldset class="chooser-fields" disabled={predicting}>
                <span class="bp-label">{ "Run to the " }</span>
                <button data-testid="bp-merge" onclick={ctl(Ctl::Break(Breakpoint::MergeChanged))}>{ Breakpoint::MergeChanged.label() }</button>
                <button data-testid="bp-covered" onclick={ctl(Ctl::Break(Breakpoint::Covered))}>{ Breakpoint::Covered.label() }</button>
                <button data-testid="bp-target" onclick={ctl(Ctl::Break(Breakpoint::Target))}>{ Breakpoint::Target.label() }</button>
                <button data-testid="bp-pop" onclick={ctl(Ctl::Break(Breakpoint::Pop))}>{ Breakpoint::Pop.label() }</button>
                <button data-testid="bp-widening" onclick={ctl(Ctl::Break(Breakpoint::Widening))}>{ Breakpoint::Widening.label() }</button>
                <button data-testid="bp-solver" onclick={ctl(Ctl::Break(Breakpoint::SolverCall))}>{ Breakpoint::SolverCall.label() }</button>
                <button data-testid="bp-refinement" onclick={ctl(Ctl::Break(Breakpoint::Refinement))}>{ Breakpoint::Refinement.label() }</button>
                </fieldset>
            </div>
            if fresh {
                <style>{ panels.highlight_css() }</style>
            }
            <div class="step-text" data-testid="step-text">{ if panels.step_text.is_empty() { "(before the first event)".to_string() } else { panels.step_text.clone() } }</div>
            if let Some(v) = &panels.verdict {
                <p class={classes!("verdict", format!("verdict-{}", v.split(' ').next().unwrap_or("").to_lowercase()))} data-testid="verdict">{ format!("Verdict: {v}") }</p>
            }
            if let Some(c) = &panels.int_model_caveat {
                <p class="int-model-caveat" data-testid="int-model-caveat" role="note">{ format!("⚠ {c}") }</p>
            }
            <p class="stats" data-testid="stats">{ panels.stats.clone() }</p>
            <crate::ui::predict::PredictPanel position={panels.position} next={next_step} computing={sh.computing}
                waitlist={crate::ui::predict::waitlist_choices(snap)} on_seek={on_reveal} on_mode={on_predict_mode} />
            <crate::ui::inspector::StateInspector choices={inspect_choices} auto={auto_state} resolve={resolve_state} />
            if !cegar.is_empty() {
                <style>{ cegar.path_css() }</style>
                <section class="cegar-panel" data-testid="cegar">
                    <h3>{ format!("CEGAR — iteration {}", cegar.iteration) }</h3>
                    if let Some(v) = &cegar.verdict {
                        <p class="cegar-verdict" data-testid="cegar-verdict">{ format!("Latest counterexample: {v}") }</p>
                        <ol class="cegar-path">{ for cegar.path.iter().map(|l| html! { <li>{ l.clone() }</li> }) }</ol>
                    }
                    if !cegar.interpolants.is_empty() {
                        <p class="cegar-sub">{ "Interpolants along the refuted path" }</p>
                        <ul class="cegar-interpolants" data-testid="cegar-interpolants">{ for cegar.interpolants.iter().map(|l| html! { <li>{ l.clone() }</li> }) }</ul>
                    }
                    <p class="cegar-sub">{ if cegar.precision.is_empty() { "Precision: nothing tracked".to_string() } else { "Precision (tracked variables; new ones marked)".to_string() } }</p>
                    <ul class="cegar-precision" data-testid="cegar-precision">
                        { for cegar.precision.iter().map(|(at, var, new)| html! {
                            <li class={classes!(new.then_some("new"))}>{ format!("{var} @ {at}") }</li>
                        }) }
                    </ul>
                </section>
            }
            <div class="panel-grid">
                <section class="panel">
                    <h3>{ format!("Waitlist ({})", panels.waitlist.len()) }</h3>
                    <ol class="states" data-testid="waitlist" onclick={on_state_click.clone()}>
                        { for panels.waitlist.iter().map(|s| state_item_linked(s, &selected_states)) }
                    </ol>
                </section>
                <section class="panel">
                    <h3>{ match &filter_node {
                        Some(n) => format!("Reached set ({} of {} — at {n})", reached_shown.iter().map(|g| g.states.len()).sum::<usize>(), panels.reached.iter().map(|g| g.states.len()).sum::<usize>()),
                        None => format!("Reached set ({})", panels.reached.iter().map(|g| g.states.len()).sum::<usize>()),
                    } }</h3>
                    if let Some(n) = &filter_node {
                        <p class="reached-filter" data-testid="reached-filter">
                            { format!("Filtered to {n} (selected in the CFA) ") }
                            <button class="link" onclick={on_show_all}>{ "show all" }</button>
                        </p>
                    }
                    <div data-testid="reached" onclick={on_state_click}>
                        { for reached_shown.iter().map(|g| html! {
                            <div class="loc-group" data-node={g.node.clone()}>
                                <div class="loc">{ format!("{} ({})", g.node, g.states.len()) }</div>
                                <ul class="states">{ for g.states.iter().map(|s| state_item_linked(s, &selected_states)) }</ul>
                            </div>
                        }) }
                    </div>
                </section>
            </div>
        </div>
    }
}

/// A state line that can be selected (linked selection): it carries its
/// key in `data-state` and is marked when selected.
fn state_item_linked(s: &StateLine, selected: &std::collections::BTreeSet<engine::trace::StateId>) -> Html {
    let is_selected = matches!(crate::model::selection::Selection::parse(&s.id), crate::model::selection::Selection::State(id) if selected.contains(&id));
    let class = classes!(
        "state",
        "selectable",
        s.current.then_some("current"),
        s.target.then_some("target"),
        s.involved.then_some("involved"),
        is_selected.then_some("selected")
    );
    html! {
        <li class={class} data-state={s.id.clone()} title="Click to select this state in every panel">
            <span class="sid">{ s.id.clone() }</span>{ " " }
            <span class="sloc">{ format!("@{}", s.location) }</span>{ " " }
            <span class="stext">{ s.text.clone() }</span>
        </li>
    }
}
