//! [`Stepper`]: the steppable face shared by every run the engine drives —
//! the CPA+ reachability algorithm ([`crate::Reachability`]) and the
//! algorithms around it ([`crate::cegar::Verifier`]).
//!
//! A run is an explicit state machine that hands out its [`Event`]s one at a
//! time. It may *park* on a solver query it cannot answer itself (no back
//! end attached, as in the page): then [`Stepper::next_event`] returns
//! `None`, [`Stepper::pending_query`] the SMT-LIB2 script, and
//! [`Stepper::answer_query`] resumes the run with the solver's output.
//! Stepping by waitlist pop ([`Stepper::step`]) and running to the end
//! ([`Stepper::run`], [`Stepper::run_with`]) are defined once here on top of
//! those operations.

use crate::solver::SolverQuery;
use crate::trace::Event;

/// A run that produces its event trace step by step (see the module docs).
pub trait Stepper {
    /// The next event, or `None` once [`Event::AnalysisFinished`] was handed
    /// out — or while the run is parked on a solver query (see
    /// [`Stepper::pending_query`]).
    fn next_event(&mut self) -> Option<Event>;

    /// The event [`Stepper::next_event`] would return next, without taking
    /// it (`None` exactly when `next_event` would return `None`).
    fn peek_event(&mut self) -> Option<&Event>;

    /// The query the run is parked on, if any.
    fn pending_query(&self) -> Option<&SolverQuery>;

    /// Resumes a parked run with the solver's output text (`sat`, `unsat`
    /// or `unknown` first, then optionally a model). Does nothing when the
    /// run is not parked.
    fn answer_query(&mut self, solver_output: &str);

    /// Whether the run is over (all events handed out). A run parked on a
    /// solver query is not finished.
    fn is_finished(&self) -> bool;

    /// The flag [`Stepper::step`] keeps between calls: whether the last step
    /// stopped inside a waitlist pop because the run parked (the next step
    /// then continues that pop). Implementors store it and touch it nowhere
    /// else.
    fn parked_mid_step(&mut self) -> &mut bool;

    /// The events of one waitlist pop: everything up to (not including) the
    /// next [`Event::WaitlistPop`] after the first one (the first call also
    /// returns the start events). Empty when the run is over. When the run
    /// parks on a solver query mid-pop, returns what it has; the next call
    /// (after [`Stepper::answer_query`]) continues the same pop.
    fn step(&mut self) -> Vec<Event> {
        let mut out = Vec::new();
        let mut popped = std::mem::take(self.parked_mid_step());
        loop {
            match self.peek_event() {
                None => {
                    let parked = popped && self.pending_query().is_some();
                    *self.parked_mid_step() = parked;
                    return out;
                }
                Some(Event::WaitlistPop { .. }) if popped => return out,
                Some(Event::WaitlistPop { .. }) => popped = true,
                Some(_) => {}
            }
            out.extend(self.next_event());
        }
    }

    /// Runs to the end (or to a parked query) and returns the events.
    fn run(&mut self) -> Vec<Event> {
        let mut out = Vec::new();
        while let Some(e) = self.next_event() {
            out.push(e);
        }
        out
    }

    /// Runs to the end (or to a parked query), handing each event to `f`
    /// instead of storing it.
    fn run_with(&mut self, mut f: impl FnMut(&Event))
    where
        Self: Sized,
    {
        while let Some(e) = self.next_event() {
            f(&e);
        }
    }
}
