//! The exercise bar: one compact line under the exercise pane that sticks
//! to the top of the window while the student scrolls down to work in the
//! playground, so the question stays in view (the exercise pane takes
//! about half the window; hidden with "Hide exercise", only the bar
//! stays). It shows the exercise's number, title and the prompt's question
//! (its last paragraph, in two lines; "More" opens the whole prompt as a
//! drawer over the playground), the
//! result of the answer checked last, and "Answer ↑", which brings the
//! answer widgets back into view. Its state is the set view's
//! ([`SetState`]); it has no state of its own besides the drawer.

use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::model::exercise::{points_text, SetAction, SetState, Status};

/// The bar of exercise `current` of the set view `state`.
pub fn exercise_bar(state: &UseReducerHandle<SetState>, current: usize) -> Html {
    html! { <ExerciseBar state={state.clone()} {current} /> }
}

/// Properties of [`ExerciseBar`].
#[derive(Properties, PartialEq)]
struct ExerciseBarProps {
    /// The set view (its exercise, progress and whether it is hidden).
    state: UseReducerHandle<SetState>,
    /// The index of the exercise shown.
    current: usize,
}

/// Scrolls the answer widgets (or the exercise pane) into view.
fn scroll_to_answer() {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    let target = doc
        .query_selector("[data-testid=answer]")
        .ok()
        .flatten()
        .or_else(|| doc.query_selector("[data-testid=exercise-pane]").ok().flatten());
    if let Some(e) = target.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
        e.scroll_into_view_with_bool(false);
        if let Some(input) = e.query_selector("input, textarea, select").ok().flatten() {
            if let Ok(input) = input.dyn_into::<web_sys::HtmlElement>() {
                let _ = input.focus();
            }
        }
    }
}

#[function_component(ExerciseBar)]
fn exercise_bar_view(props: &ExerciseBarProps) -> Html {
    let open = use_state(|| false);
    let st = &*props.state;
    let ex = st.exercise();
    let result = st.progress.results.get(&ex.id);
    let (mark, words) = match (st.progress.status(&ex.id), result) {
        (Status::Right, Some(o)) => ("✓", format!("right · {} of {}", points_text(o.points), o.max_points)),
        (Status::Partial, Some(o)) => ("½", format!("partly right · {} of {}", points_text(o.points), o.max_points)),
        (Status::Wrong, _) => ("✗", "not right yet".to_string()),
        _ => ("", "not answered yet".to_string()),
    };
    let tries = st.progress.tries(&ex.id);
    let on_answer = {
        let state = props.state.clone();
        Callback::from(move |_: MouseEvent| {
            if state.collapsed {
                state.dispatch(SetAction::ToggleCollapsed);
            }
            // After the pane is shown again (the next frame).
            gloo_timers::callback::Timeout::new(0, scroll_to_answer).forget();
        })
    };
    let on_more = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(!*open))
    };
    let question = crate::model::exercise::question_paragraph(&ex.prompt);
    let asked = crate::ui::gallery::blocks(&crate::model::gallery::render_markdown(question));
    let prompt = crate::ui::gallery::blocks(&crate::model::gallery::render_markdown(&ex.prompt));
    html! {
        <div class={classes!("exercise-bar", (*open).then_some("open"))} data-testid="exercise-bar" role="region" aria-label="The question">
            <div class="exercise-bar-line">
                <span class="exercise-bar-title">
                    <span class="exercise-number">{ format!("{}.", props.current + 1) }</span>
                    { ex.title.clone() }
                </span>
                <div class="exercise-bar-prompt" data-testid="exercise-bar-prompt" title="The question; More shows the whole prompt">{ asked }</div>
                <span class={classes!("exercise-bar-result", st.progress.status(&ex.id).class())} data-testid="exercise-bar-result"
                    title={format!("{tries} checked answer(s)")}>
                    { format!("{mark} {words}") }
                </span>
                <button class="linklike" data-testid="exercise-bar-more" onclick={on_more} aria-expanded={(*open).to_string()}>
                    { if *open { "Less" } else { "More" } }
                </button>
                <button class="exercise-bar-answer" data-testid="exercise-bar-answer" onclick={on_answer}
                    title="Back to the answer widgets above the playground">{ "Answer ↑" }</button>
            </div>
            if *open {
                <div class="exercise-bar-drawer" data-testid="exercise-bar-drawer">{ prompt }</div>
            }
        </div>
    }
}
