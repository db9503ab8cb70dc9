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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::analysis::{Run, RunSpec};
    use crate::model::page::EXAMPLE_PROGRAM;

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
