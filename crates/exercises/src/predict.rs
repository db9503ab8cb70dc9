//! Predict mode and `next-step` exercises: before a step of the CPA+
//! algorithm is shown, the student
//! predicts what it will do, and is told per question whether they were
//! right. Grading compares a [`Prediction`] with the [`StepOutcome`] read
//! off the recorded event trace — nothing is re-run, and nothing here
//! depends on the UI, so exercises can grade "next step" questions with the
//! same functions.
//!
//! A *step* is one iteration of the algorithm's main loop: it begins with a
//! [`Event::WaitlistPop`] and lasts until the next pop (or the end of the
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
//! This is the one home of the grading the page's predict mode shows
//! (`web::model::predict` re-exports it), so a `next-step` exercise and predict
//! mode can never disagree about what a step did.

use engine::trace::{Event, MergeKind, StateId};

/// The merge question's answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MergeOutcome {
    /// No reached state changed: merge^sep, no reached state at the
    /// successor's location, or the merge result was the reached state.
    KeptApart,
    /// A reached state was replaced by a join `e ⊔ e'`.
    Joined,
    /// A reached state was replaced by a widening `e' ∇ (e ⊔ e')`.
    Widened,
}

impl MergeOutcome {
    /// All answers, in the order offered.
    pub const ALL: [MergeOutcome; 3] = [MergeOutcome::KeptApart, MergeOutcome::Joined, MergeOutcome::Widened];

    /// The answer in words.
    pub fn words(self) -> &'static str {
        match self {
            MergeOutcome::KeptApart => "kept apart / unchanged (no reached state replaced)",
            MergeOutcome::Joined => "joined: a reached state is replaced by the join",
            MergeOutcome::Widened => "widened: a reached state is replaced by the widening",
        }
    }

    /// A short key (form values, exercise files): `kept`, `joined`, `widened`.
    pub fn key(self) -> &'static str {
        match self {
            MergeOutcome::KeptApart => "kept",
            MergeOutcome::Joined => "joined",
            MergeOutcome::Widened => "widened",
        }
    }

    /// Reads [`MergeOutcome::key`].
    pub fn from_key(key: &str) -> Option<MergeOutcome> {
        MergeOutcome::ALL.into_iter().find(|m| m.key() == key)
    }
}

/// The stop question's answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StopOutcome {
    /// Every new state was covered (none is added).
    Covered,
    /// No new state was covered (all are added).
    NotCovered,
    /// Some were covered, others not.
    Some,
    /// There was no new state to check.
    NoNewState,
}

impl StopOutcome {
    /// All answers, in the order offered.
    pub const ALL: [StopOutcome; 4] = [StopOutcome::Covered, StopOutcome::NotCovered, StopOutcome::Some, StopOutcome::NoNewState];

    /// The answer in words.
    pub fn words(self) -> &'static str {
        match self {
            StopOutcome::Covered => "covered: the new state is not added",
            StopOutcome::NotCovered => "not covered: the new state is added",
            StopOutcome::Some => "some new states covered, others added",
            StopOutcome::NoNewState => "no new state to check",
        }
    }

    /// A short key: `covered`, `not-covered`, `some`, `none`.
    pub fn key(self) -> &'static str {
        match self {
            StopOutcome::Covered => "covered",
            StopOutcome::NotCovered => "not-covered",
            StopOutcome::Some => "some",
            StopOutcome::NoNewState => "none",
        }
    }

    /// Reads [`StopOutcome::key`].
    pub fn from_key(key: &str) -> Option<StopOutcome> {
        StopOutcome::ALL.into_iter().find(|m| m.key() == key)
    }
}

/// What happened in one step, read off the trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepOutcome {
    /// The step number (1-based).
    pub step: u64,
    /// The state popped.
    pub popped: StateId,
    /// What merge did.
    pub merge: MergeOutcome,
    /// What stop did.
    pub stop: StopOutcome,
    /// Index of the step's pop event: seeking to `start` shows the view
    /// just before the step.
    pub start: usize,
    /// Index just past the step's last event: seeking to `end` shows the
    /// whole step.
    pub end: usize,
}

impl StepOutcome {
    /// The first step that begins at or after event index `from`, if the
    /// trace holds all of it. `complete` says whether the trace is finished
    /// (then the last step ends with the trace; otherwise a step is only
    /// known once the next pop is recorded).
    pub fn next(events: &[Event], from: usize, complete: bool) -> Option<StepOutcome> {
        let start = (from..events.len()).find(|&i| matches!(events[i], Event::WaitlistPop { .. }))?;
        let Event::WaitlistPop { state, step } = events[start] else { return None };
        let end = match (start + 1..events.len()).find(|&i| matches!(events[i], Event::WaitlistPop { .. })) {
            Some(e) => e,
            None if complete => events.len(),
            None => return None,
        };
        Some(StepOutcome::of(&events[start..end], step, state, start, end))
    }

    fn of(events: &[Event], step: u64, popped: StateId, start: usize, end: usize) -> StepOutcome {
        let (mut joined, mut widened) = (false, false);
        let (mut covered, mut added) = (0usize, 0usize);
        for e in events {
            match e {
                Event::Merge { operator, replaced: true, .. } => match operator {
                    MergeKind::Widening => widened = true,
                    _ => joined = true,
                },
                Event::Stop { covered: true, .. } => covered += 1,
                Event::Stop { covered: false, .. } => added += 1,
                _ => {}
            }
        }
        let merge = if widened {
            MergeOutcome::Widened
        } else if joined {
            MergeOutcome::Joined
        } else {
            MergeOutcome::KeptApart
        };
        let stop = match (covered, added) {
            (0, 0) => StopOutcome::NoNewState,
            (_, 0) => StopOutcome::Covered,
            (0, _) => StopOutcome::NotCovered,
            _ => StopOutcome::Some,
        };
        StepOutcome { step, popped, merge, stop, start, end }
    }
}

/// The student's prediction; a question left `None` is not graded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Prediction {
    /// The state they expect to be popped.
    pub popped: Option<StateId>,
    /// What they expect merge to do.
    pub merge: Option<MergeOutcome>,
    /// What they expect stop to do.
    pub stop: Option<StopOutcome>,
}

/// One graded question.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The question, short: `popped`, `merge`, `stop`.
    pub question: &'static str,
    /// What the student said, in words.
    pub predicted: String,
    /// What happened, in words.
    pub actual: String,
    /// Whether they were right.
    pub right: bool,
}

/// The grading of a prediction: one [`Answer`] per question asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grading {
    /// The step graded.
    pub step: u64,
    /// The answers, in question order (popped, merge, stop).
    pub answers: Vec<Answer>,
}

impl Grading {
    /// Right answers out of questions asked: `(right, asked)`.
    pub fn score(&self) -> (usize, usize) {
        (self.answers.iter().filter(|a| a.right).count(), self.answers.len())
    }

    /// Whether every question asked was answered right (and at least one was asked).
    pub fn all_right(&self) -> bool {
        !self.answers.is_empty() && self.answers.iter().all(|a| a.right)
    }
}

/// Grades `prediction` against what the step did.
pub fn grade(prediction: &Prediction, outcome: &StepOutcome) -> Grading {
    let mut answers = Vec::new();
    if let Some(p) = prediction.popped {
        answers.push(Answer {
            question: "popped",
            predicted: format!("pop {p}"),
            actual: format!("pop {}", outcome.popped),
            right: p == outcome.popped,
        });
    }
    if let Some(m) = prediction.merge {
        answers.push(Answer {
            question: "merge",
            predicted: m.words().into(),
            actual: outcome.merge.words().into(),
            right: m == outcome.merge,
        });
    }
    if let Some(s) = prediction.stop {
        answers.push(Answer {
            question: "stop",
            predicted: s.words().into(),
            actual: outcome.stop.words().into(),
            right: s == outcome.stop,
        });
    }
    Grading { step: outcome.step, answers }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::trace::StopKind;

    fn pop(s: u32, step: u64) -> Event {
        Event::WaitlistPop { state: StateId(s), step }
    }
    fn merge(op: MergeKind, replaced: bool) -> Event {
        Event::Merge {
            operator: op,
            new: StateId(9),
            reached: StateId(1),
            result: StateId(if replaced { 10 } else { 1 }),
            replaced,
        }
    }
    fn stop(covered: bool) -> Event {
        Event::Stop {
            state: StateId(9),
            operator: StopKind::Sep,
            covered,
            covered_by: if covered { vec![StateId(1)] } else { vec![] },
            decided_by: None,
        }
    }

    #[test]
    fn a_step_runs_from_its_pop_to_the_next() {
        let events = vec![
            pop(0, 1),
            stop(false),
            Event::ReachedAdd { state: StateId(9) },
            pop(9, 2),
            merge(MergeKind::Join, true),
            stop(false),
            pop(10, 3),
            merge(MergeKind::Widening, false),
            merge(MergeKind::Join, true),
            stop(true),
            pop(11, 4),
        ];
        let s1 = StepOutcome::next(&events, 0, false).unwrap();
        assert_eq!(
            (s1.step, s1.popped, s1.merge, s1.stop, s1.start, s1.end),
            (1, StateId(0), MergeOutcome::KeptApart, StopOutcome::NotCovered, 0, 3)
        );
        // From inside step 1, the next step is step 2.
        let s2 = StepOutcome::next(&events, 1, false).unwrap();
        assert_eq!((s2.step, s2.merge, s2.stop, s2.start, s2.end), (2, MergeOutcome::Joined, StopOutcome::NotCovered, 3, 6));
        let s3 = StepOutcome::next(&events, 6, false).unwrap();
        assert_eq!(
            (s3.merge, s3.stop),
            (MergeOutcome::Joined, StopOutcome::Covered),
            "a replacing join; the unchanged widening does not count"
        );
        // The last step is known only when the trace is complete.
        assert_eq!(StepOutcome::next(&events, 10, false), None);
        let s4 = StepOutcome::next(&events, 10, true).unwrap();
        assert_eq!((s4.stop, s4.end), (StopOutcome::NoNewState, 11));
        assert_eq!(StepOutcome::next(&events, 11, true), None, "no step after the last pop");
    }

    #[test]
    fn widening_wins_and_mixed_stops_are_some() {
        let events = vec![pop(3, 7), merge(MergeKind::Join, true), merge(MergeKind::Widening, true), stop(true), stop(false)];
        let s = StepOutcome::next(&events, 0, true).unwrap();
        assert_eq!((s.merge, s.stop), (MergeOutcome::Widened, StopOutcome::Some));
    }

    #[test]
    fn grading_marks_each_question() {
        let outcome = StepOutcome {
            step: 5,
            popped: StateId(4),
            merge: MergeOutcome::Joined,
            stop: StopOutcome::NotCovered,
            start: 0,
            end: 1,
        };
        let right =
            Prediction { popped: Some(StateId(4)), merge: Some(MergeOutcome::Joined), stop: Some(StopOutcome::NotCovered) };
        let g = grade(&right, &outcome);
        assert!(g.all_right());
        assert_eq!(g.score(), (3, 3));
        let wrong = Prediction { popped: Some(StateId(2)), merge: Some(MergeOutcome::KeptApart), stop: None };
        let g = grade(&wrong, &outcome);
        assert_eq!(g.score(), (0, 2), "stop was not asked");
        assert_eq!(g.answers[0].predicted, "pop s2");
        assert_eq!(g.answers[0].actual, "pop s4");
        assert_eq!(g.answers[1].actual, MergeOutcome::Joined.words());
        assert!(!grade(&Prediction::default(), &outcome).all_right(), "nothing asked is not all right");
        for m in MergeOutcome::ALL {
            assert_eq!(MergeOutcome::from_key(m.key()), Some(m));
        }
        for s in StopOutcome::ALL {
            assert_eq!(StopOutcome::from_key(s.key()), Some(s));
        }
        assert_eq!(StopOutcome::from_key("maybe"), None);
    }
}
