//! The waitlist: the states still to be processed, in the order the
//! traversal strategy pops them.
//!
//! * DFS (`analysis.traversal.order = DFS`): last in, first out.
//! * BFS (`analysis.traversal.order = BFS`): first in, first out.
//! * With `analysis.traversal.useReversePostorder = true` the state whose
//!   location comes first in the reverse postorder of the CFA is popped
//!   first (so a loop head waits until all paths into it were explored and
//!   merged); DFS/BFS only breaks ties.

use crate::trace::StateId;
use cfa::{NodeId, Program};
use std::collections::BTreeMap;

/// The secondary order of the waitlist.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TraversalOrder {
    /// Depth-first: the newest state first.
    Dfs,
    /// Breadth-first: the oldest state first.
    Bfs,
}

/// The ordered waitlist.
#[derive(Clone, Debug)]
pub struct Waitlist {
    order: TraversalOrder,
    /// Reverse-postorder number per node, when ordering by it.
    rpo: Option<Vec<u32>>,
    seq: i64,
    entries: BTreeMap<(u32, i64), StateId>,
    keys: BTreeMap<StateId, (u32, i64)>,
}

impl Waitlist {
    /// An empty waitlist; `rpo` gives each node's reverse-postorder number
    /// (see [`reverse_postorder`]) when that order is used.
    pub fn new(order: TraversalOrder, rpo: Option<Vec<u32>>) -> Self {
        Waitlist { order, rpo, seq: 0, entries: BTreeMap::new(), keys: BTreeMap::new() }
    }

    /// Adds a state at `location`; returns its position in the pop order
    /// (0 = next to be popped).
    pub fn push(&mut self, state: StateId, location: Option<NodeId>) -> usize {
        self.seq += 1;
        let primary = match (&self.rpo, location) {
            (Some(r), Some(l)) => r.get(l.0 as usize).copied().unwrap_or(u32::MAX),
            _ => 0,
        };
        let secondary = match self.order {
            TraversalOrder::Dfs => -self.seq,
            TraversalOrder::Bfs => self.seq,
        };
        let key = (primary, secondary);
        self.entries.insert(key, state);
        self.keys.insert(state, key);
        match (self.order, self.rpo.is_some()) {
            (TraversalOrder::Dfs, false) => 0,
            (TraversalOrder::Bfs, false) => self.entries.len() - 1,
            _ => self.entries.range(..key).count(),
        }
    }

    /// Takes the next state.
    pub fn pop(&mut self) -> Option<StateId> {
        let (_, s) = self.entries.pop_first()?;
        self.keys.remove(&s);
        Some(s)
    }

    /// Removes a state that has not been popped; false if it is not here.
    pub fn remove(&mut self, state: StateId) -> bool {
        match self.keys.remove(&state) {
            Some(k) => {
                self.entries.remove(&k);
                true
            }
            None => false,
        }
    }

    /// Number of waiting states.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no state waits.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The waiting states in pop order.
    pub fn iter(&self) -> impl Iterator<Item = StateId> + '_ {
        self.entries.values().copied()
    }

    /// A short name of the order (`DFS`, `BFS`, `RPO+DFS`, `RPO+BFS`).
    pub fn describe(&self) -> String {
        let base = match self.order {
            TraversalOrder::Dfs => "DFS",
            TraversalOrder::Bfs => "BFS",
        };
        if self.rpo.is_some() {
            format!("RPO+{base}")
        } else {
            base.to_string()
        }
    }
}

/// Reverse-postorder numbers of all nodes of `program`, from a depth-first
/// search starting at `main`'s entry and following every edge (calls into
/// callees, returns back to return sites). Nodes the search does not reach
/// get `u32::MAX`. Iterative, so deep CFAs cannot overflow the stack.
pub fn reverse_postorder(program: &Program) -> Vec<u32> {
    let n = program.nodes.len();
    let mut order = vec![u32::MAX; n];
    let Some(main) = program.functions.get(program.main.0 as usize) else { return order };
    let mut visited = vec![false; n];
    let mut postorder: Vec<usize> = Vec::with_capacity(n);
    let start = main.entry.0 as usize;
    if start >= n {
        return order;
    }
    // Stack of (node, index of the next outgoing edge to explore).
    let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
    visited[start] = true;
    while let Some((node, i)) = stack.pop() {
        let out = &program.nodes[node].outgoing;
        if i < out.len() {
            stack.push((node, i + 1));
            let t = program.edges.get(out[i].0 as usize).map(|e| e.target.0 as usize);
            if let Some(t) = t {
                if t < n && !visited[t] {
                    visited[t] = true;
                    stack.push((t, 0));
                }
            }
        } else {
            postorder.push(node);
        }
    }
    let total = postorder.len();
    for (i, node) in postorder.into_iter().enumerate() {
        order[node] = (total - 1 - i) as u32;
    }
    order
}
