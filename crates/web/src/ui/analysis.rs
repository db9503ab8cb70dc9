//! The analysis pane (Yew): the configuration chooser, the Analyze/Cancel
//! actions, the stepping controls and the panels of [`crate::model::analysis`].
//!
//! The pane's state is [`AnalysisState`]; every change goes through
//! [`AnalysisState::reduce`] (tested natively), and this module only renders
//! it and turns input into [`PaneAction`]s. The CPA+ algorithm runs in the
//! analysis engine's Web Worker ([`crate::ui::run::drive_in_worker`]) and
//! the pane folds the events it sends, so the page stays interactive while
//! a run computes and Cancel works at any time. Stepping only seeks the
//! [`engine::view::Cursor`] over the recorded events (step back is a seek,
//! never a re-run).
//!
//! Layout, so the algorithm fits one laptop screen: the chooser, then the
//! step toolbar (pinned: it stays in view), the current step with the
//! verdict, then one tab each for the state, the waitlist, the reached
//! set, predict mode and CEGAR (only the tab's body scrolls), and the
//! solver log closed to one line below.

use std::cell::RefCell;
use std::rc::Rc;

use gloo_events::{EventListener, EventListenerOptions};
use gloo_timers::future::TimeoutFuture;
use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlSelectElement, KeyboardEvent};
use yew::prelude::*;

use crate::model::analysis::{
    break_target, AnalysisState, BreakTarget, Breakpoint, CegarView, Ctl, LocationGroup, PaneAction, PaneEffect, Panels, Run,
    Tab, PRESETS, PROGRAM_BROKEN,
};
use crate::model::state_list::{reached_rows, ListRow, Window};
use crate::ui::run::{drive_in_worker, CancelFlag};
use crate::ui::state_list::{state_item, WindowedStates};

/// Why the forward controls are disabled in predict mode.
const PREDICTING: &str = "Predict mode: answer the questions below, then “Show the step”";

/// The keyboard shortcuts, as the help popover lists them.
const SHORTCUTS: &[(&str, &str)] = &[
    ("→ / ←", "next / previous algorithm step (from a pop to the next)"),
    ("Shift+→ / Shift+←", "one event forward / back"),
    ("Space", "play / pause (one event per tick)"),
    ("Home / End", "first / last event"),
    ("← / → on a tab", "previous / next tab (Home / End: first / last)"),
    ("?", "show or hide this list"),
    ("Esc", "close this list and other dialogs"),
];

/// Play speeds offered (events per second).
const SPEEDS: &[u32] = &[2, 5, 10, 30, 100];

/// The pane's state and its running tasks, as the callbacks hold them.
#[derive(Clone)]
struct Pane {
    /// The pane's state, changed only by [`Pane::dispatch`]. A shared cell
    /// rather than `use_reducer`: a run (its trace, and its verifier until
    /// it is handed to the engine's worker) cannot be cloned, and the
    /// computing task folds the worker's events into it in place.
    state: Rc<RefCell<AnalysisState>>,
    redraw: UseForceUpdateHandle,
    /// The computing task's cancel flag (a task handle, not rendered).
    computing: Rc<RefCell<CancelFlag>>,
    /// The playing task's cancel flag (a task handle, not rendered).
    playing: Rc<RefCell<CancelFlag>>,
}

/// Two handles are equal when they are the same pane (Yew compares props).
impl PartialEq for Pane {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.state, &other.state)
    }
}

impl Pane {
    /// Reduces `action`, does what it asks of the page, and redraws.
    fn dispatch(&self, action: PaneAction) {
        self.apply(action, true);
    }

    /// Reduces `action` and does what it asks of the page; `redraw`: and
    /// renders the pane again (not needed when only a form field the user
    /// just set changed).
    fn apply(&self, action: PaneAction, redraw: bool) {
        let effect = self.state.borrow_mut().reduce(action);
        match effect {
            PaneEffect::None => {}
            PaneEffect::SaveSpec => crate::platform::storage::save_spec(&self.state.borrow().spec),
            PaneEffect::StopComputing => self.computing.borrow().cancel(),
            PaneEffect::Compute => {
                let cancel = replace_task(&self.computing);
                let (state, redraw) = (self.state.clone(), self.redraw.clone());
                wasm_bindgen_futures::spawn_local(async move {
                    drive_in_worker(state, cancel, move |_| redraw.force_update()).await;
                });
            }
            PaneEffect::Play => {
                let cancel = replace_task(&self.playing);
                let pane = self.clone();
                wasm_bindgen_futures::spawn_local(async move { pane.play(cancel).await });
            }
        }
        if redraw {
            self.redraw.force_update();
        }
    }

    /// A callback that dispatches what `f` makes of the event (if anything).
    fn on<E: 'static>(&self, f: impl Fn(E) -> Option<PaneAction> + 'static) -> Callback<E> {
        self.on_field(true, f)
    }

    /// Like [`Pane::on`]; `redraw: false` for a form field whose own value
    /// is all that changed.
    fn on_field<E: 'static>(&self, redraw: bool, f: impl Fn(E) -> Option<PaneAction> + 'static) -> Callback<E> {
        let pane = self.clone();
        Callback::from(move |e: E| {
            if let Some(action) = f(e) {
                pane.apply(action, redraw);
            }
        })
    }

    /// A button's stepping control.
    fn ctl(&self, c: Ctl) -> Callback<MouseEvent> {
        self.on(move |_: MouseEvent| Some(PaneAction::Control(c)))
    }

    /// Moves the shown position one event per tick while playing.
    async fn play(self, cancel: CancelFlag) {
        loop {
            let speed = self.state.borrow().speed.max(1);
            TimeoutFuture::new(1000 / speed).await;
            if cancel.cancelled() || !self.state.borrow().playing {
                return;
            }
            self.dispatch(PaneAction::PlayTick);
        }
    }
}

/// Cancels the task of `slot` and gives a new task its flag.
fn replace_task(slot: &RefCell<CancelFlag>) -> CancelFlag {
    let fresh = CancelFlag::new();
    slot.replace(fresh.clone()).cancel();
    fresh
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
    let pane = Pane {
        state: use_mut_ref(|| AnalysisState::new(crate::platform::storage::load_spec().unwrap_or_default())),
        redraw: use_force_update(),
        computing: use_mut_ref(CancelFlag::new),
        playing: use_mut_ref(CancelFlag::new),
    };
    let links = crate::ui::share::use_share_links();

    // Opened with a share link: its configuration, and its step once computed.
    {
        let (pane, source) = (pane.clone(), props.source.clone());
        use_effect_with((), move |_| {
            // What a share link carries: the run shown, else the chooser.
            let probe = pane.state.clone();
            links.register_analysis(Box::new(move || probe.borrow().shared()));
            if let Some((spec, position)) = crate::ui::share::take_restore() {
                pane.dispatch(PaneAction::Restore { source, spec, position });
            }
        });
    }

    // The keyboard shortcuts (SHORTCUTS) — anywhere except in form fields.
    {
        let pane = pane.clone();
        use_effect_with((), move |_| {
            let listener = step_keys(pane);
            move || drop(listener)
        });
    }

    // A program that no longer lowers greys out the old run (the model
    // refuses to step it).
    {
        let pane = pane.clone();
        use_effect_with(props.analyzable, move |ok| {
            if pane.state.borrow().program_ok != *ok {
                pane.dispatch(PaneAction::ProgramOk(*ok));
            }
        });
    }

    let st = pane.state.borrow();
    let chooser = html! {
        <Chooser pane={pane.clone()} spec={st.spec.clone()} source={props.source.clone()} analyzable={props.analyzable}
            locked={props.locked} computing={st.computing}
            config_error={st.error.clone().filter(|e| crate::model::analysis::is_config_error(e))} />
    };

    // A solver-backed configuration (restored, or just picked) starts
    // loading Z3 in its worker now, not at Analyze's first query.
    use_effect_with(st.spec.clone(), |spec| {
        if spec.uses_solver() {
            crate::platform::z3_worker::prefetch(crate::platform::engine_worker::computing);
        }
    });

    // The editor highlights the line of the edge being processed (a hook:
    // called on every render, before any early return).
    let shown = st.run.as_ref().map(|run| Panels::of(&run.program, &run.cursor, &run.lines));
    use_effect_with(shown.as_ref().and_then(|p| p.current_line).filter(|_| st.run_source == props.source), |line| {
        crate::platform::codemirror::highlight_line(crate::model::editor::LineKind::Current, *line)
    });
    // ... and the line of the selected state, node or edge (crate::model::selection).
    let selection = crate::ui::selection::use_selection().selection;
    // Before any run (or after an edit), a selected node or edge is resolved
    // against the program's own CFA, lowered once per program text.
    let no_fresh_run = st.run.is_none() || st.run_source != props.source;
    let own_program = use_memo((props.source.clone(), no_fresh_run && !selection.is_none()), |(source, needed)| {
        if *needed {
            cfa::from_source(source).ok()
        } else {
            None
        }
    });
    let selected_line = match st.run.as_ref().filter(|_| !no_fresh_run) {
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
    // Hidden tab bodies, kept rather than rendered at every step.
    let kept = use_mut_ref(KeptBodies::default);
    let frame =
        st.run.as_ref().map(|run| run_frame(&mut frame_cache.borrow_mut(), st.run_id, run, st.run_source == props.source));
    {
        let on_frame = props.on_frame.clone();
        use_effect_with(frame, move |f| on_frame.emit(f.clone()));
    }

    let solver_log = {
        let on_toggle = pane.on(|open: bool| Some(PaneAction::SolverLog(open)));
        html! { <crate::ui::solver::SolverPanel open={st.solver_open} {on_toggle} /> }
    };
    let Some(run) = st.run.as_ref() else {
        return html! {
            <>
                <div class="analysis" data-testid="analysis">
                    { chooser }
                    if let Some(e) = &st.error {
                        <p class="status status-error" data-testid="run-status">{ e.clone() }</p>
                    } else {
                        <p class="hint">{ "Choose a configuration and press Analyze to run the CPA+ reachability algorithm; then step through it, one algorithm step (from a waitlist pop to the next) or one event at a time." }</p>
                    }
                </div>
                { solver_log }
            </>
        };
    };

    let parts = PaneParts { chooser, kept: &mut kept.borrow_mut() };
    let view = run_view(&pane, &st, run, &shown.unwrap_or_default(), st.run_source == props.source, &linked, parts);
    html! { <>{ view }{ solver_log }</> }
}

/// Tab bodies kept while their tab is hidden. A hidden body is not built
/// again at every step: the pane passes the kept vnode, whose component
/// props are unchanged, so Yew leaves the component (and its own state,
/// e.g. the state chosen in the inspector) alone. Showing the tab builds
/// it at the shown position again.
#[derive(Default)]
struct KeptBodies {
    /// The State tab: the state inspector and the memory regions.
    state: Option<Html>,
    /// The Predict tab.
    predict: Option<Html>,
}

impl KeptBodies {
    /// `slot`'s kept body while hidden (`!shown`), else a new one from
    /// `make`, kept for later.
    fn body(slot: &mut Option<Html>, shown: bool, make: impl FnOnce() -> Html) -> Html {
        match slot {
            Some(kept) if !shown => kept.clone(),
            _ => slot.insert(make()).clone(),
        }
    }
}

/// What the pane's view gets besides the run: the chooser, built by its
/// component, and the kept tab bodies.
struct PaneParts<'a> {
    chooser: Html,
    kept: &'a mut KeptBodies,
}

/// The pane with a run: its status, the step toolbar, the current step and
/// the tabs. `fresh`: the editor still holds the program the run analysed.
fn run_view(
    pane: &Pane,
    st: &AnalysisState,
    run: &Run,
    panels: &Panels,
    fresh: bool,
    linked: &crate::ui::selection::SelectionContext,
    parts: PaneParts,
) -> Html {
    let PaneParts { chooser, kept } = parts;
    // Linked selection: a selected CFA node filters the reached set; a
    // clicked state is selected everywhere (crate::model::selection).
    let snap = run.cursor.snapshot();
    let selected_states = linked.selection.resolve(&run.program, Some(snap)).states;
    // CEGAR, counterexample checks and restarts (empty for plain runs).
    let cegar = CegarView::at(&run.program, &run.cursor);
    let filter_node = linked.selection.node().map(|n| n.to_string()).filter(|_| fresh);
    let (status, status_class) = run_status(st, run);
    // Block-abstraction memoization: the Blocks tab (only for BAM runs).
    let blocks = crate::model::blocks::is_bam_run(run.cursor.events())
        .then(|| crate::model::blocks::BlockPanel::of(&run.program, snap, run.cursor.events()));
    let checks = crate::model::blocks::CounterexampleChecks::at(run.cursor.events(), snap.position);
    let tab = match st.tab {
        Tab::Cegar if cegar.is_empty() => Tab::Reached,
        Tab::Blocks if blocks.is_none() => Tab::Reached,
        t => t,
    };
    // A hidden tab with a long (windowed) list renders nothing until shown.
    let reached_len = panels.reached.iter().map(|g| 1 + g.states.len()).sum::<usize>();
    let body = |t: Tab, content: Html| {
        html! {
            <div class={classes!("tab-body", format!("tab-body-{}", t.key()))} data-testid={format!("tab-body-{}", t.key())} hidden={t != tab}
                id={format!("tab-body-{}", t.key())} role="tabpanel" tabindex="0" aria-labelledby={format!("tab-{}", t.key())}>{ content }</div>
        }
    };

    html! {
        <div class={classes!("analysis", (!st.program_ok).then_some("program-broken"))} data-testid="analysis">
            { chooser }
            <p class={status_class} data-testid="run-status" title={status.clone()}>
                <span class="run-config">{ run.spec.describe() }</span>{ ": " }{ status }
            </p>
            if !st.program_ok {
                <p class="hint stale" data-testid="run-blocked" role="note">{ PROGRAM_BROKEN }</p>
            } else if !fresh {
                <p class="hint stale">{ "The program changed since this run; press Analyze to run it again." }</p>
            }
            <div class="step-toolbar" data-testid="step-toolbar">
                { controls(pane, st, run, panels) }
                if !cegar.is_empty() {
                    { iterations(pane, &cegar, run, panels) }
                }
                { breakpoints(pane, st, run) }
            </div>
            if !cegar.is_empty() {
                <style>{ cegar.path_css() }</style>
            }
            { step_panels(panels, html! {
                <crate::ui::error_path::ErrorPathPanel view={crate::model::error_path::ErrorPathView::of(&run.program, snap).filter(|_| fresh)} checks={checks.clone()} />
            }) }
            { tab_bar(pane, tab, panels, !cegar.is_empty(), blocks.is_some(), st.predicting) }
            { body(Tab::State, KeptBodies::body(&mut kept.state, tab == Tab::State, || inspect(pane, run))) }
            { body(Tab::Waitlist, if tab == Tab::Waitlist || !Window::applies(panels.waitlist.len()) { waitlist_panel(panels, &selected_states, linked) } else { Html::default() }) }
            { body(Tab::Reached, if tab == Tab::Reached || !Window::applies(reached_len) { reached_panel(panels, &selected_states, filter_node, linked) } else { Html::default() }) }
            { body(Tab::Predict, KeptBodies::body(&mut kept.predict, tab == Tab::Predict, || predict(pane, st, run, panels))) }
            if !cegar.is_empty() {
                { body(Tab::Cegar, cegar_panel(&cegar, &checks)) }
            }
            if let Some(b) = &blocks {
                { body(Tab::Blocks, crate::ui::blocks::blocks_panel(b, &selected_states, on_state_click(linked))) }
            }
        </div>
    }
}

/// The graph views' frame of `run` at its shown position, from `cache`
/// when nothing they show changed.
fn run_frame(
    cache: &mut Option<Rc<crate::ui::graphs::RunFrame>>,
    run_id: u64,
    run: &Run,
    fresh: bool,
) -> Rc<crate::ui::graphs::RunFrame> {
    let snap = run.cursor.snapshot();
    match cache.as_ref() {
        Some(f)
            if f.run_id == run_id
                && f.fresh == fresh
                && f.snapshot.position == snap.position
                && f.snapshot.states.len() == snap.states.len()
                && f.events_len == run.cursor.len() =>
        {
            f.clone()
        }
        previous => {
            let f = Rc::new(crate::ui::graphs::RunFrame::new(run_id, run, fresh, previous.map(|p| p.as_ref())));
            *cache = Some(f.clone());
            f
        }
    }
}

/// Elements that Space and Enter operate when they have the focus, so the
/// step keys leave those two keys to them.
const FOCUSED_CONTROL: &str = "button, a[href], summary, [role=button], [role=tab], [role=checkbox], [tabindex]";

/// The document's key listener ([`SHORTCUTS`]) — anywhere except in form
/// fields and the code editor.
fn step_keys(pane: Pane) -> Option<EventListener> {
    let document = web_sys::window().and_then(|w| w.document())?;
    // Not passive: the arrow keys and space must not scroll the page.
    Some(EventListener::new_with_options(&document, "keydown", EventListenerOptions::enable_prevent_default(), move |e| {
        let Some(e) = e.dyn_ref::<KeyboardEvent>() else { return };
        if e.ctrl_key() || e.alt_key() || e.meta_key() {
            return;
        }
        let target = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok());
        let in_field = target.as_ref().is_some_and(|el| {
            matches!(el.tag_name().as_str(), "TEXTAREA" | "INPUT" | "SELECT")
                    // The code editor (CodeMirror's contenteditable).
                    || el.closest("[contenteditable=true]").ok().flatten().is_some()
        });
        // Space and Enter press a focused button, tab, summary or graph
        // node (keyboard use); only elsewhere is space Play / pause.
        let on_control = target.as_ref().is_some_and(|el| el.closest(FOCUSED_CONTROL).ok().flatten().is_some());
        if on_control && matches!(e.key().as_str(), " " | "Enter") {
            return;
        }
        // A dialog on top (compare view, gallery, Make exercise) has the
        // keys; the pane's own help popover does not.
        let dialog_open = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.query_selector("[role=dialog]:not([data-testid=help-pop])").ok().flatten())
            .is_some();
        if in_field || dialog_open {
            return;
        }
        // On a focused tab, the arrows, Home and End move among its tabs
        // (the ARIA tabs pattern) instead of stepping the analysis.
        if let Some(tab) = target.as_ref().filter(|el| el.get_attribute("role").as_deref() == Some("tab")) {
            if !e.shift_key() && crate::ui::tabs::move_among_tabs(tab, &e.key()) {
                e.prevent_default();
                return;
            }
        }
        let action = match (e.key().as_str(), e.shift_key()) {
            ("ArrowRight", false) => PaneAction::Control(Ctl::Step),
            ("ArrowLeft", false) => PaneAction::Control(Ctl::Back),
            ("ArrowRight", true) => PaneAction::Control(Ctl::EventStep),
            ("ArrowLeft", true) => PaneAction::Control(Ctl::EventBack),
            ("Home", _) => PaneAction::Control(Ctl::Start),
            ("End", _) => PaneAction::Control(Ctl::End),
            (" ", _) => PaneAction::Control(Ctl::TogglePlay),
            ("?", _) => PaneAction::Help(!pane.state.borrow().help_open),
            _ => return,
        };
        e.prevent_default();
        pane.dispatch(action);
    }))
}

/// Properties of [`Chooser`]: what it shows, so that stepping (which
/// changes none of them) does not render it again.
#[derive(Properties, PartialEq)]
struct ChooserProps {
    /// The pane the chooser's actions go to.
    pane: Pane,
    /// The configuration chosen.
    spec: crate::model::analysis::RunSpec,
    /// The editor's program text (what Analyze runs).
    source: String,
    /// Whether the program lowers to a CFA.
    analyzable: bool,
    /// An exercise locks the configuration.
    locked: bool,
    /// A run is being computed (Analyze waits, Cancel is offered).
    computing: bool,
    /// The last run's configuration error, shown by the configuration panel.
    config_error: Option<String>,
}

/// The configuration chooser: preset, integer model, step limit, Analyze /
/// Cancel and the configuration panel. A component of its own with
/// value props: a step re-renders the pane but not these ~100 elements.
#[function_component(Chooser)]
fn chooser(props: &ChooserProps) -> Html {
    let pane = &props.pane;
    let on_preset = pane.on(|e: Event| Some(PaneAction::Preset(e.target_unchecked_into::<HtmlSelectElement>().value())));
    let on_model = pane.on_field(false, |e: Event| {
        let sel: HtmlSelectElement = e.target_unchecked_into();
        Some(PaneAction::IntModel(if sel.value() == "c" { minic::IntModel::C } else { minic::IntModel::Math }))
    });
    let on_limit = pane.on_field(false, |e: Event| {
        let input: HtmlInputElement = e.target_unchecked_into();
        input.value().trim().parse::<u64>().ok().map(PaneAction::StepLimit)
    });
    let on_analyze = {
        let source = props.source.clone();
        pane.on(move |_: MouseEvent| Some(PaneAction::Analyze(source.clone())))
    };
    let on_cancel = pane.on(|_: MouseEvent| Some(PaneAction::Cancel));
    // The configuration panel's text (None: the plain preset).
    let on_properties = pane.on(|text: Option<String>| Some(PaneAction::Properties(text)));
    let spec = &props.spec;
    html! {
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
            <button class="primary" data-testid="analyze" disabled={!props.analyzable || props.computing} onclick={on_analyze}
                title={if !props.analyzable { "The program has errors (see the CFA pane): fix them to analyze it" } else if props.computing { "A run is being computed" } else { "Run the CPA+ algorithm with this configuration" }}>{ "Analyze" }</button>
            if !props.analyzable {
                <span class="analyze-why" data-testid="analyze-why">{ "fix the program's errors to analyze it" }</span>
            }
            if props.computing {
                <button data-testid="cancel" onclick={on_cancel}>{ "Cancel" }</button>
            }
            <fieldset class="chooser-fields" disabled={props.locked}>
                <crate::ui::config_panel::ConfigPanel preset={spec.preset.clone()} properties={spec.properties.clone()} on_change={on_properties}
                    run_problem={props.config_error.clone()} />
            </fieldset>
            if props.locked {
                <span class="chip" data-testid="config-locked">{ "locked by the exercise" }</span>
            }
        </div>
    }
}

/// The run's status line and its class (computing, cancelled, or the
/// verdict and why).
fn run_status(st: &AnalysisState, run: &Run) -> (String, &'static str) {
    let steps = run.steps();
    let status = if st.computing {
        format!("computing… {steps} steps, {} events so far", run.cursor.len())
    } else if st.cancelled && !run.finished() {
        format!("cancelled after {steps} steps ({} events); the trace so far can be stepped", run.cursor.len())
    } else {
        let outcome = run.cursor.events().iter().rev().find_map(|e| match e {
            engine::trace::Event::AnalysisFinished { verdict, reason, .. } => Some(format!("{} — {reason}", verdict.upper())),
            _ => None,
        });
        format!("{} ({steps} steps, {} events)", outcome.unwrap_or_else(|| "finished".into()), run.cursor.len())
    };
    (status, if st.computing { "run-status computing" } else { "run-status done" })
}

/// The stepping controls and the timeline: whole algorithm steps (◀ Step,
/// Step ▶, a step number to go to), single events, play, the ends, the
/// keyboard shortcuts, and where the shown position is.
fn controls(pane: &Pane, st: &AnalysisState, run: &Run, panels: &Panels) -> Html {
    // In predict mode only the prediction reveals what comes next; a broken
    // program's old run cannot be stepped at all.
    let (predicting, broken) = (st.predicting, !st.program_ok);
    let why_not = |forward: bool| {
        if broken {
            Some(PROGRAM_BROKEN)
        } else if forward && predicting {
            Some(PREDICTING)
        } else {
            None
        }
    };
    let (pos, len) = (panels.position, run.cursor.len());
    // `name`: what a screen reader says (the labels are arrows).
    let button = |id: &'static str,
                  label: &'static str,
                  name: &'static str,
                  title: &'static str,
                  ctl: Ctl,
                  forward: bool,
                  at_end: bool| {
        let why = why_not(forward);
        html! {
            <button data-testid={id} aria-label={name} title={why.unwrap_or(title)} disabled={why.is_some() || at_end} onclick={pane.ctl(ctl)}>{ label }</button>
        }
    };
    let on_speed = pane.on_field(false, |e: Event| {
        Some(PaneAction::Speed(e.target_unchecked_into::<HtmlSelectElement>().value().parse().unwrap_or(10)))
    });
    let on_slider = pane.on(|e: InputEvent| {
        let input: HtmlInputElement = e.target_unchecked_into();
        input.value().parse::<usize>().ok().map(|k| PaneAction::Control(Ctl::Seek(k)))
    });
    let on_step_number = pane.on(|e: Event| {
        let input: HtmlInputElement = e.target_unchecked_into();
        input.value().trim().parse::<usize>().ok().map(|k| PaneAction::Control(Ctl::GoToStep(k)))
    });
    let on_help = pane.on({
        let open = st.help_open;
        move |_: MouseEvent| Some(PaneAction::Help(!open))
    });
    let play_why = why_not(true);
    html! {
        <>
            <div class="controls" data-testid="controls" role="group" aria-label="Step through the analysis">
                // The ends' own buttons stay enabled (a no-op there).
                { button("step-start", "◀◀", "To event 0", "Back to event 0 (Home)", Ctl::Start, false, false) }
                { button("step-back", "◀ Step", "Step back", "One algorithm step back (←)", Ctl::Back, false, pos == 0) }
                { button("step", "Step ▶", "Step", "One algorithm step: from the waitlist pop to the next (→)", Ctl::Step, true, pos >= len) }
                <span class="event-buttons" title="One event at a time">
                    { button("event-back", "‹", "Event back", "One event back (Shift+←)", Ctl::EventBack, false, pos == 0) }
                    <span class="event-label">{ "event" }</span>
                    { button("event-next", "›", "Event forward", "One event forward (Shift+→)", Ctl::EventStep, true, pos >= len) }
                </span>
                <button data-testid="play" title={play_why.unwrap_or("Play / pause: one event per tick (space)")} disabled={play_why.is_some()} onclick={pane.ctl(Ctl::TogglePlay)}>{ if st.playing { "Pause" } else { "Play" } }</button>
                <select data-testid="speed" title="Play speed" aria-label="Play speed" onchange={on_speed}>
                    { for SPEEDS.iter().map(|s| html! { <option value={s.to_string()} selected={*s == st.speed}>{ format!("{s} ev/s") }</option> }) }
                </select>
                { button("run-end", "▶▶", "To the last event", "To the last event (End)", Ctl::End, true, false) }
                <label class="step-number" title="Go to the end of this algorithm step (0: before the first pop)">{ "step " }
                    <input data-testid="step-number" type="number" min="0" max={run.steps().to_string()} value={panels.step.to_string()}
                        onchange={on_step_number} disabled={broken} />
                    { format!(" / {}", run.steps()) }
                </label>
                <button class="help-button" data-testid="help" title="Keyboard shortcuts (?)" aria-expanded={st.help_open.to_string()} onclick={on_help.clone()}>{ "?" }</button>
                if st.help_open {
                    { help_popover(on_help) }
                }
            </div>
            <div class="timeline">
                <input data-testid="timeline" type="range" min="0" max={len.to_string()} value={pos.to_string()} oninput={on_slider}
                    disabled={predicting || broken} title={why_not(true).unwrap_or("Events")} aria-label="Event position" />
                <span data-testid="position" class="position" data-event={pos.to_string()} data-step={panels.step.to_string()}>{ panels.position_text.clone() }</span>
            </div>
        </>
    }
}

/// The keyboard shortcuts ([`SHORTCUTS`]) in a popover.
fn help_popover(on_close: Callback<MouseEvent>) -> Html {
    html! {
        <div class="help-pop" data-testid="help-pop" role="dialog" aria-label="Keyboard shortcuts">
            <div class="help-head">
                <strong>{ "Keyboard shortcuts" }</strong>
                <button onclick={on_close} aria-label="Close the keyboard shortcuts">{ "✕" }</button>
            </div>
            <table>
                { for SHORTCUTS.iter().map(|(keys, what)| html! { <tr><th><kbd>{ *keys }</kbd></th><td>{ *what }</td></tr> }) }
            </table>
            <p class="hint">{ "An algorithm step is one pass of the main loop: pop a state, compute its successors, merge, stop. The step text lists its events; the line below it describes the last event shown." }</p>
        </div>
    }
}

/// The CEGAR iterations as segments of the timeline (a click goes to an
/// iteration's start).
fn iterations(pane: &Pane, cegar: &CegarView, run: &Run, panels: &Panels) -> Html {
    html! {
        <div class="iterations" data-testid="iterations">
            <span class="bp-label">{ "CEGAR iterations: " }</span>
            { for cegar.segments.iter().enumerate().map(|(i, start)| {
                let end = cegar.segments.get(i + 1).copied().unwrap_or(run.cursor.len());
                let shown = panels.position >= *start && (panels.position < end || i + 1 == cegar.segments.len());
                let seek = pane.ctl(Ctl::Seek(*start));
                let width = 100.0 * (end.saturating_sub(*start)) as f64 / run.cursor.len().max(1) as f64;
                html! {
                    <button class={classes!("iteration", shown.then_some("shown"))} style={format!("flex-grow: {width:.3}")}
                        title={format!("iteration {} starts at event {start}", i + 1)} onclick={seek}>{ format!("{}", i + 1) }</button>
                }
            }) }
        </div>
    }
}

/// "Run to the next …" breakpoint buttons; one without a target says so
/// ("none in this run") instead of jumping to the end.
fn breakpoints(pane: &Pane, st: &AnalysisState, run: &Run) -> Html {
    let blocked = st.predicting || !st.program_ok;
    let title = if !st.program_ok {
        PROGRAM_BROKEN
    } else if st.predicting {
        PREDICTING
    } else {
        ""
    };
    html! {
        <div class="breakpoints" title={title}>
            <span class="bp-label">{ "Run to the next" }</span>
            { for Breakpoint::ALL.iter().filter(|bp| bp.offered(run)).map(|&bp| {
                let target = break_target(run, bp);
                let none = matches!(target, BreakTarget::NoneAfterHere | BreakTarget::NoneInRun);
                // Only "none in this run" is spelled out on the button; "none
                // after this point" is its tooltip (it would fill rows).
                let spelled = target == BreakTarget::NoneInRun;
                html! {
                    <button data-testid={bp.key()} class={classes!(none.then_some("bp-none"))} disabled={blocked || none}
                        title={format!("Run to the {}{}", bp.label(), if none { format!(": {}", target.note()) } else { String::new() })} onclick={pane.ctl(Ctl::Break(bp))}>
                        { bp.short() }
                        if spelled {
                            <span class="bp-note">{ format!(" — {}", target.note()) }</span>
                        }
                    </button>
                }
            }) }
            if let Some(n) = &st.notice {
                <span class="bp-notice" data-testid="bp-notice" role="status">{ n.clone() }</span>
            }
        </div>
    }
}

/// The verdict (first, so it is never cut off) with the error path of a
/// FALSE (`error_path`), the current step in words, the last event in
/// words, the integer caveat and the statistics.
fn step_panels(panels: &Panels, error_path: Html) -> Html {
    html! {
        <div class="now" data-testid="now">
            // Live regions: a screen reader announces the verdict when it
            // arrives and each step's text as the student steps.
            <div class="verdict-region" role="status">
                if let Some(v) = &panels.verdict {
                    <p class={classes!("verdict", format!("verdict-{}", v.split(' ').next().unwrap_or("").to_lowercase()))} data-testid="verdict">{ format!("Verdict: {v}") }</p>
                }
            </div>
            if let Some(c) = &panels.int_model_caveat {
                <p class="int-model-caveat" data-testid="int-model-caveat" role="note">{ format!("⚠ {c}") }</p>
            }
            { error_path }
            <div class="step-text" data-testid="step-text" role="status" tabindex="0">{ if panels.step_text.is_empty() { "(before the first event)".to_string() } else { panels.step_text.clone() } }</div>
            <p class="event-text" data-testid="event-text" title={panels.event_text.clone()}>
                if panels.position > 0 {
                    <span class="event-no">{ format!("event {}: ", panels.position) }</span>{ panels.event_text.clone() }
                } else {
                    { "before the first event" }
                }
            </p>
            <p class="stats" data-testid="stats">{ panels.stats.clone() }</p>
            if let Some(x) = &panels.symexec {
                { symexec_stats(x) }
            }
        </div>
    }
}

/// Symbolic execution's statistics as one line of labelled numbers
/// (paths explored, abstraction points, pruned paths, infeasible branches,
/// solver queries, refinements).
fn symexec_stats(x: &crate::model::analysis::SymExecStats) -> Html {
    html! {
        <p class="symexec-stats" data-testid="symexec-stats" title="symbolic execution so far (all CEGAR iterations)">
            { for x.entries().into_iter().map(|(label, n, testid)| html! {
                <span class="symexec-stat" data-testid={testid}><b>{ n.to_string() }</b>{ format!(" {label}") }</span>
            }) }
        </p>
    }
}

/// The precision function p of symbolic execution with implicit predicate
/// abstraction as a table: location, threshold, predicates; the rows the
/// latest refinement changed marked.
fn precision_function_table(rows: &[crate::model::analysis::PrecisionFunctionRow]) -> Html {
    html! {
        <>
            <p class="cegar-sub">{ "Precision function p (abstraction locations; rows the latest refinement changed marked)" }</p>
            <table class="precision-function" data-testid="cegar-precision-function">
                <thead><tr><th>{ "location" }</th><th>{ "threshold" }</th><th>{ "predicates" }</th></tr></thead>
                <tbody>
                    { for rows.iter().map(|r| html! {
                        <tr class={classes!(r.changed.then_some("new"))} data-location={r.location.clone()}>
                            <td>{ if r.line > 0 { format!("{} (line {})", r.location, r.line) } else { r.location.clone() } }</td>
                            <td class="num">{ r.threshold.to_string() }</td>
                            <td class="preds">{ if r.predicates.is_empty() { "—".to_string() } else { r.predicates.join(", ") } }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
        </>
    }
}

/// The tabs: each panel one click away.
fn tab_bar(pane: &Pane, shown: Tab, panels: &Panels, cegar: bool, blocks: bool, predicting: bool) -> Html {
    let reached: usize = panels.reached.iter().map(|g| g.states.len()).sum();
    html! {
        <div class="tabs" role="tablist" aria-label="What the analysis holds at this step" data-testid="tabs">
            { for Tab::ALL.iter().filter(|t| (cegar || **t != Tab::Cegar) && (blocks || **t != Tab::Blocks)).map(|&t| {
                let label = match t {
                    Tab::State => "State".to_string(),
                    Tab::Waitlist => format!("Waitlist ({})", panels.waitlist.len()),
                    Tab::Reached => format!("Reached set ({reached})"),
                    Tab::Predict => if predicting { "Predict (on)".to_string() } else { "Predict".to_string() },
                    Tab::Cegar => "CEGAR".to_string(),
                    Tab::Blocks => "Blocks".to_string(),
                };
                html! {
                    <button role="tab" class={classes!("tab", (t == shown).then_some("active"))} aria-selected={(t == shown).to_string()}
                        tabindex={crate::ui::tabs::roving_tabindex(t == shown)}
                        id={format!("tab-{}", t.key())} aria-controls={format!("tab-body-{}", t.key())} data-testid={format!("tab-{}", t.key())} onclick={pane.on(move |_: MouseEvent| Some(PaneAction::Tab(t)))}>{ label }</button>
                }
            }) }
        </div>
    }
}

/// The state inspector at the shown position.
fn inspect(pane: &Pane, run: &Run) -> Html {
    let snap = run.cursor.snapshot();
    let auto_state = crate::model::state_view::auto_state(snap, run.cursor.events());
    let inspect_choices = crate::ui::inspector::choices(snap, run.cursor.events(), auto_state);
    let resolve_state = {
        let state = pane.state.clone();
        Callback::from(move |id: engine::trace::StateId| {
            state.borrow().run.as_ref().and_then(|r| crate::model::state_view::detail(r.cursor.snapshot(), id))
        })
    };
    html! {
        <>
            <crate::ui::inspector::StateInspector choices={inspect_choices} auto={auto_state} resolve={resolve_state}
                shown_merge={crate::model::merge_card::ShownMerge::of(snap.position, run.cursor.events())} />
            <crate::ui::memory_view::MemorySection program={run.program.clone()}
                active={crate::model::memory_view::memory_model_of(run.cursor.events())} />
        </>
    }
}

/// Predict mode at the shown position.
fn predict(pane: &Pane, st: &AnalysisState, run: &Run, panels: &Panels) -> Html {
    let snap = run.cursor.snapshot();
    let next_step = crate::model::predict::StepOutcome::next(run.cursor.events(), run.cursor.position(), run.finished());
    let abstraction = next_step.as_ref().and_then(|step| crate::model::predict::abstraction_question(run.cursor.events(), step));
    let on_reveal = pane.on(|k: usize| Some(PaneAction::Control(Ctl::Reveal(k))));
    let on_predict_mode = pane.on(|on: bool| Some(PaneAction::Predicting(on)));
    html! {
        <crate::ui::predict::PredictPanel position={panels.position} next={next_step} {abstraction} computing={st.computing}
            waitlist={crate::ui::predict::waitlist_choices(snap)} on_seek={on_reveal} on_mode={on_predict_mode} />
    }
}

/// CEGAR's iteration, latest counterexample, interpolants and precision.
fn cegar_panel(cegar: &CegarView, checks: &crate::model::blocks::CounterexampleChecks) -> Html {
    html! {
        <>
            <section class="cegar-panel" data-testid="cegar">
                <h3>{ format!("CEGAR — iteration {}", cegar.iteration) }</h3>
                if let Some(v) = &cegar.verdict {
                    <p class="cegar-verdict" data-testid="cegar-verdict">{ format!("Latest counterexample: {v}") }</p>
                    if checks.several() {
                        <p class="cegar-sub">{ "Its checks, one after the other (each analysis checks the path with its own means)" }</p>
                        { crate::ui::blocks::checks_list(checks) }
                    }
                    <ol class="cegar-path">{ for cegar.path.iter().map(|l| html! { <li>{ l.clone() }</li> }) }</ol>
                }
                if !cegar.refiner.is_empty() {
                    <p class="cegar-refiner" data-testid="cegar-refiner">{ format!("Latest refinement: {}", cegar.refiner) }</p>
                }
                if !cegar.interpolants.is_empty() {
                    <p class="cegar-sub">{ "Interpolants along the refuted path (one per cut)" }</p>
                    <ul class="cegar-interpolants" data-testid="cegar-interpolants">{ for cegar.interpolants.iter().map(|l| html! { <li>{ l.clone() }</li> }) }</ul>
                }
                if !cegar.precision_function.is_empty() {
                    { precision_function_table(&cegar.precision_function) }
                } else if !cegar.predicates.is_empty() {
                    <p class="cegar-sub">{ "Predicate precision (the interpolants' atoms; new ones marked)" }</p>
                    <ul class="cegar-precision cegar-predicates" data-testid="cegar-predicates">
                        { for cegar.predicates.iter().map(|(at, p, new)| html! {
                            <li class={classes!(new.then_some("new"))}>{ format!("{p} {at}") }</li>
                        }) }
                    </ul>
                } else {
                <p class="cegar-sub">{ if cegar.precision.is_empty() { "Precision: nothing tracked".to_string() } else { "Precision (tracked variables; new ones marked)".to_string() } }</p>
                <ul class="cegar-precision" data-testid="cegar-precision">
                    { for cegar.precision.iter().map(|(at, var, new)| html! {
                        <li class={classes!(new.then_some("new"))}>{ format!("{var} @ {at}") }</li>
                    }) }
                </ul>
                }
            </section>
        </>
    }
}

/// A click on a state line selects that state in every panel.
fn on_state_click(linked: &crate::ui::selection::SelectionContext) -> Callback<MouseEvent> {
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
}

/// The waitlist in pop order, the state popped next marked; windowed when
/// long (`ui::state_list`).
fn waitlist_panel(
    panels: &Panels,
    selected_states: &std::collections::BTreeSet<engine::trace::StateId>,
    linked: &crate::ui::selection::SelectionContext,
) -> Html {
    if Window::applies(panels.waitlist.len()) {
        let rows: Vec<ListRow> = panels.waitlist.iter().cloned().map(ListRow::State).collect();
        return html! {
            <section class="panel vpanel">
                <WindowedStates rows={Rc::new(rows)} selected={Rc::new(selected_states.clone())} testid="waitlist" onclick={on_state_click(linked)} />
            </section>
        };
    }
    html! {
        <section class="panel">
            if panels.waitlist.is_empty() {
                <p class="hint">{ "The waitlist is empty." }</p>
            }
            <ol class="states" data-testid="waitlist" onclick={on_state_click(linked)}>
                { for panels.waitlist.iter().map(|s| state_item(s, selected_states)) }
            </ol>
        </section>
    }
}

/// The reached set (filtered to the CFA node selected, if any); windowed
/// when long (`ui::state_list`).
fn reached_panel(
    panels: &Panels,
    selected_states: &std::collections::BTreeSet<engine::trace::StateId>,
    filter_node: Option<String>,
    linked: &crate::ui::selection::SelectionContext,
) -> Html {
    let reached_shown: Vec<&LocationGroup> =
        panels.reached.iter().filter(|g| filter_node.as_ref().is_none_or(|n| &g.node == n)).collect();
    let on_show_all = {
        let linked = linked.clone();
        Callback::from(move |_: MouseEvent| linked.set(crate::model::selection::Selection::None))
    };
    let shown_rows = reached_shown.iter().map(|g| 1 + g.states.len()).sum::<usize>();
    html! {
        <section class={classes!("panel", Window::applies(shown_rows).then_some("vpanel"))}>
            if let Some(n) = &filter_node {
                <p class="reached-filter" data-testid="reached-filter">
                    { format!("{} of {} states — filtered to {n} (selected in the CFA) ", reached_shown.iter().map(|g| g.states.len()).sum::<usize>(), panels.reached.iter().map(|g| g.states.len()).sum::<usize>()) }
                    <button class="link" onclick={on_show_all}>{ "show all" }</button>
                </p>
            }
            if Window::applies(shown_rows) {
                <WindowedStates rows={Rc::new(reached_rows(reached_shown.iter().copied()))} selected={Rc::new(selected_states.clone())} testid="reached" onclick={on_state_click(linked)} />
            } else {
                <div data-testid="reached" onclick={on_state_click(linked)}>
                    { for reached_shown.iter().map(|g| html! {
                        <div key={g.node.clone()} class="loc-group" data-node={g.node.clone()}>
                            <div class="loc">{ format!("{} ({})", g.node, g.states.len()) }</div>
                            <ul class="states">{ for g.states.iter().map(|s| state_item(s, selected_states)) }</ul>
                        </div>
                    }) }
                </div>
            }
        </section>
    }
}
