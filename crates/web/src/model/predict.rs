//! Predict mode: before a step of the CPA+ algorithm is shown, the student
//! predicts what it will do, and is told per question whether they were
//! right. Grading compares a [`Prediction`] with the [`StepOutcome`] read
//! off the recorded event trace — nothing is re-run, and nothing here
//! depends on the UI, so exercises can grade "next step" questions with the
//! same functions.
//!
//! A *step* is one iteration of the algorithm's main loop: it begins with a
//! [`engine::trace::Event::WaitlistPop`] and lasts until the next pop (or the end of the
//! run). In it, the popped state's successors are computed along every
//! leaving edge; each successor is merged with the reached states at its
//! location and then checked by stop. The three questions are:
//!
//! 1. **Which state is popped?** — one of the waitlist's states.
//! 2. **Does merge change the reached set?** — [`MergeOutcome`]: no reached
//!    state is replaced (merge^sep keeps states apart, or the join/widening
//!    result equals the reached state), or some reached state is replaced by
//!    a join, or by a widening. Widening wins when both happen in one step.
//! 3. **Does stop cover the new state(s)?** — [`StopOutcome`]: all covered,
//!    none covered, some covered, or there was no new state to check (every
//!    edge infeasible, or a target/sink without successors).
//!
//! Grading a "next step" question from a recorded run:
//!
//! ```
//! use web::model::analysis::{Run, RunSpec};
//! use web::model::predict::{grade, MergeOutcome, Prediction, StepOutcome, StopOutcome};
//!
//! let run = Run::start(web::model::page::EXAMPLE_PROGRAM, RunSpec::default()).unwrap().complete();
//! // The first step of the trace (from event 0; the trace is complete).
//! let step = StepOutcome::next(run.cursor.events(), 0, true).unwrap();
//! let guess = Prediction { popped: Some(step.popped), merge: Some(MergeOutcome::Joined), stop: Some(StopOutcome::NotCovered) };
//! let g = grade(&guess, &step);
//! assert_eq!(g.score(), (2, 3)); // nothing to merge with in step 1
//! // The next question starts where this step ended.
//! assert_eq!(StepOutcome::next(run.cursor.events(), step.end, true).unwrap().step, 2);
//! ```
//!
//! The grading itself lives in crate `exercises` (`exercises::predict`), so
//! predict mode and the exercises' `next-step` questions can never disagree
//! about what a step did; this module re-exports it for the page.

pub use exercises::predict::*;

use engine::trace::{Event, StateId};
use engine::view::Snapshot;

/// The waitlist at the shown position as predict mode offers it for the
/// first question: `(id, "s12 @N5")`, in waitlist order.
pub fn waitlist_choices(snapshot: &Snapshot) -> Vec<(StateId, String)> {
    snapshot
        .waitlist
        .iter()
        .map(|&id| {
            let loc = snapshot.state(id).and_then(|s| s.location).map(|l| format!(" @{l}")).unwrap_or_default();
            (id, format!("{id}{loc}"))
        })
        .collect()
}

/// Predicate analysis: the fourth question of a step that computes an
/// abstraction — which formula ψ' the new abstraction state gets. The
/// choices are the recorded result and wrong alternatives built from it
/// and the predicates, in a fixed order that does not give the answer away.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AbstractionQuestion {
    /// The abstraction state (a transfer successor of the step).
    pub state: StateId,
    /// Its location (`N4`).
    pub location: String,
    /// `boolean` or `cartesian`.
    pub kind: String,
    /// The predicates of the location.
    pub predicates: Vec<String>,
    /// The formulas offered, sorted; one of them is [`AbstractionQuestion::actual`].
    pub choices: Vec<String>,
    /// ψ' as the analysis computed it.
    pub actual: String,
}

/// The abstraction question of `step`: its first `Abstraction` event, if
/// any. The wrong choices: `true` when ψ' is a conjunction of literals
/// (a disjunction could be equivalent to `true` without reading so; then
/// `false` is offered, as a reachable state's ψ' is never `false`), and
/// ψ' with its first literal over a predicate flipped — or, when ψ' is
/// `true`, the first predicate negated and the conjunction of all
/// predicates (the abstraction knowing more than it can).
pub fn abstraction_question(events: &[Event], step: &StepOutcome) -> Option<AbstractionQuestion> {
    let (state, a) = events.get(step.start..step.end.min(events.len()))?.iter().find_map(|e| match e {
        Event::Abstraction { state, abstraction } => Some((*state, abstraction)),
        _ => None,
    })?;
    let actual = a.result.clone();
    let mut wrong: Vec<String> = Vec::new();
    if actual == "true" {
        if let Some(p) = a.predicates.first() {
            wrong.push(format!("!({p})"));
            wrong.push(a.predicates.join(" && "));
        } else {
            wrong.push("false".into());
        }
    } else {
        wrong.push(if actual.contains("||") || actual == "false" { "false" } else { "true" }.into());
        if let Some(f) = flip_first_literal(&actual, &a.predicates) {
            wrong.push(f);
        }
    }
    let mut choices: Vec<String> = std::iter::once(actual.clone()).chain(wrong).collect();
    choices.sort();
    choices.dedup();
    Some(AbstractionQuestion {
        state,
        location: a.location.to_string(),
        kind: a.kind.clone(),
        predicates: a.predicates.clone(),
        choices,
        actual,
    })
}

/// `formula` with the first occurrence of a predicate flipped: `!(p)`
/// becomes `p`, a bare `p` becomes `!(p)`; `None` when no predicate occurs.
fn flip_first_literal(formula: &str, predicates: &[String]) -> Option<String> {
    let (at, p) = predicates.iter().filter_map(|p| formula.find(p.as_str()).map(|i| (i, p))).min_by_key(|(i, _)| *i)?;
    let negated = formula[..at].ends_with("!(") && formula[at + p.len()..].starts_with(')');
    Some(if negated {
        format!("{}{p}{}", &formula[..at - 2], &formula[at + p.len() + 1..])
    } else {
        format!("{}!({p}){}", &formula[..at], &formula[at + p.len()..])
    })
}

/// Predict mode's panel state: whether it is on, the answers given so far
/// for the next step, the grading of the step just shown, and the tally.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PredictMode {
    /// Whether predict mode is on (the pane then only moves forward
    /// through graded steps).
    pub on: bool,
    /// The answers chosen for the next step.
    pub prediction: Prediction,
    /// The ψ' chosen for the next step's abstraction state.
    pub abstraction: Option<String>,
    /// The grading of the step just shown.
    pub last: Option<Grading>,
    /// Right answers and questions asked since predict mode was turned on.
    pub tally: (usize, usize),
}

/// What the student does in the predict panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PredictAction {
    /// Turns predict mode on or off (either way the grading and the tally
    /// start afresh).
    Toggle,
    /// Answers question 1: the state popped next.
    Popped(Option<StateId>),
    /// Answers question 2: what merge does.
    Merge(Option<MergeOutcome>),
    /// Answers question 3: what stop does.
    Stop(Option<StopOutcome>),
    /// Answers question 4 (predicate analysis): ψ' of the abstraction state.
    Abstraction(Option<String>),
    /// Grades the answers against the next step (the pane then shows it)
    /// and its abstraction question, if it has one, and clears them for
    /// the following one.
    Check(StepOutcome, Option<AbstractionQuestion>),
}

impl PredictMode {
    /// The panel's state after `action`.
    pub fn reduce(&self, action: PredictAction) -> PredictMode {
        let mut next = self.clone();
        match action {
            PredictAction::Toggle => {
                next.on = !self.on;
                next.last = None;
                next.tally = (0, 0);
            }
            PredictAction::Popped(popped) => next.prediction.popped = popped,
            PredictAction::Merge(merge) => next.prediction.merge = merge,
            PredictAction::Stop(stop) => next.prediction.stop = stop,
            PredictAction::Abstraction(psi) => next.abstraction = psi,
            PredictAction::Check(step, question) => {
                let mut g = grade(&self.prediction, &step);
                if let (Some(q), Some(psi)) = (question, &self.abstraction) {
                    g.answers.push(Answer {
                        question: "abstraction",
                        predicted: format!("ψ' of {} is {psi}", q.state),
                        actual: format!("ψ' of {} is {}", q.state, q.actual),
                        right: *psi == q.actual,
                    });
                }
                let (right, asked) = g.score();
                next.tally = (self.tally.0 + right, self.tally.1 + asked);
                next.last = Some(g);
                next.prediction = Prediction::default();
                next.abstraction = None;
            }
        }
        next
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::analysis::{Run, RunSpec};
    use crate::model::page::EXAMPLE_PROGRAM;

    #[test]
    fn the_panel_grades_tallies_and_starts_afresh_when_toggled() {
        let run = Run::start(EXAMPLE_PROGRAM, RunSpec::default()).unwrap().complete();
        let step = StepOutcome::next(run.cursor.events(), 0, true).unwrap();
        let on = PredictMode::default().reduce(PredictAction::Toggle);
        assert!(on.on && on.last.is_none() && on.tally == (0, 0));
        let answered = on
            .reduce(PredictAction::Popped(Some(step.popped)))
            .reduce(PredictAction::Merge(Some(MergeOutcome::Joined)))
            .reduce(PredictAction::Stop(Some(StopOutcome::NotCovered)));
        assert_eq!(answered.prediction.popped, Some(step.popped));
        let graded = answered.reduce(PredictAction::Check(step.clone(), None));
        assert_eq!(graded.last.as_ref().map(Grading::score), Some((2, 3)), "nothing to merge with in step 1");
        assert_eq!(graded.tally, (2, 3));
        assert_eq!(graded.prediction, Prediction::default(), "the next step starts unanswered");
        // Unanswered questions are not graded, and the tally adds up.
        let again = graded.reduce(PredictAction::Popped(Some(step.popped))).reduce(PredictAction::Check(step, None));
        assert_eq!(again.tally, (3, 4));
        let off = again.reduce(PredictAction::Toggle);
        assert!(!off.on && off.last.is_none() && off.tally == (0, 0));
    }

    #[test]
    fn the_waitlist_is_offered_with_locations() {
        let mut run = Run::start(EXAMPLE_PROGRAM, RunSpec::default()).unwrap().complete();
        // The first position with a waiting state.
        let at = (0..run.cursor.len()).find(|&k| !run.cursor.seek(k).waitlist.is_empty()).expect("a state waits");
        let snap = run.cursor.seek(at).clone();
        let choices = waitlist_choices(&snap);
        assert_eq!(choices.len(), snap.waitlist.len());
        for ((id, label), w) in choices.iter().zip(&snap.waitlist) {
            assert_eq!(id, w);
            assert!(label.starts_with(&format!("{id} @N")), "{label}");
        }
    }

    #[test]
    fn listing_2_1_under_octagon_widening_has_a_widening_step_and_a_covering_step() {
        let run = Run::start(EXAMPLE_PROGRAM, RunSpec::default()).unwrap().complete();
        let events = run.cursor.events();
        let mut steps = Vec::new();
        let mut from = 0;
        while let Some(s) = StepOutcome::next(events, from, true) {
            from = s.end;
            steps.push(s);
        }
        assert_eq!(steps.len() as u64, run.steps(), "every pop is a step");
        assert!(steps.windows(2).all(|w| w[0].end == w[1].start && w[0].step + 1 == w[1].step));
        assert_eq!(steps[0].stop, StopOutcome::NotCovered, "the first successor is new");
        assert!(steps.iter().any(|s| s.merge == MergeOutcome::Widened), "widening at the loop head");
        assert!(steps.iter().any(|s| s.stop == StopOutcome::Covered), "the fixpoint: a covered state");
        assert!(steps.iter().all(|s| s.merge != MergeOutcome::Joined), "merge^widening at loop heads, sep elsewhere");
        // The popped state of each step is the one the view shows as current.
        let mut cursor = run.cursor.clone();
        for s in &steps {
            cursor.seek(s.start);
            assert!(cursor.snapshot().waitlist.contains(&s.popped), "step {}: the popped state waits before the pop", s.step);
            cursor.seek(s.end);
            assert_eq!(cursor.snapshot().current_state, Some(s.popped));
        }
    }
}
