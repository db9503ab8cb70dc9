//! A mock CPA for testing the algorithm, the trace and the cursor
//! independently of real domains: every state it creates is different from
//! every other, so a cursor that lands on the wrong step shows it.
//!
//! State: a location, a depth (edges taken) and a set of tags. Transfer
//! follows every CFA edge while `depth < max_depth` and maps each tag `t` to
//! a fresh tag derived from `t` and the edge. Order: same location and depth,
//! tags ⊆ tags'. Join: the union of tags (only for the same location and
//! depth; otherwise the pair is kept apart, merge^sep). So with merge^join
//! the paths of a diamond meet in one state holding both tags.

use crate::cpa::MergeKind;
use crate::cpa::{
    AbstractDomain, Cpa, MergeJoin, MergeOperator, MergeSep, StopOperator, StopSep, TransferError, TransferRelation,
};
use crate::state_view::{ComponentView, ViewContent};
use cfa::{Edge, NodeId, Program};
use std::collections::BTreeSet;
use std::sync::Arc;

/// A mock state.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MockState {
    /// The location.
    pub node: NodeId,
    /// Edges taken so far.
    pub depth: u32,
    /// The tags (unique per path).
    pub tags: BTreeSet<u64>,
}

/// The mock domain.
#[derive(Clone, Copy, Debug, Default)]
pub struct MockDomain;

impl AbstractDomain for MockDomain {
    type State = MockState;
    fn is_less_or_equal(&self, a: &MockState, b: &MockState) -> bool {
        a.node == b.node && a.depth == b.depth && a.tags.is_subset(&b.tags)
    }
    fn join(&self, a: &MockState, b: &MockState) -> MockState {
        if a.node != b.node || a.depth != b.depth {
            return b.clone();
        }
        MockState { node: b.node, depth: b.depth, tags: a.tags.union(&b.tags).copied().collect() }
    }
}

/// merge^join for mock states that share location and depth, merge^sep otherwise.
#[derive(Clone, Debug, Default)]
pub struct MockMerge;

impl MergeOperator<MockState, ()> for MockMerge {
    fn kind(&self) -> MergeKind {
        MergeKind::Join
    }
    fn kind_for(&self, new: &MockState, reached: &MockState) -> MergeKind {
        if new.node == reached.node && new.depth == reached.depth {
            MergeKind::Join
        } else {
            MergeKind::Sep
        }
    }
    fn merge(&self, new: &MockState, reached: &MockState, p: &()) -> MockState {
        if self.kind_for(new, reached) == MergeKind::Join {
            MergeJoin(MockDomain).merge(new, reached, p)
        } else {
            reached.clone()
        }
    }
}

/// The mock CPA.
pub struct MockCpa {
    program: Arc<Program>,
    max_depth: u32,
    join: bool,
    stop: StopSep<MockDomain>,
}

impl MockCpa {
    /// A mock CPA on `program` exploring paths up to `max_depth` edges, with
    /// merge^join (`join`) or merge^sep.
    pub fn new(program: Arc<Program>, max_depth: u32, join: bool) -> Self {
        MockCpa { program, max_depth, join, stop: StopSep(MockDomain) }
    }
}

fn mix(tag: u64, edge: u32) -> u64 {
    // A simple deterministic mixing function (splitmix64 step).
    let mut z = tag ^ ((edge as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl TransferRelation for MockCpa {
    type State = MockState;
    type Precision = ();
    fn successors(&self, s: &MockState, edge: &Edge, _p: &()) -> Result<Vec<MockState>, TransferError> {
        if s.depth >= self.max_depth || edge.source != s.node {
            return Ok(vec![]);
        }
        Ok(vec![MockState { node: edge.target, depth: s.depth + 1, tags: s.tags.iter().map(|t| mix(*t, edge.id.0)).collect() }])
    }
}

impl Cpa for MockCpa {
    type State = MockState;
    type Precision = ();
    fn name(&self) -> &'static str {
        "MockCPA"
    }
    fn domain(&self) -> &dyn AbstractDomain<State = MockState> {
        &MockDomain
    }
    fn transfer_relation(&self) -> &dyn TransferRelation<State = MockState, Precision = ()> {
        self
    }
    fn merge_operator(&self) -> &dyn MergeOperator<MockState, ()> {
        if self.join {
            &MockMerge
        } else {
            &MergeSep
        }
    }
    fn stop_operator(&self) -> &dyn StopOperator<MockState, ()> {
        &self.stop
    }
    fn initial_state(&self, entry: NodeId) -> MockState {
        MockState { node: entry, depth: 0, tags: BTreeSet::from([1]) }
    }
    fn initial_precision(&self, _entry: NodeId) {}
    fn location(&self, s: &MockState) -> Option<NodeId> {
        Some(s.node)
    }
    fn is_target(&self, s: &MockState) -> bool {
        self.program.nodes.get(s.node.0 as usize).is_some_and(|n| n.error)
    }
    fn view(&self, s: &MockState) -> ComponentView {
        let tags: Vec<String> = s.tags.iter().map(|t| format!("{t:x}")).collect();
        ComponentView {
            cpa: "MockCPA".into(),
            content: ViewContent::Text { text: format!("@{} d={} tags={{{}}}", s.node, s.depth, tags.join(",")) },
        }
    }
}
