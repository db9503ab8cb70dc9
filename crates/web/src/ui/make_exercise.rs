//! The instructor's "Make exercise" (top bar): the program in the editor,
//! the configuration and the shown step become an exercise file
//! (`docs/exercises.md`). The instructor edits its id, title, question
//! kind, prompt and points, downloads it, or **tries** it in the page as a
//! student would (`#exercise-draft`, see
//! [`crate::model::exercise::draft_session`]); **Load exercise file…**
//! opens any exercise file (with its program inline) the same way. While a
//! draft is tried, the dialog starts from it, so edit → try → edit works.

use exercises::Exercise;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

use crate::model::exercise::{check_skeleton, skeleton_question, Route, SKELETON_KINDS};
use crate::platform::files::download;

/// Properties of [`MakeExerciseButton`].
#[derive(Properties, PartialEq)]
pub struct MakeExerciseProps {
    /// The editor's program.
    pub source: String,
    /// The shown analysis frame (for the step and the run).
    pub frames: crate::ui::graphs::FrameStore,
}

/// What the instructor writes around the question.
#[derive(Clone, Debug, PartialEq)]
struct Head {
    id: String,
    title: String,
    kind: String,
    prompt: String,
    points: String,
    /// The draft being tried, when the page shows one: its question is
    /// kept while the kind is unchanged.
    draft: Option<Exercise>,
}

impl Head {
    /// The fields of the draft being tried, else the defaults.
    fn start() -> Head {
        let trying = Route::parse(&crate::platform::location::hash()) == Some(Route::Draft);
        let draft = trying.then(crate::platform::storage::load_exercise_draft).flatten().and_then(|t| check_skeleton(&t).ok());
        match draft {
            Some(ex) => Head {
                id: ex.id.clone(),
                title: ex.title.clone(),
                kind: ex.question.kind().to_string(),
                prompt: ex.prompt.clone(),
                points: ex.points.to_string(),
                draft: Some(ex),
            },
            None => Head {
                id: "my-exercise".into(),
                title: "My exercise".into(),
                kind: "verdict".into(),
                prompt: exercises::skeleton::PLACEHOLDER_PROMPT.into(),
                points: "1".into(),
                draft: None,
            },
        }
    }
}

/// Opens exercise text in the page as a student sees it, or says why not.
fn try_text(text: &str) -> Result<(), String> {
    check_skeleton(text).map_err(|e| format!("This exercise would not load: {e}"))?;
    if !crate::platform::storage::save_exercise_draft(text) {
        return Err("The browser's storage refused the draft (it is full or disabled).".into());
    }
    crate::platform::location::open_fragment(&Route::Draft.fragment());
    Ok(())
}

/// A callback that sets one field of the head from an input or textarea.
fn field(head: &UseStateHandle<Head>, f: impl Fn(&mut Head, String) + 'static) -> Callback<InputEvent> {
    let head = head.clone();
    Callback::from(move |e: InputEvent| {
        let t = e.target_unchecked_into::<web_sys::HtmlElement>();
        let v = match (t.dyn_ref::<HtmlInputElement>(), t.dyn_ref::<HtmlTextAreaElement>()) {
            (Some(i), _) => i.value(),
            (_, Some(a)) => a.value(),
            _ => return,
        };
        let mut h = (*head).clone();
        f(&mut h, v);
        head.set(h);
    })
}

/// The form: id, title, kind, points and prompt.
fn form(head: &UseStateHandle<Head>) -> Html {
    let on_kind = {
        let head = head.clone();
        Callback::from(move |e: Event| {
            let mut h = (*head).clone();
            h.kind = e.target_unchecked_into::<HtmlSelectElement>().value();
            head.set(h);
        })
    };
    html! {
        <div class="skeleton-form">
            <label>{ "Id " }<input data-testid="skeleton-id" value={head.id.clone()} oninput={field(head, |h, v| h.id = v)} /></label>
            <label>{ "Title " }<input data-testid="skeleton-title" value={head.title.clone()} oninput={field(head, |h, v| h.title = v)} /></label>
            <label>{ "Question " }
                <select data-testid="skeleton-kind" onchange={on_kind}>
                    { for SKELETON_KINDS.iter().map(|(k, what)| html! { <option value={*k} selected={head.kind == *k}>{ format!("{k}: {what}") }</option> }) }
                </select>
            </label>
            <label>{ "Points " }
                <input data-testid="skeleton-points" type="number" min="0" max="1000" size="4" value={head.points.clone()} oninput={field(head, |h, v| h.points = v)} />
            </label>
            <label class="skeleton-prompt">{ "Prompt (Markdown) " }
                <textarea data-testid="skeleton-prompt" rows="4" value={head.prompt.clone()} oninput={field(head, |h, v| h.prompt = v)} />
            </label>
        </div>
    }
}

/// "Load exercise file…": opens the chosen file as a draft to try.
fn on_load(problem: &UseStateHandle<Option<String>>) -> Callback<Event> {
    let problem = problem.clone();
    Callback::from(move |e: Event| {
        let input: HtmlInputElement = e.target_unchecked_into();
        let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
        input.set_value("");
        let problem = problem.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let text = JsFuture::from(file.text()).await.ok().and_then(|t| t.as_string()).unwrap_or_default();
            if let Err(m) = try_text(&text) {
                problem.set(Some(format!("{}: {m}", file.name())));
            }
        });
    })
}

/// The top bar's "Make exercise" button and its dialog.
#[function_component(MakeExerciseButton)]
pub fn make_exercise_button(props: &MakeExerciseProps) -> Html {
    let open = use_state(|| false);
    let head = use_state(Head::start);
    let load_problem = use_state(|| None::<String>);
    let selection = use_context::<crate::ui::selection::SelectionContext>();
    let links = crate::ui::share::use_share_links();
    let show = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(!*open))
    };
    if !*open {
        return html! {
            <button class="make-exercise" data-testid="make-exercise" onclick={show}
                title="Turn the program, the configuration and the shown step into an exercise file, try it, or load one">{ "Make exercise" }</button>
        };
    }
    let (spec, _) = links.analysis_now();
    let frame = props.frames.get();
    let shown_step = frame.as_ref().map(|f| f.snapshot.stats.steps);
    let node = match selection.map(|s| s.selection) {
        Some(crate::model::selection::Selection::Node(n)) => Some(n.0),
        _ => None,
    };
    let question = match &head.draft {
        Some(d) if d.question.kind() == head.kind => d.question.clone(),
        _ => skeleton_question(&head.kind, &spec.preset, shown_step.unwrap_or(0) + 1, node),
    };
    let config = crate::model::exercise::config_spec(&spec);
    let points = head.points.trim().parse::<u32>().ok();
    let text = exercises::skeleton::exercise_file(
        &head.id,
        &head.title,
        &head.prompt,
        points.unwrap_or(1),
        &props.source,
        &config,
        &question,
    );
    let problem = if !crate::model::exercise::valid_id(&head.id) {
        Some("The id is 1 to 64 of a-z, 0-9 and -.".to_string())
    } else if points.is_none() {
        Some("Points are a whole number from 0 to 1000.".to_string())
    } else {
        check_skeleton(&text).err().map(|p| format!("This exercise would not load: {p}"))
    };
    let on_download = {
        let (text, id) = (text.clone(), head.id.clone());
        Callback::from(move |_: MouseEvent| download(&format!("{id}.toml"), &text, "application/toml"))
    };
    let on_try = {
        let (text, load_problem) = (text.clone(), load_problem.clone());
        Callback::from(move |_: MouseEvent| {
            if let Err(m) = try_text(&text) {
                load_problem.set(Some(m));
            }
        })
    };
    let close = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(false))
    };
    let step_words = match shown_step {
        Some(k) => format!("the run shown at step {k} (a next-step question asks about step {})", k + 1),
        None => "no run yet (analyze to ask about a step)".to_string(),
    };
    html! {
        <>
            <button class="make-exercise" data-testid="make-exercise" onclick={show.clone()}>{ "Make exercise" }</button>
            <div class="skeleton-pop" data-testid="skeleton-dialog" role="dialog" aria-label="Make an exercise from what I see">
                <div class="gallery-head">
                    <h2>{ "Make an exercise from what I see" }</h2>
                    <button class="gallery-close" onclick={close} aria-label="Close">{ "✕" }</button>
                </div>
                <p class="exercise-note" data-testid="skeleton-source">{ format!("The program in the editor, the configuration {} and {step_words}.", spec.describe()) }
                    { " Try it here as a student would; download it into a set directory, list it in set.toml, and add reference and wrong answers to solutions.toml (`cpaplay exercise check` validates the set)." }</p>
                { form(&head) }
                if let Some(p) = &problem {
                    <p class="status status-error" data-testid="skeleton-error">{ p.clone() }</p>
                }
                <pre class="skeleton-text" data-testid="skeleton-toml">{ text.clone() }</pre>
                <div class="skeleton-actions">
                    <button class="primary" data-testid="skeleton-try" disabled={problem.is_some()} onclick={on_try}
                        title="Open this exercise in the page as a student sees it: answer it, check, see the feedback">{ "Try it as a student" }</button>
                    <button class="primary" data-testid="skeleton-download" disabled={problem.is_some()} onclick={on_download}>{ format!("Download {}.toml", head.id) }</button>
                    <label class="import-answers" title="Open an exercise file (its program inline) in the page to try it">
                        { "Load exercise file…" }
                        <input type="file" accept=".toml,text/plain,application/toml" data-testid="skeleton-load" onchange={on_load(&load_problem)} />
                    </label>
                </div>
                if let Some(p) = &*load_problem {
                    <p class="status status-error" data-testid="skeleton-load-error" role="alert">{ p.clone() }</p>
                }
            </div>
        </>
    }
}
