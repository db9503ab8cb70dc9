//! Predict mode (Yew): with the toggle on, the student answers three
//! questions about the next step before it is shown — which state is
//! popped, what merge does, whether stop covers, and for a predicate
//! analysis step that computes an abstraction a fourth: its ψ′ — then "Show the step"
//! grades the answers ([`crate::model::predict::grade`]) and moves the view to the
//! end of that step. The panel's state is [`PredictMode`], changed only
//! by its pure reducer ([`crate::model::predict::PredictAction`]).

use std::rc::Rc;

use engine::trace::StateId;
use yew::prelude::*;

use crate::model::predict::{AbstractionQuestion, MergeOutcome, PredictAction, PredictMode, StepOutcome, StopOutcome};

/// The choices offered for the popped state (computed in [`crate::model::predict`]).
pub use crate::model::predict::waitlist_choices;

/// The panel's state is a Yew reducer over the pure [`PredictMode::reduce`].
impl Reducible for PredictMode {
    type Action = PredictAction;

    fn reduce(self: Rc<Self>, action: PredictAction) -> Rc<Self> {
        Rc::new(PredictMode::reduce(&self, action))
    }
}

/// Properties of [`PredictPanel`].
#[derive(Properties, PartialEq)]
pub struct PredictPanelProps {
    /// The shown position (events applied).
    pub position: usize,
    /// The next step in the trace, if it is recorded.
    pub next: Option<StepOutcome>,
    /// Predicate analysis: the next step's abstraction question, if the
    /// step computes an abstraction.
    #[prop_or_default]
    pub abstraction: Option<AbstractionQuestion>,
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
    let mode = use_reducer(PredictMode::default);

    let toggle = {
        let (mode, on_mode) = (mode.clone(), props.on_mode.clone());
        Callback::from(move |_: Event| {
            let now = !mode.on;
            mode.dispatch(PredictAction::Toggle);
            on_mode.emit(now);
        })
    };
    let header = html! {
        <label class="predict-toggle">
            <input type="checkbox" data-testid="predict-toggle" checked={mode.on} onchange={toggle} />
            { " Predict mode: guess each step before it is shown" }
        </label>
    };
    if !mode.on {
        return html! { <div class="predict" data-testid="predict">{ header }</div> };
    }
    let graded = mode.last.as_ref().map(|g| grading(g, mode.tally));
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
        Some(next) => questions(&mode, next, props.abstraction.as_ref(), &props.waitlist, &props.on_seek),
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

/// The grading of the step just shown, with the tally so far.
fn grading(g: &crate::model::predict::Grading, tally: (usize, usize)) -> Html {
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
}

/// The three questions about the step `next`, and the button that grades
/// them and shows the step.
fn questions(
    mode: &UseReducerHandle<PredictMode>,
    next: &StepOutcome,
    abstraction: Option<&AbstractionQuestion>,
    waitlist: &[(StateId, String)],
    on_seek: &Callback<usize>,
) -> Html {
    // Each answer is the chosen option's value, read back into the model.
    let pick = |answer: fn(&str) -> PredictAction| {
        let mode = mode.clone();
        Callback::from(move |e: Event| {
            let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
            mode.dispatch(answer(&sel.value()));
        })
    };
    let pick_pop = pick(|v| PredictAction::Popped(v.strip_prefix('s').and_then(|n| n.parse().ok()).map(StateId)));
    let pick_merge = pick(|v| PredictAction::Merge(MergeOutcome::from_key(v)));
    let pick_stop = pick(|v| PredictAction::Stop(StopOutcome::from_key(v)));
    let check = {
        let (mode, next, on_seek, q) = (mode.clone(), next.clone(), on_seek.clone(), abstraction.cloned());
        Callback::from(move |_: MouseEvent| {
            let end = next.end;
            mode.dispatch(PredictAction::Check(next.clone(), q.clone()));
            on_seek.emit(end);
        })
    };
    let p = &mode.prediction;
    let pops = waitlist.iter().map(|(id, label)| (id.to_string(), label.clone(), p.popped == Some(*id)));
    let merges = MergeOutcome::ALL.iter().map(|m| (m.key().to_string(), m.words().to_string(), p.merge == Some(*m)));
    let stops = StopOutcome::ALL.iter().map(|s| (s.key().to_string(), s.words().to_string(), p.stop == Some(*s)));
    html! {
        <div class="predict-questions">
            <div class="predict-q">{ format!("Step {}: ", next.step) }</div>
            { question("1. popped: ", "predict-pop", pick_pop, p.popped.is_none(), pops) }
            { question("2. merge: ", "predict-merge", pick_merge, p.merge.is_none(), merges) }
            { question("3. stop: ", "predict-stop", pick_stop, p.stop.is_none(), stops) }
            { for abstraction.map(|q| abstraction_question(mode, q)) }
            <button class="primary" data-testid="predict-check" onclick={check}>{ "Show the step and grade" }</button>
        </div>
    }
}

/// Question 4 of a step that computes a predicate abstraction: which ψ'
/// the new abstraction state gets.
fn abstraction_question(mode: &UseReducerHandle<PredictMode>, q: &AbstractionQuestion) -> Html {
    let onchange = {
        let (mode, choices) = (mode.clone(), q.choices.clone());
        Callback::from(move |e: Event| {
            let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
            let chosen = sel.value().parse::<usize>().ok().and_then(|i| choices.get(i).cloned());
            mode.dispatch(PredictAction::Abstraction(chosen));
        })
    };
    let chosen = mode.abstraction.as_deref();
    let answers = q.choices.iter().enumerate().map(|(i, c)| (i.to_string(), c.clone(), chosen == Some(c.as_str())));
    html! {
        <div class="predict-abstraction" data-testid="predict-abstraction-q">
            <p class="hint">
                { format!("This step computes the {} abstraction of {} at {} over the predicates: {}.", q.kind, q.state, q.location,
                    if q.predicates.is_empty() { "none".to_string() } else { q.predicates.join(", ") }) }
            </p>
            { question("4. ψ' of the abstraction state: ", "predict-abstraction", onchange, chosen.is_none(), answers) }
        </div>
    }
}

/// One question: a select whose first option "—" means unanswered, then
/// the `(value, words, selected)` answers.
fn question(
    words: &'static str,
    testid: &'static str,
    onchange: Callback<Event>,
    unanswered: bool,
    answers: impl Iterator<Item = (String, String, bool)>,
) -> Html {
    html! {
        <label>{ words }
            <select data-testid={testid} {onchange}>
                <option value="" selected={unanswered}>{ "—" }</option>
                { for answers.map(|(value, words, selected)| html! { <option {value} {selected}>{ words }</option> }) }
            </select>
        </label>
    }
}
