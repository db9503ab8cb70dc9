//! Linked selection: the one thing the student clicked — a CFA node, a CFA
//! edge or an abstract state — and what it means in every panel.
//!
//! Every panel (editor, CFA graph, CFA listing, waitlist, reached set, ARG)
//! reads the same [`Selection`] and asks [`Selection::resolve`] which of
//! *its* items to highlight: a state highlights its location, the CFA edge
//! it was computed along and that edge's source line; a node highlights its
//! line and the reached states it holds; an edge highlights its line, its
//! two ends and the states computed along it. Clicking the selected thing
//! again clears the selection ([`Selection::toggle`]).
//!
//! Items carry their key in the DOM (`data-node="N5"`, `data-edge="E3"`,
//! `data-state="s12"`), and [`Selection::parse`] reads such a key back.
//!
//! Nothing here depends on Yew or web-sys: it is tested natively.

use std::collections::BTreeSet;
use std::fmt;

use cfa::{EdgeId, NodeId, Program};
use engine::trace::{Origin, StateId};
use engine::view::Snapshot;

/// What the student selected (at most one thing at a time).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Selection {
    /// Nothing is selected.
    #[default]
    None,
    /// A CFA node (program location).
    Node(NodeId),
    /// A CFA edge.
    Edge(EdgeId),
    /// An abstract state of the run.
    State(StateId),
}

/// What one selection highlights, in the terms of every panel.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Highlight {
    /// CFA nodes to highlight (graph, listing).
    pub nodes: BTreeSet<NodeId>,
    /// CFA edges to highlight (graph, listing).
    pub edges: BTreeSet<EdgeId>,
    /// Abstract states to highlight (waitlist, reached set, ARG).
    pub states: BTreeSet<StateId>,
    /// 1-based source lines to highlight (editor).
    pub lines: BTreeSet<u32>,
}

impl Highlight {
    /// Whether nothing is highlighted.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty() && self.edges.is_empty() && self.states.is_empty() && self.lines.is_empty()
    }
}

impl fmt::Display for Selection {
    /// The item's key as the DOM carries it: `N5`, `E3`, `s12`; empty for
    /// [`Selection::None`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Selection::None => Ok(()),
            Selection::Node(n) => write!(f, "{n}"),
            Selection::Edge(e) => write!(f, "E{}", e.0),
            Selection::State(s) => write!(f, "{s}"),
        }
    }
}

impl Selection {
    /// Reads a key written by [`Selection`]'s `Display` (`N5`, `E3`,
    /// `s12`); anything else is [`Selection::None`].
    pub fn parse(key: &str) -> Selection {
        let key = key.trim();
        let num = |rest: &str| rest.parse::<u32>().ok();
        if let Some(n) = key.strip_prefix('N').and_then(num) {
            Selection::Node(NodeId(n))
        } else if let Some(e) = key.strip_prefix('E').and_then(num) {
            Selection::Edge(EdgeId(e))
        } else if let Some(s) = key.strip_prefix('s').and_then(num) {
            Selection::State(StateId(s))
        } else {
            Selection::None
        }
    }

    /// The selection after clicking `clicked`: clicking what is selected
    /// clears it; clicking anything else selects that.
    pub fn toggle(self, clicked: Selection) -> Selection {
        if clicked == self {
            Selection::None
        } else {
            clicked
        }
    }

    /// Whether nothing is selected.
    pub fn is_none(self) -> bool {
        self == Selection::None
    }

    /// The selected node, if a node is selected (the reached set panel is
    /// filtered to it).
    pub fn node(self) -> Option<NodeId> {
        match self {
            Selection::Node(n) => Some(n),
            _ => None,
        }
    }

    /// A short description for a status line: `node N5 (line 10)`,
    /// `edge N5→N6 `x = x + 1;``, `state s12 @N5`.
    pub fn describe(self, program: &Program, snapshot: Option<&Snapshot>) -> String {
        match self {
            Selection::None => String::new(),
            Selection::Node(n) => match program.nodes.get(n.0 as usize) {
                Some(node) if node.line > 0 => format!("node {n} (line {})", node.line),
                _ => format!("node {n}"),
            },
            Selection::Edge(e) => match program.edges.get(e.0 as usize) {
                Some(edge) => format!("edge {}→{} `{}`", edge.source, edge.target, edge.label),
                None => format!("edge E{}", e.0),
            },
            Selection::State(s) => match snapshot.and_then(|snap| snap.state(s)).and_then(|i| i.location) {
                Some(l) => format!("state {s} @{l}"),
                None => format!("state {s}"),
            },
        }
    }

    /// What the selection highlights in every panel. `snapshot` is the run's
    /// view at the shown position (absent before any run): it supplies the
    /// states at a node and a state's location and origin. Ids that do not
    /// exist in `program` or `snapshot` (a stale selection after an edit)
    /// highlight nothing for that part; this never panics.
    pub fn resolve(self, program: &Program, snapshot: Option<&Snapshot>) -> Highlight {
        let mut h = Highlight::default();
        let node_line = |n: NodeId| program.nodes.get(n.0 as usize).map(|node| node.line).filter(|&l| l > 0);
        match self {
            Selection::None => {}
            Selection::Node(n) => {
                if program.nodes.get(n.0 as usize).is_none() {
                    return h;
                }
                h.nodes.insert(n);
                h.lines.extend(node_line(n));
                if let Some(snap) = snapshot {
                    h.states.extend(snap.reached.get(&n).into_iter().flatten().copied());
                }
            }
            Selection::Edge(e) => {
                let Some(edge) = program.edges.get(e.0 as usize) else { return h };
                h.edges.insert(e);
                h.nodes.insert(edge.source);
                h.nodes.insert(edge.target);
                if edge.line > 0 {
                    h.lines.insert(edge.line);
                }
                if let Some(snap) = snapshot {
                    h.states.extend(
                        snap.states
                            .iter()
                            .filter(|i| matches!(i.origin, Origin::Transfer { edge, .. } if edge == e))
                            .map(|i| i.id),
                    );
                }
            }
            Selection::State(s) => {
                let Some(info) = snapshot.and_then(|snap| snap.state(s)) else { return h };
                h.states.insert(s);
                if let Some(l) = info.location.filter(|l| program.nodes.get(l.0 as usize).is_some()) {
                    h.nodes.insert(l);
                    h.lines.extend(node_line(l));
                }
                if let Origin::Transfer { edge, .. } = info.origin {
                    if program.edges.get(edge.0 as usize).is_some() {
                        h.edges.insert(edge);
                    }
                }
            }
        }
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::analysis::{Run, RunSpec};
    use crate::model::page::EXAMPLE_PROGRAM;

    #[test]
    fn keys_round_trip_and_garbage_is_nothing() {
        for s in [Selection::Node(NodeId(5)), Selection::Edge(EdgeId(3)), Selection::State(StateId(12))] {
            assert_eq!(Selection::parse(&s.to_string()), s);
        }
        assert_eq!(Selection::Node(NodeId(5)).to_string(), "N5");
        assert_eq!(Selection::Edge(EdgeId(3)).to_string(), "E3");
        assert_eq!(Selection::State(StateId(12)).to_string(), "s12");
        for bad in ["", "N", "x5", "N-1", "s1.5", "E99999999999"] {
            assert_eq!(Selection::parse(bad), Selection::None, "{bad:?}");
        }
    }

    #[test]
    fn clicking_the_selected_thing_again_clears_it() {
        let n = Selection::Node(NodeId(2));
        let s = Selection::None.toggle(n);
        assert_eq!(s, n);
        assert_eq!(s.node(), Some(NodeId(2)));
        assert_eq!(s.toggle(n), Selection::None);
        assert_eq!(s.toggle(Selection::State(StateId(1))), Selection::State(StateId(1)));
    }

    #[test]
    fn a_state_highlights_its_node_edge_and_line_and_a_node_its_states() {
        let mut run = Run::start(EXAMPLE_PROGRAM, RunSpec::default()).unwrap().complete();
        let n = run.cursor.len();
        run.cursor.seek(n);
        let program = run.program.clone();
        let snap = run.cursor.snapshot();
        // The loop head of Listing 2.1 (`while`, line 10).
        let head = program.nodes.iter().find(|n| n.loop_head).unwrap().id;
        let h = Selection::Node(head).resolve(&program, Some(snap));
        assert_eq!(h.nodes, BTreeSet::from([head]));
        assert_eq!(h.lines, BTreeSet::from([10]));
        let at_head: BTreeSet<StateId> = snap.reached[&head].iter().copied().collect();
        assert!(!at_head.is_empty());
        assert_eq!(h.states, at_head);

        // A state computed by a transfer: its node, its edge, its line.
        let s = snap.states.iter().find(|i| matches!(i.origin, Origin::Transfer { .. }) && i.location.is_some()).unwrap();
        let Origin::Transfer { edge, .. } = s.origin else { unreachable!() };
        let h = Selection::State(s.id).resolve(&program, Some(snap));
        assert_eq!(h.states, BTreeSet::from([s.id]));
        assert_eq!(h.nodes, BTreeSet::from([s.location.unwrap()]));
        assert_eq!(h.edges, BTreeSet::from([edge]));
        assert_eq!(h.lines.len(), 1);

        // An edge: its ends, its line, the states computed along it.
        let h = Selection::Edge(edge).resolve(&program, Some(snap));
        assert!(h.states.contains(&s.id));
        assert!(h.nodes.contains(&program.edge(edge).source) && h.nodes.contains(&program.edge(edge).target));
        assert!(Selection::Edge(edge).describe(&program, Some(snap)).starts_with("edge N"));
    }

    #[test]
    fn stale_ids_highlight_nothing_and_never_panic() {
        let program = cfa::from_source(EXAMPLE_PROGRAM).unwrap();
        for s in [Selection::Node(NodeId(9999)), Selection::Edge(EdgeId(9999)), Selection::State(StateId(9999)), Selection::None]
        {
            assert!(s.resolve(&program, None).is_empty(), "{s:?}");
            assert!(s.resolve(&program, Some(&Snapshot::default())).is_empty(), "{s:?}");
            let d = s.describe(&program, None);
            assert_eq!(d.is_empty(), s == Selection::None, "{s:?}: {d:?}");
            assert!(s == Selection::None || d.contains("9999"), "{s:?}: {d:?}");
        }
    }
}
