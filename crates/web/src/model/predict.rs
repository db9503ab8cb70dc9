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

use engine::trace::StateId;
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

/// Predict mode's panel state: whether it is on, the answers given so far
/// for the next step, the grading of the step just shown, and the tally.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PredictMode {
    /// Whether predict mode is on (the pane then only moves forward
    /// through graded steps).
    pub on: bool,
    /// The answers chosen for the next step.
    pub prediction: Prediction,
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
    /// Grades the answers against the next step (the pane then shows it)
    /// and clears them for the following one.
    Check(StepOutcome),
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
            PredictAction::Check(step) => {
                let g = grade(&self.prediction, &step);
                let (right, asked) = g.score();
                next.tally = (self.tally.0 + right, self.tally.1 + asked);
                next.last = Some(g);
                next.prediction = Prediction::default();
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
        let graded = answered.reduce(PredictAction::Check(step.clone()));
        assert_eq!(graded.last.as_ref().map(Grading::score), Some((2, 3)), "nothing to merge with in step 1");
        assert_eq!(graded.tally, (2, 3));
        assert_eq!(graded.prediction, Prediction::default(), "the next step starts unanswered");
        // Unanswered questions are not graded, and the tally adds up.
        let again = graded.reduce(PredictAction::Popped(Some(step.popped))).reduce(PredictAction::Check(step));
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
