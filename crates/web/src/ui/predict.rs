//! Predict mode (Yew): with the toggle on, the student answers three
//! questions about the next step before it is shown — which state is
//! popped, what merge does, whether stop covers — then "Show the step"
//! grades the answers ([`crate::model::predict::grade`]) and moves the view to the
//! end of that step.

use engine::trace::StateId;
use yew::prelude::*;

use crate::model::predict::{grade, Grading, MergeOutcome, Prediction, StepOutcome, StopOutcome};

/// Properties of [`PredictPanel`].
#[derive(Properties, PartialEq)]
pub struct PredictPanelProps {
    /// The shown position (events applied).
    pub position: usize,
    /// The next step in the trace, if it is recorded.
    pub next: Option<StepOutcome>,
    /// The waitlist at the shown position: `(id, "s12 @N5 …")`.
    pub waitlist: Vec<(StateId, String)>,
    /// Whether the run is still computing (the next step may come later).
    pub computing: bool,
    /// Moves the view to an event position (the only way forward while
    /// predict mode is on).
    pub on_seek: Callback<usize>,
    /// Told when predict mode is turned on or off (the pane then disables
    /// or enables its forward controls).
    #[prop_or_default]
    pub on_mode: Callback<bool>,
}

/// The predict-mode panel: a toggle, the questions, and the last grading.
#[function_component(PredictPanel)]
pub fn predict_panel(props: &PredictPanelProps) -> Html {
    let on = use_state(|| false);
    let prediction = use_state(Prediction::default);
    let last = use_state(|| None::<Grading>);
    // Right answers and questions asked since predict mode was turned on.
    let tally = use_state(|| (0usize, 0usize));

    let toggle = {
        let (on, last, tally, on_mode) = (on.clone(), last.clone(), tally.clone(), props.on_mode.clone());
        Callback::from(move |_: Event| {
            // Read once: after `set` the handle may already show the new value.
            let now = !*on;
            on.set(now);
            on_mode.emit(now);
            last.set(None);
            tally.set((0, 0));
        })
    };
    let header = html! {
        <label class="predict-toggle">
            <input type="checkbox" data-testid="predict-toggle" checked={*on} onchange={toggle} />
            { " Predict mode: guess each step before it is shown" }
        </label>
    };
    if !*on {
        return html! { <div class="predict" data-testid="predict">{ header }</div> };
    }

    let graded = (*last).as_ref().map(|g| {
        let (right, asked) = g.score();
        html! {
            <div class={classes!("predict-result", g.all_right().then_some("all-right"))} data-testid="predict-result">
                <div class="predict-score">
                    { format!("Step {}: {right} of {asked} right", g.step) }
                    <span class="predict-tally" data-testid="predict-tally">{ format!(" — {} of {} so far", tally.0, tally.1) }</span>
                </div>
                <ul>
                    { for g.answers.iter().map(|a| html! {
                        <li class={if a.right { "right" } else { "wrong" }} data-question={a.question}>
                            <span class="mark">{ if a.right { "✔ right" } else { "✘ wrong" } }</span>
                            { format!(" {}: you said {}", a.question, a.predicted) }
                            if !a.right { { format!("; it was {}", a.actual) } }
                        </li>
                    }) }
                </ul>
            </div>
        }
    });

    let questions = match &props.next {
        None if props.computing => html! { <p class="hint">{ "The next step is still being computed…" }</p> },
        None => html! { <p class="hint">{ "No step follows: the analysis is over." }</p> },
        Some(next) if props.position != next.start => {
            let (to, on_seek) = (next.start, props.on_seek.clone());
            html! {
                <p class="hint">
                    { "The shown step is not finished. " }
                    <button data-testid="predict-go" onclick={Callback::from(move |_: MouseEvent| on_seek.emit(to))}>
                        { format!("Go to the start of step {}", next.step) }
                    </button>
                </p>
            }
        }
        Some(next) => {
            let pick_pop = {
                let prediction = prediction.clone();
                Callback::from(move |e: Event| {
                    let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
                    let popped = sel.value().strip_prefix('s').and_then(|n| n.parse().ok()).map(StateId);
                    prediction.set(Prediction { popped, ..(*prediction).clone() });
                })
            };
            let pick_merge = {
                let prediction = prediction.clone();
                Callback::from(move |e: Event| {
                    let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
                    prediction.set(Prediction { merge: MergeOutcome::from_key(&sel.value()), ..(*prediction).clone() });
                })
            };
            let pick_stop = {
                let prediction = prediction.clone();
                Callback::from(move |e: Event| {
                    let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
                    prediction.set(Prediction { stop: StopOutcome::from_key(&sel.value()), ..(*prediction).clone() });
                })
            };
            let check = {
                let (prediction, last, next, on_seek) = (prediction.clone(), last.clone(), next.clone(), props.on_seek.clone());
                let tally = tally.clone();
                Callback::from(move |_: MouseEvent| {
                    let g = grade(&prediction, &next);
                    let (right, asked) = g.score();
                    tally.set((tally.0 + right, tally.1 + asked));
                    last.set(Some(g));
                    prediction.set(Prediction::default());
                    on_seek.emit(next.end);
                })
            };
            let p = &*prediction;
            html! {
                <div class="predict-questions">
                    <div class="predict-q">{ format!("Step {}: ", next.step) }</div>
                    <label>{ "1. popped: " }
                        <select data-testid="predict-pop" onchange={pick_pop}>
                            <option value="" selected={p.popped.is_none()}>{ "—" }</option>
                            { for props.waitlist.iter().map(|(id, label)| html! {
                                <option value={id.to_string()} selected={p.popped == Some(*id)}>{ label.clone() }</option>
                            }) }
                        </select>
                    </label>
                    <label>{ "2. merge: " }
                        <select data-testid="predict-merge" onchange={pick_merge}>
                            <option value="" selected={p.merge.is_none()}>{ "—" }</option>
                            { for MergeOutcome::ALL.iter().map(|m| html! {
                                <option value={m.key()} selected={p.merge == Some(*m)}>{ m.words() }</option>
                            }) }
                        </select>
                    </label>
                    <label>{ "3. stop: " }
                        <select data-testid="predict-stop" onchange={pick_stop}>
                            <option value="" selected={p.stop.is_none()}>{ "—" }</option>
                            { for StopOutcome::ALL.iter().map(|s| html! {
                                <option value={s.key()} selected={p.stop == Some(*s)}>{ s.words() }</option>
                            }) }
                        </select>
                    </label>
                    <button class="primary" data-testid="predict-check" onclick={check}>{ "Show the step and grade" }</button>
                </div>
            }
        }
    };

    html! {
        <div class="predict on" data-testid="predict">
            { header }
            // The step just shown, graded, above the questions about the next one.
            { for graded }
            { questions }
        </div>
    }
}

/// The waitlist at the shown position as predict mode offers it:
/// `(id, "s12 @N5")`, in waitlist order.
pub fn waitlist_choices(snapshot: &engine::view::Snapshot) -> Vec<(StateId, String)> {
    snapshot
        .waitlist
        .iter()
        .map(|&id| {
            let loc = snapshot.state(id).and_then(|s| s.location).map(|l| format!(" @{l}")).unwrap_or_default();
            (id, format!("{id}{loc}"))
        })
        .collect()
}
