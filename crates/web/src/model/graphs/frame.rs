//! What the graph views draw of a run of the CPA algorithm: the
//! [`RunFrame`] (the program, the fold of the trace at the cursor's event and
//! every ARG state computed so far), and the [`FrameSlot`] that holds the
//! latest frame for the graph views and knows who to tell when it changes.
//!
//! The analysis pane makes a frame whenever the shown position moves; the
//! graph views redraw from it. `crate::ui::graphs::FrameStore` is the
//! browser's shared handle to a [`FrameSlot`].

use std::rc::Rc;
use std::sync::Arc;

use cfa::Program;
use engine::view::Snapshot;

use crate::model::analysis::Run;
use crate::model::graphs::arg::{iteration_start, ArgState, ArgStub};

/// What the graphs need of the analysis at the shown position.
#[derive(Clone, Debug)]
pub struct RunFrame {
    /// Changes with every new run.
    pub run_id: u64,
    /// The analysed program.
    pub program: Arc<Program>,
    /// The fold of the trace at the shown position.
    pub snapshot: Rc<Snapshot>,
    /// Whether the editor still holds the analysed program.
    pub fresh: bool,
    /// Every state of the shown iteration computed so far (the ARG is laid
    /// out from them, so its picture stays put while stepping).
    pub arg_states: Rc<Vec<ArgState>>,
    /// Symbolic execution: every branch without a successor of the shown
    /// iteration computed so far (stubs laid out with the states).
    pub arg_stubs: Rc<Vec<ArgStub>>,
    /// Where the shown iteration begins in the trace (0 without restarts).
    pub arg_from: usize,
    /// Events in the trace when `arg_states` was collected.
    pub events_len: usize,
    /// The run's configuration summary (its first event), known at every
    /// position, event 0 included: which views the run offers (the
    /// Transformation view for the explorer of a transformed program).
    pub info: Option<Rc<engine::trace::RunInfo>>,
}

impl RunFrame {
    /// The frame of a run at its cursor's position; the states of the
    /// trace are collected again only when the trace grew (else taken from
    /// `previous`).
    pub fn new(run_id: u64, run: &Run, fresh: bool, previous: Option<&RunFrame>) -> RunFrame {
        let events = run.cursor.events();
        let position = run.cursor.snapshot().position;
        let (arg_from, arg_states, arg_stubs) = match previous {
            Some(p) if p.run_id == run_id && p.events_len == events.len() && iteration_start(events, position) == p.arg_from => {
                (p.arg_from, p.arg_states.clone(), p.arg_stubs.clone())
            }
            _ => {
                let (from, states) = ArgState::of_iteration(events, position);
                (from, Rc::new(states), Rc::new(ArgStub::of_iteration(events, position)))
            }
        };
        RunFrame {
            run_id,
            program: run.program.clone(),
            snapshot: Rc::new(run.cursor.snapshot().clone()),
            fresh,
            arg_states,
            arg_stubs,
            arg_from,
            events_len: events.len(),
            info: match (previous, events.first()) {
                (Some(p), _) if p.run_id == run_id && p.info.is_some() => p.info.clone(),
                (_, Some(engine::trace::Event::AnalysisStarted { info })) => Some(Rc::new(info.clone())),
                _ => None,
            },
        }
    }
}

/// Two frames are equal when the graphs would draw them the same: same run,
/// same freshness, same position, same number of states and of events.
impl PartialEq for RunFrame {
    fn eq(&self, other: &Self) -> bool {
        self.run_id == other.run_id
            && self.fresh == other.fresh
            && self.snapshot.position == other.snapshot.position
            && self.snapshot.states.len() == other.snapshot.states.len()
            && self.events_len == other.events_len
    }
}

/// The latest [`RunFrame`] and the listeners (graph views) to tell when it
/// changes; `L` is how a listener is called (a Yew callback in the page).
#[derive(Debug)]
pub struct FrameSlot<L> {
    frame: Option<Rc<RunFrame>>,
    next_id: u64,
    listeners: Vec<(u64, L)>,
}

impl<L> Default for FrameSlot<L> {
    fn default() -> Self {
        FrameSlot { frame: None, next_id: 0, listeners: Vec::new() }
    }
}

impl<L: Clone> FrameSlot<L> {
    /// Replaces the frame; returns the listeners to tell (none when the new
    /// frame equals the current one).
    pub fn set(&mut self, frame: Option<Rc<RunFrame>>) -> Vec<L> {
        if self.frame == frame {
            return Vec::new();
        }
        self.frame = frame;
        self.listeners.iter().map(|(_, l)| l.clone()).collect()
    }

    /// The current frame.
    pub fn frame(&self) -> Option<Rc<RunFrame>> {
        self.frame.clone()
    }

    /// Adds a listener; returns the id to unsubscribe with.
    pub fn subscribe(&mut self, listener: L) -> u64 {
        self.next_id += 1;
        self.listeners.push((self.next_id, listener));
        self.next_id
    }

    /// Removes the listener `id`.
    pub fn unsubscribe(&mut self, id: u64) {
        self.listeners.retain(|(i, _)| *i != id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::analysis::RunSpec;
    use crate::model::page::EXAMPLE_PROGRAM;

    fn run_at(position: usize) -> Run {
        let mut run = Run::start(EXAMPLE_PROGRAM, RunSpec::default()).unwrap().complete();
        run.cursor.seek(position);
        run
    }

    #[test]
    fn a_frame_reuses_the_states_of_an_unchanged_trace() {
        let run = run_at(20);
        let f20 = RunFrame::new(1, &run, true, None);
        assert_eq!(f20.snapshot.states.len(), 4);
        assert_eq!(f20.events_len, run.cursor.events().len());
        let again = RunFrame::new(1, &run, true, Some(&f20));
        assert!(Rc::ptr_eq(&again.arg_states, &f20.arg_states), "the trace did not grow: its states are reused");
        assert_eq!(again, f20);
        // Another run collects its own states, even with the same trace.
        let other = RunFrame::new(2, &run, true, Some(&f20));
        assert!(!Rc::ptr_eq(&other.arg_states, &f20.arg_states));
        assert_eq!(*other.arg_states, *f20.arg_states);
        assert_ne!(other, f20);
        // A stale frame (the editor changed) is another picture.
        assert_ne!(RunFrame::new(1, &run, false, Some(&f20)), f20);
    }

    #[test]
    fn the_slot_tells_its_listeners_only_about_changes() {
        let mut run = run_at(20);
        let mut slot = FrameSlot::<&str>::default();
        let a = slot.subscribe("a");
        let b = slot.subscribe("b");
        assert_ne!(a, b);
        let f20 = Rc::new(RunFrame::new(1, &run, true, None));
        assert_eq!(slot.set(Some(f20.clone())), ["a", "b"]);
        let again = Rc::new(RunFrame::new(1, &run, true, Some(&f20)));
        assert!(slot.set(Some(again)).is_empty(), "an equal frame is no change");
        run.cursor.seek(21);
        let f21 = Rc::new(RunFrame::new(1, &run, true, Some(&f20)));
        assert_eq!(slot.set(Some(f21.clone())), ["a", "b"]);
        assert_eq!(slot.frame(), Some(f21));
        slot.unsubscribe(a);
        assert_eq!(slot.set(None), ["b"]);
        assert!(slot.frame().is_none());
        assert!(slot.set(None).is_empty());
    }
}
