//! The Callstack CPA (CPAchecker's `cpa.callstack.CallstackCPA`): tracks
//! the stack of active calls, so returns go back to the right call site.
//!
//! State: the call sites (CFA nodes of the caller, outermost first) with the
//! function each call entered. Transfer: a `Call` edge pushes its source
//! node; a `Return` edge is followed only when its `call_site` is the top of
//! the stack, and pops it; other edges keep the stack. Domain: flat (stacks
//! are equal or incomparable). Merge^sep, stop^sep.
//!
//! Recursion is allowed up to a depth (`cpa.callstack.depth`): a call that
//! would make one function active more than that many times stops the
//! analysis with UNKNOWN ("recursion deeper than N").

use crate::cpa::{AbstractDomain, Cpa, MergeOperator, MergeSep, StopOperator, StopSep, TransferError, TransferRelation};
use crate::state_view::{ComponentView, ViewContent};
use cfa::{Edge, EdgeKind, FuncId, NodeId};

/// One activation record: where the call happened and which function it
/// entered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Frame {
    /// The call site (the source node of the `Call` edge).
    pub call_site: NodeId,
    /// The function entered.
    pub callee: FuncId,
}

/// A call stack, outermost call first (empty in `main`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CallstackState {
    /// The active calls.
    pub frames: Vec<Frame>,
}

/// The flat domain of call stacks.
#[derive(Clone, Copy, Debug, Default)]
pub struct CallstackDomain;

impl AbstractDomain for CallstackDomain {
    type State = CallstackState;
    fn is_less_or_equal(&self, a: &CallstackState, b: &CallstackState) -> bool {
        a == b
    }
    /// Only defined for equal stacks (the composite never joins states whose
    /// call stacks differ); otherwise returns `b`.
    fn join(&self, _a: &CallstackState, b: &CallstackState) -> CallstackState {
        b.clone()
    }
}

/// The Callstack CPA with its recursion bound.
pub struct CallstackCpa {
    max_depth: usize,
    stop: StopSep<CallstackDomain>,
}

impl CallstackCpa {
    /// A Callstack CPA allowing each function to be active at most
    /// `max_depth` times at once (`cpa.callstack.depth`).
    pub fn new(max_depth: usize) -> Self {
        CallstackCpa { max_depth, stop: StopSep(CallstackDomain) }
    }
}

impl TransferRelation for CallstackCpa {
    type State = CallstackState;
    type Precision = ();
    fn successors(&self, state: &CallstackState, edge: &Edge, _p: &()) -> Result<Vec<CallstackState>, TransferError> {
        match &edge.kind {
            EdgeKind::Call { callee, .. } => {
                let active = state.frames.iter().filter(|f| f.callee == *callee).count();
                if active >= self.max_depth {
                    return Err(TransferError::new(format!("recursion deeper than {} (cpa.callstack.depth)", self.max_depth)));
                }
                let mut next = state.clone();
                next.frames.push(Frame { call_site: edge.source, callee: *callee });
                Ok(vec![next])
            }
            EdgeKind::Return { call_site, .. } => match state.frames.last() {
                Some(top) if top.call_site == *call_site => {
                    let mut next = state.clone();
                    next.frames.pop();
                    Ok(vec![next])
                }
                _ => Ok(vec![]),
            },
            _ => Ok(vec![state.clone()]),
        }
    }
}

impl Cpa for CallstackCpa {
    type State = CallstackState;
    type Precision = ();
    fn name(&self) -> &'static str {
        "CallstackCPA"
    }
    fn domain(&self) -> &dyn AbstractDomain<State = CallstackState> {
        &CallstackDomain
    }
    fn transfer_relation(&self) -> &dyn TransferRelation<State = CallstackState, Precision = ()> {
        self
    }
    fn merge_operator(&self) -> &dyn MergeOperator<CallstackState, ()> {
        &MergeSep
    }
    fn stop_operator(&self) -> &dyn StopOperator<CallstackState, ()> {
        &self.stop
    }
    fn initial_state(&self, _entry: NodeId) -> CallstackState {
        CallstackState::default()
    }
    fn initial_precision(&self, _entry: NodeId) {}
    /// BAM: a block is analysed from an empty stack, so the same block
    /// entered from different call sites (and depths) shares one analysis
    /// (a loop block's exits are then the states with an empty stack).
    fn reduce(&self, _state: &CallstackState, _program: &cfa::Program, _block: &crate::block::Block) -> CallstackState {
        CallstackState::default()
    }
    /// BAM: the caller's stack (with the block's own frame on top) under
    /// whatever the block's exit state still has open (nothing at a block
    /// exit).
    fn expand(
        &self,
        entry: &CallstackState,
        exit: &CallstackState,
        _program: &cfa::Program,
        _block: &crate::block::Block,
    ) -> CallstackState {
        let mut frames = entry.frames.clone();
        frames.extend(exit.frames.iter().copied());
        CallstackState { frames }
    }
    fn call_stack(&self, state: &CallstackState) -> Option<Vec<NodeId>> {
        Some(state.frames.iter().map(|f| f.call_site).collect())
    }
    fn index_hash(&self, state: &CallstackState, _shape: &[u32]) -> u64 {
        crate::cpa::stable_hash(state)
    }
    fn view(&self, state: &CallstackState) -> ComponentView {
        ComponentView {
            cpa: "CallstackCPA".into(),
            content: ViewContent::Callstack { call_sites: state.frames.iter().map(|f| f.call_site).collect() },
        }
    }
}
