//! The Location CPA (CPAchecker's `cpa.location.LocationCPA`): tracks the
//! program counter.
//!
//! Domain: the flat lattice of CFA nodes (`l ⊑ l'` iff `l = l'`).
//! Transfer: `l —g→ l'` for every CFA edge `g = (l, op, l')`.
//! Merge: merge^sep. Stop: stop^sep. A state is a target state exactly when
//! its node is an error location. The reached set is partitioned by this
//! component.
//!
//! For a `Return` edge the Location CPA alone would follow every return edge
//! of the callee's exit (to every call site); the Callstack CPA filters out
//! the ones that do not match the call (the product has no successor when
//! one component has none).

use crate::cpa::{AbstractDomain, Cpa, MergeOperator, MergeSep, StopOperator, StopSep, TransferError, TransferRelation};
use crate::state_view::{ComponentView, ViewContent};
use cfa::{Edge, NodeId, Program};
use std::sync::Arc;

/// The flat domain of locations.
#[derive(Clone, Copy, Debug, Default)]
pub struct LocationDomain;

impl AbstractDomain for LocationDomain {
    type State = NodeId;
    fn is_less_or_equal(&self, a: &NodeId, b: &NodeId) -> bool {
        a == b
    }
    /// Only defined for equal locations (the flat lattice has no ⊤ we could
    /// use); the composite never joins states at different locations, and
    /// for distinct inputs this returns `b`.
    fn join(&self, _a: &NodeId, b: &NodeId) -> NodeId {
        *b
    }
}

/// The Location CPA over one program.
pub struct LocationCpa {
    program: Arc<Program>,
    stop: StopSep<LocationDomain>,
}

impl LocationCpa {
    /// The Location CPA of `program`.
    pub fn new(program: Arc<Program>) -> Self {
        LocationCpa { program, stop: StopSep(LocationDomain) }
    }
}

impl TransferRelation for LocationCpa {
    type State = NodeId;
    type Precision = ();
    fn successors(&self, state: &NodeId, edge: &Edge, _precision: &()) -> Result<Vec<NodeId>, TransferError> {
        if edge.source == *state {
            Ok(vec![edge.target])
        } else {
            Ok(vec![])
        }
    }
}

impl Cpa for LocationCpa {
    type State = NodeId;
    type Precision = ();
    fn name(&self) -> &'static str {
        "LocationCPA"
    }
    fn domain(&self) -> &dyn AbstractDomain<State = NodeId> {
        &LocationDomain
    }
    fn transfer_relation(&self) -> &dyn TransferRelation<State = NodeId, Precision = ()> {
        self
    }
    fn merge_operator(&self) -> &dyn MergeOperator<NodeId, ()> {
        &MergeSep
    }
    fn stop_operator(&self) -> &dyn StopOperator<NodeId, ()> {
        &self.stop
    }
    fn initial_state(&self, entry: NodeId) -> NodeId {
        entry
    }
    fn initial_precision(&self, _entry: NodeId) {}
    fn location(&self, state: &NodeId) -> Option<NodeId> {
        Some(*state)
    }
    fn is_target(&self, state: &NodeId) -> bool {
        self.program.nodes.get(state.0 as usize).is_some_and(|n| n.error)
    }
    fn index_hash(&self, state: &NodeId, _shape: &[u32]) -> u64 {
        state.0 as u64
    }
    fn view(&self, state: &NodeId) -> ComponentView {
        ComponentView { cpa: "LocationCPA".into(), content: ViewContent::Location { node: *state } }
    }
}
