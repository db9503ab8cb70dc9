//! The Yew components of the page. They only render a [`Model`] and turn
//! input into [`Action`]s; what is shown is decided in [`crate::model::page`].

use std::rc::Rc;

use yew::prelude::*;

use crate::model::analysis::{ListingMarks, NodeMarks};
use crate::model::page::{Action, CfaView, DiagnosticRow, FunctionListing, Model, NodeRow, EXAMPLE_PROGRAM};
use crate::ui::analysis::AnalysisPane;
use crate::ui::editor::CodeEditor;

/// The editor's model is a Yew reducer: actions go through the pure
/// [`Model::reduce`].
impl Reducible for Model {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        Rc::new(Model::reduce(&self, action))
    }
}

/// The program the page opens with: the one saved in this browser, else
/// the built-in example.
fn load_program() -> String {
    crate::platform::storage::load_program().unwrap_or_else(|| EXAMPLE_PROGRAM.to_string())
}

/// The `performance.mark` set once the page has first rendered.
pub const FIRST_RENDER_MARK: &str = "cpa-playground:first-render";

/// Properties of [`App`].
#[derive(Properties, PartialEq, Default)]
pub struct AppProps {
    /// The exercise link the page was opened with (`crate::ui::exercise`):
    /// its pane is shown above the playground.
    #[prop_or_default]
    pub exercise: Option<Rc<crate::model::exercise::Session>>,
}

/// The whole page: a header, the exercise (when one is open), then the
/// editor, the CFA and the analysis.
#[function_component(App)]
pub fn app(props: &AppProps) -> Html {
    let model = use_reducer(|| Model::new(crate::ui::share::initial_program().unwrap_or_else(load_program)));
    // An exercise's program is not the student's own: it is not stored.
    let exercise_mode = props.exercise.is_some();
    {
        let source = model.source.clone();
        use_effect_with(source, move |source| {
            if !exercise_mode {
                crate::platform::storage::save_program(source)
            }
        });
    }
    // The exercise shown, if any: its configuration may lock the
    // playground, and "reset" puts its program back.
    let exercise = props.exercise.as_deref().and_then(|s| s.exercise());
    let locked = exercise.is_some_and(crate::model::exercise::locks_playground);
    // Effects run after rendering: this marks the first complete render, so
    // the browser tests can report time to first render.
    use_effect_with((), |_| {
        crate::platform::clock::performance_mark(FIRST_RENDER_MARK);
        crate::platform::font_warmup::release();
        // The analysis engine's worker loads and compiles its wasm now, off
        // the main thread, so the first Analyze does not wait for it.
        crate::platform::engine_worker::warm_up();
    });
    // Escape closes the dialog on top (examples, compare, share, …).
    crate::ui::dialogs::use_escape_closes_dialogs();

    let on_edit = {
        let model = model.clone();
        Callback::from(move |text: String| model.dispatch(Action::Edit(text)))
    };
    // Clicking a diagnostic puts the caret at its line and column.
    let on_jump = Callback::from(|(line, col): (u32, u32)| crate::platform::codemirror::set_caret(line, col));
    // A replaced program is kept and can be restored
    // (crate::ui::program_history).
    let history = crate::ui::program_history::use_replacements(&model, exercise_mode);
    // An example opened from the gallery (or a link to its program) keeps
    // its guidance next to the editor until dismissed.
    let guide = use_state(|| {
        (!exercise_mode)
            .then(crate::ui::share::initial_program)
            .flatten()
            .and_then(|p| crate::model::gallery::example_with_program(&p))
    });
    let exercise_program = exercise.map(|e| e.program.clone());
    let on_reset = {
        let (model, program, reset_example) = (model.clone(), exercise_program.clone(), history.reset_example.clone());
        Callback::from(move |_: MouseEvent| match &program {
            Some(p) => model.dispatch(Action::Edit(p.clone())),
            None => reset_example.emit(()),
        })
    };
    let on_dismiss_guide = {
        let guide = guide.clone();
        Callback::from(move |_: ()| guide.set(None))
    };
    // Linked selection (crate::ui::selection): one selected node, edge or state
    // for every panel; an edit of the program clears it.
    let selection = use_state(crate::model::selection::Selection::default);
    let on_select = {
        let set = selection.setter();
        use_callback((), move |s: crate::model::selection::Selection, _| set.set(s))
    };
    {
        let on_select = on_select.clone();
        use_effect_with(model.source.clone(), move |_| on_select.emit(crate::model::selection::Selection::None));
    }
    let selection_ctx = crate::ui::selection::SelectionContext { selection: *selection, on_change: on_select };
    // What a share link made now carries (crate::ui::share::ShareLinks):
    // one handle for this playground's panes.
    let links = use_memo((), |_| crate::ui::share::ShareLinks::default());
    // The analysis at the shown position, for the graph views (graphs_app):
    // kept in a store the graphs subscribe to, so a step does not re-render
    // the whole page.
    let frames = use_memo((), |_| crate::ui::graphs::FrameStore::default());
    let on_frame = {
        let frames = (*frames).clone();
        use_callback((), move |f: Option<Rc<crate::ui::graphs::RunFrame>>, _| frames.set(f))
    };

    html! {
        <ContextProvider<crate::ui::selection::SelectionContext> context={selection_ctx}>
        <ContextProvider<crate::ui::share::ShareLinks> context={(*links).clone()}>
        <div class={classes!("app", exercise_mode.then_some("exercise-mode"))}>
            <header class="topbar">
                <h1>{ "CPA Playground" }</h1>
                <span class="tagline">{ "mini-C → CFA → the CPA algorithm, step by step" }</span>
                <crate::ui::gallery::ExamplesButton />
                <a class="exercises-button" data-testid="exercises-button" href="#exercises"
                    title="Exercises checked by running the analysis in your browser">{ "Exercises" }</a>
                <crate::ui::exercise::MakeExerciseButton source={model.source.clone()} frames={(*frames).clone()} />
                <crate::ui::compare::CompareButton source={model.source.clone()} />
                <crate::ui::share::ShareBar source={model.source.clone()} />
                <button class="reset" onclick={on_reset} data-testid="reset"
                    title={if exercise_program.is_some() { "Put the exercise's program back into the editor" } else { "Replace the editor's text by the built-in example" }}>
                    { if exercise_program.is_some() { "Reset program" } else { "Reset example" } }
                </button>
            </header>
            if let Some(session) = &props.exercise {
                <crate::ui::exercise::ExercisePane session={session.clone()} source={model.source.clone()} />
            }
            <main class="panes">
                <section class="pane editor-pane" aria-label="Program">
                    <div class="pane-head">
                        <h2>{ "Program" }</h2>
                        if !exercise_mode {
                            <crate::ui::program_history::PreviousPrograms on_pick={history.pick.clone()} revision={history.revision} />
                        }
                    </div>
                    if let Some(notice) = history.notice.clone() {
                        <crate::ui::program_history::ReplacedNotice {notice} on_restore={history.restore.clone()} on_dismiss={history.dismiss.clone()} />
                    }
                    if let Some(example) = (*guide).clone() {
                        <crate::ui::example_guide::ExampleGuide {example} on_dismiss={on_dismiss_guide} />
                    }
                    <CodeEditor source={model.source.clone()} diagnostics={crate::model::editor::diagnostics_of(&model.view)} on_edit={on_edit} />
                </section>
                <section class="pane cfa-pane" aria-label="Control-flow automaton">
                    <h2>{ "Control-flow automaton" }</h2>
                    if matches!(model.view, CfaView::Cfa { .. }) {
                        <crate::ui::graphs::GraphsPane source={model.source.clone()} frames={(*frames).clone()} />
                    }
                    <CfaPane view={model.view.clone()} on_jump={on_jump} frames={(*frames).clone()} />
                </section>
                <section class="pane analysis-pane" aria-label="Analysis">
                    <h2>{ "Analysis" }</h2>
                    // The pane mounts the solver log below itself (a solver
                    // breakpoint opens it).
                    <AnalysisPane source={model.source.clone()} analyzable={matches!(model.view, CfaView::Cfa { .. })} on_frame={on_frame} {locked} />
                </section>
            </main>
        </div>
        </ContextProvider<crate::ui::share::ShareLinks>>
        </ContextProvider<crate::ui::selection::SelectionContext>>
    }
}

/// Properties of [`CfaPane`].
#[derive(Properties, PartialEq)]
pub struct CfaPaneProps {
    /// What to show.
    pub view: CfaView,
    /// Called with (line, column) when a diagnostic is clicked.
    pub on_jump: Callback<(u32, u32)>,
    /// The analysis at the shown position (the listing marks it).
    pub frames: crate::ui::graphs::FrameStore,
}

/// The diagnostics of a broken program, or the CFA listing of a good one.
#[function_component(CfaPane)]
pub fn cfa_pane(props: &CfaPaneProps) -> Html {
    match &props.view {
        CfaView::Errors(rows) => html! {
            <div class="diagnostics" data-testid="diagnostics">
                <p class="status status-error" data-testid="status">{ props.view.status() }</p>
                <ul class="diag-list">{ for rows.iter().map(|r| diagnostic(r, &props.on_jump)) }</ul>
            </div>
        },
        CfaView::Cfa { functions, warnings, json } => {
            html! {
                <div class="cfa" data-testid="cfa">
                    <p class="status status-ok" data-testid="status">{ props.view.status() }</p>
                    if !warnings.is_empty() {
                        <ul class="diag-list">{ for warnings.iter().map(|r| diagnostic(r, &props.on_jump)) }</ul>
                    }
                    <CfaListing functions={functions.clone()} frames={props.frames.clone()} />
                    <details class="json">
                        <summary>{ "CFA as JSON" }</summary>
                        <pre data-testid="cfa-json">{ json.clone() }</pre>
                    </details>
                </div>
            }
        }
    }
}

/// One diagnostic of the front end: a button that puts the caret at it.
fn diagnostic(row: &DiagnosticRow, on_jump: &Callback<(u32, u32)>) -> Html {
    let (class, kind) = if row.is_error { ("diag diag-error", "error") } else { ("diag diag-warning", "warning") };
    let onclick = {
        let (line, col) = (row.line, row.col);
        on_jump.reform(move |_: MouseEvent| (line, col))
    };
    html! {
        <li class={class}>
            <button class="diag-jump" title={format!("Go to line {}, column {}", row.line, row.col)} {onclick}>
                <span class="diag-pos">{ format!("{}:{}", row.line, row.col) }</span>
                <span class="diag-kind">{ kind }</span>
                <span class="diag-msg">{ row.message.clone() }</span>
            </button>
        </li>
    }
}

/// Properties of [`CfaListing`].
#[derive(Properties, PartialEq)]
pub struct CfaListingProps {
    /// One listing per function.
    pub functions: Vec<FunctionListing>,
    /// The analysis at the shown position.
    pub frames: crate::ui::graphs::FrameStore,
}

/// The CFA listing: per function a table with a row group per node (its
/// line and markers, then one row per leaving edge); a node's id selects it
/// in every panel. While the editor holds the analysed program, each node
/// shows its reached-state count and the state and edge being processed
/// are marked ([`ListingMarks`]). It follows the shown position through
/// the frame store, and a step re-renders only the nodes whose marks
/// changed.
#[function_component(CfaListing)]
pub fn cfa_listing(props: &CfaListingProps) -> Html {
    let frame = crate::ui::graphs::use_frame(&props.frames);
    let selection = crate::ui::selection::use_selection();
    let marks = frame.filter(|f| f.fresh).map(|f| ListingMarks::of(&f.program, &f.snapshot)).unwrap_or_default();
    html! {
        <div class="listing" data-testid="cfa-listing">
            { for props.functions.iter().map(|f| html! {
                <section class="function">
                    <h3>
                        <span class="fn-name">{ f.name.clone() }</span>
                        <span class="fn-meta">{ format!("entry {}, exit {}", f.entry, f.exit) }</span>
                    </h3>
                    <table class="nodes">
                        <thead>
                            <tr><th>{ "node" }</th><th>{ "line" }</th><th>{ "edge" }</th><th>{ "operation" }</th></tr>
                        </thead>
                        { for f.nodes.iter().map(|n| {
                            let selected = n.node().is_some_and(|k| selection.selection == crate::model::selection::Selection::Node(k));
                            html! { <NodeRows key={n.id.clone()} row={n.clone()} {selected} marks={marks.node(&n.id)} /> }
                        }) }
                    </table>
                </section>
            }) }
        </div>
    }
}

/// Properties of [`NodeRows`].
#[derive(Properties, PartialEq)]
pub struct NodeRowsProps {
    /// The node and its leaving edges.
    pub row: NodeRow,
    /// Selected in every panel.
    pub selected: bool,
    /// What the shown position marks here.
    pub marks: NodeMarks,
}

/// One node of the listing: its row (id, reached-state count, line,
/// markers), then one row per leaving edge.
#[function_component(NodeRows)]
pub fn node_rows(props: &NodeRowsProps) -> Html {
    let selection = crate::ui::selection::use_selection();
    let n = &props.row;
    let node_class = if n.markers.is_empty() {
        "node".to_string()
    } else {
        format!("node {}", n.markers.iter().map(|m| format!("row-{}", m.css_class())).collect::<Vec<_>>().join(" "))
    };
    let pick = {
        let node = n.node();
        Callback::from(move |_: MouseEvent| {
            if let Some(k) = node {
                selection.click(crate::model::selection::Selection::Node(k));
            }
        })
    };
    let m = props.marks;
    html! {
        <tbody class={classes!(node_class, props.selected.then_some("selected"), m.current.then_some("current"))} data-node={n.id.clone()}>
            <tr class="node-row">
                <td class="node-id">
                    <button class="node-pick" onclick={pick} aria-pressed={props.selected.to_string()}
                        title={format!("Select {} in every panel (click again to clear)", n.id)}>{ n.id.clone() }</button>
                    if let Some(count) = m.count {
                        <span class="node-count" data-testid={format!("node-count-{}", n.id)}
                            title={format!("{count} reached state{} here", if count == 1 { "" } else { "s" })}>{ count.to_string() }</span>
                    }
                </td>
                <td class="line">{ n.line }</td>
                <td colspan="2" class="markers">
                    { for n.markers.iter().map(|m| html! {
                        <span class={classes!("marker", m.css_class())}>{ m.word() }</span>
                    }) }
                    if n.edges.is_empty() && n.markers.is_empty() {
                        <span class="no-edges">{ "no successors" }</span>
                    }
                </td>
            </tr>
            { for n.edges.iter().enumerate().map(|(i, e)| html! {
                <tr class={classes!("edge-row", format!("edge-{}", e.kind), (m.current_edge == Some(i)).then_some("current-edge"))}>
                    <td></td>
                    <td class="line">{ e.line }</td>
                    <td class="target">{ format!("→ {}", e.target) }</td>
                    <td class="label"><code>{ e.label.clone() }</code></td>
                </tr>
            }) }
        </tbody>
    }
}
