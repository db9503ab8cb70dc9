//! Exercises in the page (Yew): the
//! [`ExercisePane`] above the playground (prompt, answer widget per
//! question kind, check, feedback, hints, progress, export) with its
//! question bar (`crate::ui::exercise_bar`), and the instructor's
//! [`MakeExerciseButton`] (`crate::ui::make_exercise`). What is shown and graded is decided in [`crate::model::exercise`]:
//! the set view's state changes only through its reducer
//! ([`SetState::reduce`]), and answers are graded through the page's run
//! driver ([`crate::ui::run::drive`]).

use std::cell::RefCell;
use std::rc::Rc;

use exercises::model::{Question, StepQuestion};
use exercises::predict::{MergeOutcome, StopOutcome};
use exercises::run::RunCache;
use exercises::{Answer, Exercise, ExerciseSet, Feedback};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

pub use crate::ui::make_exercise::MakeExerciseButton;

use crate::model::exercise::Session;
use crate::model::exercise::{points_text, Draft, Grader, Grading, ImportReport, Progress, Route, SetAction, SetState, Status};
use crate::model::run_driver::SliceEnd;
use crate::platform::files::download;
use crate::platform::storage::{forget_progress, load_progress, save_progress};
use crate::ui::run::{drive, CancelFlag};

/// Grades `grader` through the page's run driver (slices of at most
/// [`crate::model::run_driver::SLICE_MS`], queries to the page's Z3), with the
/// runs of earlier checks in `runs`, telling `on_status` what it is doing.
async fn grade(grader: Grader, runs: Rc<RefCell<RunCache>>, on_status: Callback<String>) -> Feedback {
    let task = Rc::new(RefCell::new(Grading::new(grader, runs)));
    let probe = task.clone();
    drive(task.clone(), CancelFlag::new(), move |end| match end {
        SliceEnd::Yield => {
            if let Some(s) = probe.borrow().status() {
                on_status.emit(s);
            }
        }
        SliceEnd::Parked(_) if !crate::platform::z3::status().ready() => {
            on_status.emit("Asking Z3 (it loads on first use)…".into());
        }
        _ => {}
    })
    .await;
    let feedback = task.borrow().feedback().cloned();
    feedback.expect("the driver ends when the grade is known")
}

/// Reads an answers file for `set` and re-checks every answer in it, one
/// after the other (the file's own results are ignored, as `cpaplay grade`
/// ignores them); the answers and results replace the progress's for those
/// exercises, and the file's student name becomes the progress's (each told
/// to the view through `dispatch`). Returns what was done, or why the file
/// was refused.
async fn import_answers(
    set: &ExerciseSet,
    name: &str,
    text: &str,
    runs: &Rc<RefCell<RunCache>>,
    dispatch: &UseReducerDispatcher<SetState>,
) -> Result<ImportReport, String> {
    let file =
        exercises::answers::AnswersFile::parse(name, text).map_err(|e| format!("This answers file cannot be read: {e}"))?;
    if file.set != set.id {
        return Err(format!("{name} answers the set `{}`, not `{}`.", file.set, set.id));
    }
    let known: Vec<(&Exercise, &Answer)> = set.exercises.iter().filter_map(|e| file.answers.get(&e.id).map(|a| (e, a))).collect();
    let unknown: Vec<String> = file.answers.keys().filter(|id| set.exercise(id).is_none()).cloned().collect();
    let sure = crate::platform::dialog::confirm(&format!(
        "Replace the answers to {} exercise(s) with those of {name} (student “{}”)? Each is checked again here.",
        known.len(),
        file.student
    ));
    if !sure {
        return Err("Import cancelled.".into());
    }
    dispatch.dispatch(SetAction::ImportStudent(file.student.clone()));
    let total = known.len();
    for (k, (ex, answer)) in known.into_iter().enumerate() {
        dispatch.dispatch(SetAction::Status(format!("Re-checking {} of {total}: {}…", k + 1, ex.title)));
        let feedback = match Grader::new(ex, answer) {
            Err(f) => f,
            Ok(g) => {
                let title = ex.title.clone();
                let on_status = dispatch
                    .to_callback()
                    .reform(move |s: String| SetAction::Status(format!("Re-checking {} of {total}: {title} — {s}", k + 1)));
                grade(g, runs.clone(), on_status).await
            }
        };
        let attempts = file.attempts.get(&ex.id).cloned().unwrap_or_default();
        dispatch.dispatch(SetAction::ImportRecorded { exercise: ex.id.clone(), answer: answer.clone(), attempts, feedback });
    }
    Ok(ImportReport { total, student: file.student, file: name.to_string(), skipped: unknown })
}

/// Properties of [`ExercisePane`].
#[derive(Properties, PartialEq)]
pub struct ExercisePaneProps {
    /// What the exercise link opened.
    pub session: Rc<Session>,
    /// The editor's program (a `separate` answer can take it).
    pub source: String,
}

/// The exercise pane above the playground.
#[function_component(ExercisePane)]
pub fn exercise_pane(props: &ExercisePaneProps) -> Html {
    match &*props.session {
        Session::Failed(message) => html! {
            <section class="exercise-pane" data-testid="exercise-pane" aria-label="Exercises">
                <p class="status status-error" role="alert" data-testid="exercise-error">{ message.clone() }</p>
                <p><a href="#exercises">{ "All exercise sets" }</a></p>
            </section>
        },
        Session::Sets(sets) => html! {
            <section class="exercise-pane" data-testid="exercise-pane" aria-label="Exercises">
                <h2 class="exercise-set-title">{ "Exercise sets" }</h2>
                { match sets {
                    Err(e) => html! { <p class="status status-error" role="alert" data-testid="exercise-error">{ format!("The exercise sets cannot be listed: {e}") }</p> },
                    Ok(sets) => html! {
                        <ul class="exercise-sets" data-testid="exercise-sets">
                            { for sets.iter().map(|(id, title)| {
                                let route = Route::Set { set: id.clone(), exercise: None };
                                html! { <li><a data-set={id.clone()} href={route.fragment()}>{ title.clone() }</a><span class="exercise-set-id">{ format!(" ({id})") }</span></li> }
                            }) }
                        </ul>
                    },
                } }
                <p class="exercise-note">{ "Each answer is checked by running the analysis in your browser; your progress stays in this browser until you export it." }</p>
            </section>
        },
        Session::Set { set, current, problems } => html! {
            <SetView set={set.clone()} current={*current} problems={problems.clone()} source={props.source.clone()} />
        },
    }
}

/// Properties of [`SetView`].
#[derive(Properties, PartialEq)]
struct SetViewProps {
    /// The set opened.
    set: Rc<ExerciseSet>,
    /// The index of the exercise shown.
    current: usize,
    /// What could not be loaded (shown above the exercise).
    problems: Vec<String>,
    /// The editor's program.
    source: String,
}

impl Reducible for SetState {
    type Action = SetAction;

    fn reduce(self: Rc<Self>, action: SetAction) -> Rc<Self> {
        Rc::new(SetState::reduce(&self, action))
    }
}

/// What the set view's parts share: its state (through its reducer) and
/// the runs of earlier checks.
#[derive(Clone)]
struct SetHandles {
    state: UseReducerHandle<SetState>,
    /// The runs and solver answers of earlier checks, so a corrected answer
    /// is graded at once (a cache, never shown: a shared cell).
    runs: Rc<RefCell<RunCache>>,
    /// The playground's share-link handle (a `choose-configuration` answer
    /// can be taken from the analysis pane's configuration).
    links: crate::ui::share::ShareLinks,
}

/// One exercise of a set: the head (progress, name, import, export), the
/// list of the set's exercises and the exercise with its answer widget.
#[function_component(SetView)]
fn set_view(props: &SetViewProps) -> Html {
    let state = {
        let set = props.set.clone();
        let current = props.current;
        use_reducer(move || {
            let progress = load_progress(&set.id);
            SetState::new(set, current, progress)
        })
    };
    // The progress is kept in local storage whenever it changed (the
    // last saved copy is a handle of that, never shown).
    let saved = use_mut_ref(|| load_progress(&props.set.id));
    {
        let set = props.set.id.clone();
        use_effect_with(state.progress.clone(), move |p| {
            if *saved.borrow() != *p {
                save_progress(&set, p);
                *saved.borrow_mut() = p.clone();
            }
        });
    }
    let h = SetHandles { state, runs: use_mut_ref(RunCache::new), links: crate::ui::share::use_share_links() };
    // The list shows the current exercise (it may be far down a long set).
    use_effect_with((), |_| {
        let current = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.query_selector(".exercise-list li.current").ok().flatten())
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
        if let Some(li) = current {
            if let Some(list) = li.closest(".exercise-list").ok().flatten() {
                list.set_scroll_top((li.offset_top() - 2 * li.offset_height()).max(0));
            }
        }
    });

    let st = &*h.state;
    html! {
        <>
        <section class={classes!("exercise-pane", st.collapsed.then_some("collapsed"))} data-testid="exercise-pane" aria-label="Exercises">
            { set_head(&h) }
            { for props.problems.iter().map(|m| html! { <p class="status status-error" data-testid="exercise-problem">{ m.clone() }</p> }) }
            if let Some((ok, note)) = &st.import_note {
                <p class={classes!("status", if *ok { "status-ok" } else { "status-error" })} data-testid="import-note" role="status">{ note.clone() }</p>
            }
            if !st.collapsed {
                <div class="exercise-body">
                    { exercise_list(&st.set, props.current, &st.progress) }
                    { exercise_article(&h, props) }
                </div>
            }
        </section>
        { crate::ui::exercise_bar::exercise_bar(&h.state, props.current) }
        </>
    }
}

/// The link to exercise `id` of `set`.
fn exercise_route(set: &ExerciseSet, id: &str) -> String {
    Route::Set { set: set.id.clone(), exercise: Some(id.to_string()) }.fragment()
}

/// The set's head: title, progress, the student's name, import, export,
/// forget, and hide/show.
fn set_head(h: &SetHandles) -> Html {
    let st = &*h.state;
    let on_name = h.state.dispatcher().to_callback().reform(|e: InputEvent| {
        let input: HtmlInputElement = e.target_unchecked_into();
        SetAction::Student(input.value())
    });
    let on_export = {
        let state = h.state.clone();
        Callback::from(move |_: MouseEvent| {
            let p = &state.progress;
            download(&p.export_name(&state.set.id), &p.answers_file(&state.set), "application/json");
        })
    };
    let on_forget = {
        let set = st.set.clone();
        Callback::from(move |_: MouseEvent| {
            let sure = crate::platform::dialog::confirm(&format!(
                "Forget every answer, result and draft of “{}” in this browser? Export them first if you need them.",
                set.title
            ));
            if sure {
                forget_progress(&set.id);
                crate::platform::location::reload();
            }
        })
    };
    let on_collapse = h.state.dispatcher().to_callback().reform(|_: MouseEvent| SetAction::ToggleCollapsed);
    let (set, p, collapsed) = (&st.set, &st.progress, st.collapsed);
    html! {
        <div class="exercise-head">
            <h2 class="exercise-set-title" title={set.description.clone()}>{ set.title.clone() }</h2>
            <span class="exercise-progress" data-testid="exercise-progress">{ p.summary(set) }</span>
            <label class="exercise-student">{ "Your name " }
                <input data-testid="student-name" type="text" maxlength="80" placeholder="for the export" value={p.student.clone()} oninput={on_name} />
            </label>
            <label class="import-answers" title="Load an answers file (yours from another browser, or a student's) and re-check every answer here">
                { "Import answers…" }
                <input type="file" accept=".json,application/json" data-testid="import-answers" onchange={on_import(h)} disabled={st.status.is_some()} />
            </label>
            <button data-testid="export-answers" onclick={on_export}
                title="Download your checked answers and results as a file for your instructor (cpaplay grade re-checks it)">{ "Export answers" }</button>
            <button data-testid="forget-progress" onclick={on_forget} title="Start the set afresh in this browser">{ "Forget progress" }</button>
            <a class="exercise-all" href="#exercises">{ "All sets" }</a>
            <button class="exercise-collapse" onclick={on_collapse} aria-expanded={(!collapsed).to_string()}>
                { if collapsed { "Show exercise" } else { "Hide exercise" } }
            </button>
        </div>
    }
}

/// "Import answers…": reads the chosen file and re-checks its answers.
fn on_import(h: &SetHandles) -> Callback<Event> {
    let (set, runs, dispatch) = (h.state.set.clone(), h.runs.clone(), h.state.dispatcher());
    Callback::from(move |e: Event| {
        let input: HtmlInputElement = e.target_unchecked_into();
        let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
        input.set_value("");
        let (set, runs, dispatch) = (set.clone(), runs.clone(), dispatch.clone());
        wasm_bindgen_futures::spawn_local(async move {
            let name = file.name();
            let text = JsFuture::from(file.text()).await.ok().and_then(|t| t.as_string()).unwrap_or_default();
            let result = import_answers(&set, &name, &text, &runs, &dispatch).await;
            dispatch.dispatch(SetAction::ImportDone(result));
        });
    })
}

/// "Check": grades the draft's answer and records the result.
fn on_check(h: &SetHandles) -> Callback<MouseEvent> {
    let (state, runs) = (h.state.clone(), h.runs.clone());
    Callback::from(move |_: MouseEvent| {
        if state.status.is_some() {
            return;
        }
        let dispatch = state.dispatcher();
        let ex = state.exercise();
        let answer = match state.draft.answer(&ex.question) {
            Ok(a) => a,
            Err(m) => {
                dispatch.dispatch(SetAction::Refused(m));
                return;
            }
        };
        dispatch.dispatch(SetAction::Answered);
        match Grader::new(ex, &answer) {
            Err(feedback) => dispatch.dispatch(SetAction::Recorded { answer, feedback }),
            Ok(grader) => {
                dispatch.dispatch(SetAction::Status("Checking…".into()));
                let on_status = dispatch.to_callback().reform(SetAction::Status);
                let runs = runs.clone();
                wasm_bindgen_futures::spawn_local(async move {
                    let feedback = grade(grader, runs, on_status).await;
                    dispatch.dispatch(SetAction::Recorded { answer, feedback });
                });
            }
        }
    })
}

/// The set's exercises with their marks (right, partly, wrong).
fn exercise_list(set: &ExerciseSet, current: usize, p: &Progress) -> Html {
    html! {
        <nav class="exercise-list" data-testid="exercise-list" aria-label="Exercises of the set">
            <ol>
                { for set.exercises.iter().enumerate().map(|(i, e)| {
                    let st = p.status(&e.id);
                    let mark = match st { Status::Right => "✓", Status::Partial => "½", Status::Wrong => "✗", Status::Unanswered => "\u{a0}" };
                    html! {
                        <li class={classes!((i == current).then_some("current"))}>
                            <a data-exercise={e.id.clone()} class={st.class()} href={exercise_route(set, &e.id)}
                                aria-current={(i == current).then_some("page")} title={e.question.kind()}>
                                <span class="exercise-mark" aria-hidden="true">{ mark }</span><span>{ e.title.clone() }</span>
                            </a>
                        </li>
                    }
                }) }
            </ol>
        </nav>
    }
}

/// The exercise: prompt, configuration, answer widget, actions, status,
/// feedback and hints.
fn exercise_article(h: &SetHandles, props: &SetViewProps) -> Html {
    let st = &*h.state;
    let (set, ex) = (&st.set, st.exercise());
    let on_hint = h.state.dispatcher().to_callback().reform(|_: MouseEvent| SetAction::Hint);
    let prev = props.current.checked_sub(1).map(|i| exercise_route(set, &set.exercises[i].id));
    let next = set.exercises.get(props.current + 1).map(|e| exercise_route(set, &e.id));
    let result = st.progress.results.get(&ex.id).cloned();
    let locked = crate::model::exercise::locks_playground(ex);
    let hints = st.hints;
    html! {
        <article class="exercise" data-testid="exercise" data-exercise-id={ex.id.clone()} data-kind={ex.question.kind()}>
            <h3>
                <span class="exercise-number">{ format!("{}.", props.current + 1) }</span>
                { ex.title.clone() }
                <span class="chip">{ ex.question.kind() }</span>
                <span class="chip">{ format!("{} point{}", ex.points, if ex.points == 1 { "" } else { "s" }) }</span>
            </h3>
            <div class="exercise-prompt">{ crate::ui::gallery::blocks(&crate::model::gallery::render_markdown(&ex.prompt)) }</div>
            <p class="exercise-config" data-testid="exercise-config">
                { "Configuration: " }<code>{ ex.config.describe() }</code>
                { if locked { " (locked: the playground below runs it)" } else { " (open: change it in the playground below)" } }
            </p>
            <div class="answer" data-testid="answer">
                { answer_widget(ex, &Drafts(h.state.clone()), &props.source, &h.links) }
            </div>
            <div class="exercise-actions">
                <button class="primary" data-testid="check-answer" disabled={st.status.is_some()} onclick={on_check(h)}>{ "Check" }</button>
                if !ex.hints.is_empty() {
                    <button data-testid="hint-button" disabled={hints >= ex.hints.len()} onclick={on_hint}>
                        { format!("Hint ({} of {})", hints.min(ex.hints.len()), ex.hints.len()) }
                    </button>
                }
                if let Some(href) = prev { <a class="exercise-nav" href={href}>{ "← Previous" }</a> }
                if let Some(href) = next { <a class="exercise-nav" href={href}>{ "Next →" }</a> }
            </div>
            if let Some(s) = &st.status {
                <p class="status exercise-checking" data-testid="check-status" role="status">{ s.clone() }</p>
            }
            if let Some(m) = &st.message {
                <p class="status status-error" data-testid="answer-error" role="alert">{ m.clone() }</p>
            }
            if let Some(o) = result {
                { feedback(&o, st.progress.tries(&ex.id), st.set.reveal_after) }
            }
            if hints > 0 {
                <ol class="hints">{ for ex.hints.iter().take(hints).map(|h| html! {
                    <li data-testid="hint">{ crate::ui::gallery::blocks(&crate::model::gallery::render_markdown(h)) }</li>
                }) }</ol>
            }
        </article>
    }
}

/// The result of the answer checked last: right, partly or not, points,
/// explanation and details; for a wrong answer, what is off (never the
/// answer), and the answer itself once the set reveals it (`reveal_after`
/// checked answers), or when it will.
fn feedback(o: &crate::model::exercise::Outcome, tries: usize, reveal_after: Option<u32>) -> Html {
    let later = match (o.correct, &o.solution, reveal_after) {
        (false, None, Some(n)) if tries < n as usize => {
            Some(format!("The answer is shown after {n} checked answers ({tries} so far)."))
        }
        _ => None,
    };
    html! {
        <div class={classes!("feedback", if o.correct { "right" } else if o.points > 0.0 { "partial" } else { "wrong" })}
            data-testid="feedback" data-correct={o.correct.to_string()} data-points={points_text(o.points)}>
            <p class="feedback-head">
                <strong>{ if o.correct { "Right" } else if o.points > 0.0 { "Partly right" } else { "Not right" } }</strong>
                { format!(" — {} of {} point{} for the answer checked last", points_text(o.points), o.max_points, if o.max_points == 1 { "" } else { "s" }) }
            </p>
            <div class="feedback-explanation">{ crate::ui::gallery::blocks(&crate::model::gallery::render_markdown(&o.explanation)) }</div>
            if !o.details.is_empty() {
                <ul class="feedback-details">{ for o.details.iter().map(|d| html! { <li>{ d.clone() }</li> }) }</ul>
            }
            if let Some(solution) = &o.solution {
                <details class="feedback-solution" data-testid="feedback-solution" open=true>
                    <summary>{ format!("The answer (shown after {tries} checked answers)") }</summary>
                    <div>{ crate::ui::gallery::blocks(&crate::model::gallery::render_markdown(solution)) }</div>
                </details>
            }
            if let Some(note) = later {
                <p class="exercise-note" data-testid="reveal-note">{ note }</p>
            }
            <p class="exercise-note feedback-tries" data-testid="feedback-tries">{ format!("Checked answers so far: {tries}") }</p>
        </div>
    }
}

/// The answer widgets' draft: read from the view's state, set through its
/// reducer.
#[derive(Clone)]
struct Drafts(UseReducerHandle<SetState>);

impl std::ops::Deref for Drafts {
    type Target = Draft;

    fn deref(&self) -> &Draft {
        &self.0.draft
    }
}

impl Drafts {
    /// The widgets now hold `d`.
    fn set(&self, d: Draft) {
        self.0.dispatch(SetAction::Edit(d));
    }
}

/// Sets one field of the draft.
fn edit(draft: &Drafts, f: impl Fn(&mut Draft, String) + 'static) -> impl Fn(String) {
    let draft = draft.clone();
    move |v: String| {
        let mut d = (*draft).clone();
        f(&mut d, v);
        draft.set(d);
    }
}

fn on_text_input(draft: &Drafts, f: impl Fn(&mut Draft, String) + 'static) -> Callback<InputEvent> {
    let set = edit(draft, f);
    Callback::from(move |e: InputEvent| {
        let t = e.target_unchecked_into::<web_sys::HtmlElement>();
        if let Some(i) = t.dyn_ref::<HtmlInputElement>() {
            set(i.value());
        } else if let Some(a) = t.dyn_ref::<HtmlTextAreaElement>() {
            set(a.value());
        }
    })
}

fn on_select(draft: &Drafts, f: impl Fn(&mut Draft, String) + 'static) -> Callback<Event> {
    let set = edit(draft, f);
    Callback::from(move |e: Event| set(e.target_unchecked_into::<HtmlSelectElement>().value()))
}

/// A labelled select of `options` (key, words), with "— choose —" first
/// for no choice yet.
fn choice(
    label: &str,
    testid: &str,
    current: &str,
    options: impl Iterator<Item = (&'static str, &'static str)>,
    onchange: Callback<Event>,
) -> Html {
    html! {
        <label>{ label }
            <select data-testid={testid.to_string()} {onchange}>
                <option value="" selected={current.is_empty()}>{ "— choose —" }</option>
                { for options.map(|(key, words)| html! { <option value={key} selected={current == key}>{ words }</option> }) }
            </select>
        </label>
    }
}

/// The answer widget of the exercise's question kind.
fn answer_widget(ex: &Exercise, draft: &Drafts, editor_source: &str, links: &crate::ui::share::ShareLinks) -> Html {
    let d = (**draft).clone();
    match &ex.question {
        Question::Verdict => html! {
            <fieldset class="answer-verdict">
                <legend>{ "The analysis answers" }</legend>
                { for [("true", "TRUE: the error location is unreachable"), ("false", "FALSE: it reports an error path"), ("unknown", "UNKNOWN: it gives up (a limit or no progress)")].into_iter().map(|(v, words)| {
                    let onchange = {
                        let set = edit(draft, |d, v| d.verdict = v);
                        Callback::from(move |_: Event| set(v.to_string()))
                    };
                    html! {
                        <label class="answer-choice">
                            <input type="radio" name="verdict" value={v} checked={d.verdict == v} data-testid={format!("answer-verdict-{v}")} {onchange} />
                            { words }
                        </label>
                    }
                }) }
            </fieldset>
        },
        Question::Count { measure, tolerance } => html! {
            <label>{ format!("Number of {}{} ", measure.words(), if *tolerance > 0 { format!(" (within ±{tolerance})") } else { String::new() }) }
                <input type="number" min="0" data-testid="answer-value" value={d.value.clone()} oninput={on_text_input(draft, |d, v| d.value = v)} />
            </label>
        },
        Question::ChooseConfiguration { presets, open, max_states } => {
            let mut allowed: Vec<String> = vec![ex.config.preset.clone()];
            allowed.extend(presets.iter().filter(|p| **p != ex.config.preset).cloned());
            // What the student tried in the playground becomes the answer
            // (as far as the question allows it).
            let from_playground = {
                let (draft, allowed, open, links) = (draft.clone(), allowed.clone(), open.clone(), links.clone());
                Callback::from(move |_: MouseEvent| {
                    let spec = links.analysis_now().0;
                    let mut d = (*draft).clone();
                    if allowed.contains(&spec.preset) {
                        d.preset = spec.preset.clone();
                    }
                    // The playground's effective value of each open key.
                    if let Ok(config) = spec.config() {
                        for (key, values) in &open {
                            let v = config.get(key).to_string();
                            if values.is_empty() || values.contains(&v) {
                                d.set.insert(key.clone(), v);
                            }
                        }
                    }
                    draft.set(d);
                })
            };
            html! {
                <div class="answer-config">
                    <button class="linklike" data-testid="answer-from-playground" onclick={from_playground}
                        title="Use the preset and the open keys' values of the configuration in the playground below">{ "Take the playground's configuration" }</button>
                    <label>{ "Preset " }
                        <select data-testid="answer-preset" onchange={on_select(draft, |d, v| d.preset = v)}>
                            { for allowed.iter().map(|p| html! { <option value={p.clone()} selected={d.preset == *p}>{ p.clone() }</option> }) }
                        </select>
                    </label>
                    { for open.iter().map(|(key, values)| {
                        let k = key.clone();
                        let current = d.set.get(key).cloned().unwrap_or_default();
                        let testid = format!("answer-set-{key}");
                        let control = if values.is_empty() {
                            html! { <input type="text" data-testid={testid} value={current} oninput={on_text_input(draft, move |d, v| { d.set.insert(k.clone(), v); })} /> }
                        } else {
                            html! {
                                <select data-testid={testid} onchange={on_select(draft, move |d, v| { d.set.insert(k.clone(), v); })}>
                                    { for values.iter().map(|v| html! { <option value={v.clone()} selected={current == *v}>{ v.clone() }</option> }) }
                                </select>
                            }
                        };
                        html! { <label class="answer-key"><code>{ key.clone() }</code>{ " = " }{ control }</label> }
                    }) }
                    if let Some(m) = max_states {
                        <p class="answer-note">{ format!("It must prove the program TRUE with at most {m} states in the final reached set.") }</p>
                    }
                </div>
            }
        }
        Question::Separate { a, b } => {
            let use_editor = {
                let (set, source) = (edit(draft, |d, v| d.program = v), editor_source.to_string());
                Callback::from(move |_: MouseEvent| set(source.clone()))
            };
            html! {
                <div class="answer-program">
                    <p class="answer-note">
                        { "A program that " }<code>{ a.describe() }</code>{ " proves TRUE and " }<code>{ b.describe() }</code>{ " does not. Try it in the playground below, then " }
                        <button class="linklike" data-testid="answer-from-editor" onclick={use_editor}>{ "take the editor's program" }</button>{ "." }
                    </p>
                    <textarea data-testid="answer-program" rows="10" spellcheck="false" value={d.program.clone()} oninput={on_text_input(draft, |d, v| d.program = v)} />
                </div>
            }
        }
        Question::AbstractState { domain, .. } => {
            let example = match domain {
                exercises::model::StateDomain::Value => "x = 3, y = 5",
                exercises::model::StateDomain::Octagon => "0 <= x <= 10, x - y <= 2",
                exercises::model::StateDomain::Interval => "0 <= x <= 10, y >= 1",
            };
            html! {
                <label class="answer-block">{ format!("The state (like `{example}`; `true` is ⊤, `false` is ⊥)") }
                    <textarea data-testid="answer-state" rows="2" spellcheck="false" placeholder={example} value={d.state.clone()} oninput={on_text_input(draft, |d, v| d.state = v)} />
                </label>
            }
        }
        Question::Precision { minimal } => html! {
            <label class="answer-block">{ if *minimal { "The variables to track (as few as possible), separated by commas " } else { "The variables to track, separated by commas " } }
                <input type="text" data-testid="answer-variables" placeholder="flag, n" value={d.variables.clone()} oninput={on_text_input(draft, |d, v| d.variables = v)} />
            </label>
        },
        Question::NextStep { step, ask } => html! {
            <div class="answer-step">
                <p class="answer-note">{ format!("At step {step} of the run (the {} waitlist pop). Step the playground below to step {} to see the state before it.", crate::model::exercise::ordinal(*step), step - 1) }</p>
                if ask.contains(&StepQuestion::Popped) {
                    <label>{ "Popped state s" }
                        <input type="text" inputmode="numeric" size="6" data-testid="answer-popped" value={d.popped.clone()} oninput={on_text_input(draft, |d, v| d.popped = v)} />
                    </label>
                }
                if ask.contains(&StepQuestion::Merge) {
                    { choice("Merge ", "answer-merge", &d.merge, MergeOutcome::ALL.iter().map(|m| (m.key(), m.words())), on_select(draft, |d, v| d.merge = v)) }
                }
                if ask.contains(&StepQuestion::Stop) {
                    { choice("Stop ", "answer-stop", &d.stop, StopOutcome::ALL.iter().map(|s| (s.key(), s.words())), on_select(draft, |d, v| d.stop = v)) }
                }
            </div>
        },
        Question::Invariant { .. } => html! {
            <label class="answer-block">{ "The loop invariant, a mini-C condition over the program's variables " }
                <input type="text" data-testid="answer-expression" spellcheck="false" placeholder="x <= n && y == 2 * x" value={d.expression.clone()} oninput={on_text_input(draft, |d, v| d.expression = v)} />
            </label>
        },
        Question::Predicates { .. } | Question::Abstraction { .. } | Question::TransformedLine { .. } => {
            predicate_widget(ex, draft)
        }
    }
}

/// One radio button per choice (each shown as code), numbered from 1 as
/// the answer's `choice`: which formula is ψ', which operation a line
/// becomes.
fn choice_radios(draft: &Drafts, name: &'static str, legend: &str, choices: &[String]) -> Html {
    let d = (**draft).clone();
    html! {
        <fieldset class="answer-verdict">
            <legend>{ legend.to_string() }</legend>
            { for choices.iter().enumerate().map(|(i, text)| {
                let n = (i + 1).to_string();
                let onchange = {
                    let (set, n) = (edit(draft, |d, v| d.choice = v), n.clone());
                    Callback::from(move |_: Event| set(n.clone()))
                };
                html! {
                    <label class="answer-choice">
                        <input type="radio" {name} value={n.clone()} checked={d.choice == n} data-testid={format!("answer-choice-{n}")} {onchange} />
                        <code>{ text.clone() }</code>
                    </label>
                }
            }) }
        </fieldset>
    }
}

/// The answer widgets of the predicate-analysis kinds: the predicates a
/// refinement adds (a text area), or which formula is ψ' (radio buttons);
/// and which operation is a line's transformed one (radio buttons).
fn predicate_widget(ex: &Exercise, draft: &Drafts) -> Html {
    let d = (**draft).clone();
    match &ex.question {
        Question::Abstraction { state, choices } => choice_radios(draft, "abstraction", &format!("ψ' of s{state} is"), choices),
        Question::TransformedLine { line, choices } => {
            choice_radios(draft, "transformed-line", &format!("Line {line} is transformed into"), choices)
        }
        _ => html! {
            <label class="answer-block">{ "The predicates, mini-C comparisons one per line or separated by commas (a predicate and its negation count as one)" }
                <textarea data-testid="answer-predicates" rows="3" spellcheck="false" placeholder="x == 2 * y\nn <= i" value={d.predicates.clone()} oninput={on_text_input(draft, |d, v| d.predicates = v)} />
            </label>
        },
    }
}
