//! The abstract reachability graph (ARG) as a laid-out graph.
//!
//! Every abstract state the run created so far is a node; its incoming
//! links are its [`Origin`]: a transfer successor hangs below its parent, a
//! precision-adjusted state below the state it adjusted, and a merge result
//! below *both* of its operands (the new state and the reached state it
//! replaces). States the stop operator found covered get a dashed link to
//! the states that cover them; that link is drawn but does not shape the
//! layout (it often points back up).
//!
//! Marks ([`ArgMarks`]) say what each state is at the shown position: in the
//! reached set, in the waitlist, replaced by a merge result, a merge result
//! itself, covered (stopped), a target, the state being processed.
//!
//! Stable pictures while stepping: the layout is computed from the states of
//! the shown iteration's whole trace recorded so far
//! ([`ArgState::of_iteration`]), and a position
//! shows the prefix of states created by then ([`ArgGraph::visible`]), so
//! stepping only changes marks and adds or removes a few boxes.
//!
//! Symbolic execution (stop^never: nothing is covered, so the ARG is the
//! symbolic-execution tree): the current path (root → the state at the
//! cursor) is marked ([`ArgMarks::on_path`], [`ArgGraph::path_edges`]),
//! abstraction points of implicit predicate abstraction are marked, and
//! every branch without a successor is a stub leaf ([`ArgStub`]) labelled
//! `infeasible` or `not p-simple`, laid out with the states.
//!
//! Large runs: at most [`ARG_CAP`] states are drawn — a window of the most
//! recent ones, moved in chunks of [`ARG_CHUNK`] states so that it is laid
//! out again only every [`ARG_CHUNK`] states — with a note saying how many
//! older states are hidden.
//!
//! Nothing here depends on Yew or web-sys: it is tested natively.

use engine::trace::{Origin, StateId};
use engine::view::Snapshot;

use crate::model::graphs::cfa::{svg_path, CHAR_W, LINE_H};
use crate::model::graphs::layout::{layout, EdgeSpec, NodeSpec, Point, Shape, Spacing};
use crate::model::graphs::viewport::Bounds;
use crate::model::selection::Highlight;

/// At most this many states are drawn (the most recent ones).
pub const ARG_CAP: usize = 300;

/// The window of drawn states moves in steps of this many states.
pub const ARG_CHUNK: usize = 100;

/// What the ARG needs of one state: its id, location and origin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgState {
    /// The state.
    pub id: StateId,
    /// Its CFA location.
    pub location: Option<cfa::NodeId>,
    /// How it came to be (its parents).
    pub origin: Origin,
}

impl ArgState {
    /// The states created in a trace (in order of creation).
    pub fn of_events(events: &[engine::Event]) -> Vec<ArgState> {
        events
            .iter()
            .filter_map(|e| match e {
                engine::Event::StateCreated { state, location, origin, .. } => {
                    Some(ArgState { id: *state, location: *location, origin: origin.clone() })
                }
                _ => None,
            })
            .collect()
    }

    /// The states of the iteration shown at event position `position`
    /// (the events between the `Restart` before it and the next one; with
    /// the index of the iteration's first event). A CEGAR or restart
    /// iteration starts an empty ARG and numbers its states from `s0`
    /// again, so the states of earlier iterations do not belong to the
    /// picture (a restart from the pivot keeps the ARG and its numbering).
    pub fn of_iteration(events: &[engine::Event], position: usize) -> (usize, Vec<ArgState>) {
        let start = iteration_start(events, position);
        let end = events[start..].iter().position(is_restart).map_or(events.len(), |i| start + i);
        (start, ArgState::of_events(&events[start..end]))
    }

    /// The states created up to a snapshot's position.
    pub fn of_snapshot(snapshot: &Snapshot) -> Vec<ArgState> {
        snapshot.states.iter().map(|s| ArgState { id: s.id, location: s.location, origin: s.origin.clone() }).collect()
    }
}

/// A branch of symbolic execution without a successor, drawn as a small
/// leaf below the state it left: infeasible (the path condition became
/// unsatisfiable) or pruned as not p-simple (implicit predicate
/// abstraction).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgStub {
    /// The state the transfer started from.
    pub from: StateId,
    /// The CFA edge of the branch.
    pub edge: cfa::EdgeId,
    /// The location the branch would have reached.
    pub location: cfa::NodeId,
    /// Infeasible or not p-simple.
    pub reason: engine::trace::PruneReason,
    /// What decided it, in words (the tooltip).
    pub detail: String,
}

impl ArgStub {
    /// The pruned branches of a trace (in order; `BranchPruned` events).
    pub fn of_events(events: &[engine::Event]) -> Vec<ArgStub> {
        events
            .iter()
            .filter_map(|e| match e {
                engine::Event::BranchPruned { from, edge, location, reason, detail } => {
                    Some(ArgStub { from: *from, edge: *edge, location: *location, reason: *reason, detail: detail.clone() })
                }
                _ => None,
            })
            .collect()
    }

    /// The pruned branches of the iteration shown at event position
    /// `position` (see [`ArgState::of_iteration`]).
    pub fn of_iteration(events: &[engine::Event], position: usize) -> Vec<ArgStub> {
        let start = iteration_start(events, position);
        let end = events[start..].iter().position(is_restart).map_or(events.len(), |i| start + i);
        ArgStub::of_events(&events[start..end])
    }

    /// The stub's label: `infeasible` or `not p-simple`.
    pub fn label(&self) -> &'static str {
        self.reason.describe()
    }

    /// Its CSS class: `arg-stub infeasible` or `arg-stub not-simple`.
    pub fn css_class(&self) -> &'static str {
        match self.reason {
            engine::trace::PruneReason::Infeasible => "arg-stub infeasible",
            engine::trace::PruneReason::NotSimple => "arg-stub not-simple",
        }
    }
}

/// One drawn stub: which [`ArgStub`] (index into the iteration's stubs),
/// the box of its label and the dashed link from its state.
#[derive(Clone, Debug, PartialEq)]
pub struct ArgStubNode {
    /// Index into the stubs the graph was built from (the fold's
    /// `pruned_branches` of the iteration are a prefix of them).
    pub index: usize,
    /// The stub.
    pub stub: ArgStub,
    /// The drawn node of the state it leaves.
    pub from: usize,
    /// Center of its label.
    pub center: Point,
    /// Label box size.
    pub width: f64,
    /// Label box size.
    pub height: f64,
    /// The SVG path of the dashed link.
    pub path: std::rc::Rc<str>,
}

/// The current path of symbolic execution at the shown position: the
/// state at the cursor and its ancestors up to the root (by transfer and
/// precision origins; a merge result has no single path and ends it).
pub fn current_path(snapshot: &Snapshot) -> std::collections::BTreeSet<StateId> {
    let mut path = std::collections::BTreeSet::new();
    let mut at = snapshot.current_state;
    while let Some(id) = at {
        if !path.insert(id) {
            break;
        }
        at = match snapshot.state(id).map(|s| &s.origin) {
            Some(Origin::Transfer { parent, .. }) => Some(*parent),
            Some(Origin::Precision { of }) => Some(*of),
            _ => None,
        };
    }
    path
}

/// Whether the snapshot is of symbolic execution (its states carry a
/// SymExecCPA component): only then is the ARG a tree whose current path
/// is marked.
pub fn is_symbolic_execution(snapshot: &Snapshot) -> bool {
    snapshot
        .states
        .first()
        .and_then(|s| s.view.as_ref())
        .is_some_and(|v| v.components.iter().any(|c| matches!(c.content, engine::trace::ViewContent::SymbolicExecution { .. })))
}

fn is_restart(e: &engine::Event) -> bool {
    matches!(e, engine::Event::Restart { .. })
}

/// Where the iteration shown at event position `position` begins: just
/// after the last `Restart` event before it (0 without one).
pub fn iteration_start(events: &[engine::Event], position: usize) -> usize {
    events[..position.min(events.len())].iter().rposition(is_restart).map_or(0, |i| i + 1)
}

/// The first state of the drawn window when `shown` states exist: a
/// multiple of [`ARG_CHUNK`], leaving between `ARG_CAP - ARG_CHUNK` and
/// [`ARG_CAP`] states in view.
pub fn window_start(shown: usize) -> usize {
    shown.saturating_sub(ARG_CAP).div_ceil(ARG_CHUNK) * ARG_CHUNK
}

/// How a state is linked to its parent in the ARG.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgLink {
    /// Transfer relation: parent → successor along a CFA edge.
    Transfer,
    /// Precision adjustment: state → adjusted state.
    Precision,
    /// Merge: an operand → the merge result.
    Merge,
}

impl ArgLink {
    /// The CSS class of the link.
    pub fn css_class(self) -> &'static str {
        match self {
            ArgLink::Transfer => "arg-transfer",
            ArgLink::Precision => "arg-precision",
            ArgLink::Merge => "arg-merge",
        }
    }
}

/// One drawn state.
#[derive(Clone, Debug, PartialEq)]
pub struct ArgNode {
    /// The state.
    pub state: StateId,
    /// `@N5`, or empty.
    pub location: String,
    /// Its center.
    pub center: Point,
    /// Its size.
    pub width: f64,
    /// Its size.
    pub height: f64,
}

/// One drawn parent link.
#[derive(Clone, Debug, PartialEq)]
pub struct ArgEdge {
    /// Parent node (index into the nodes).
    pub from: usize,
    /// Child node.
    pub to: usize,
    /// What kind of link.
    pub link: ArgLink,
    /// The SVG path.
    pub path: std::rc::Rc<str>,
}

/// The ARG of the states created up to some position, laid out.
#[derive(Clone, Debug, PartialEq)]
pub struct ArgGraph {
    /// The drawn states, by increasing id.
    pub nodes: Vec<ArgNode>,
    /// The drawn parent links.
    pub edges: Vec<ArgEdge>,
    /// Width of the drawing.
    pub width: f64,
    /// Height of the drawing.
    pub height: f64,
    /// States laid out (ids `first..first + nodes.len()`).
    pub total: usize,
    /// Id of the first drawn state (the ones before are hidden).
    pub first: u32,
    /// Symbolic execution: the branches without a successor whose state is
    /// drawn, as labelled leaves.
    pub stubs: Vec<ArgStubNode>,
}

/// What one state is at the shown position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ArgMarks {
    /// In the reached set.
    pub reached: bool,
    /// In the waitlist.
    pub waiting: bool,
    /// Left the reached set, replaced by a merge result.
    pub replaced: bool,
    /// The result of a merge that changed a state.
    pub merged: bool,
    /// The stop operator found it covered (it was not added).
    pub covered: bool,
    /// A target state (at the error location).
    pub target: bool,
    /// The state being processed (popped by the current step).
    pub current: bool,
    /// Part of the selection.
    pub selected: bool,
    /// A predicate-analysis abstraction state (a block end: ψ computed,
    /// φ reset to `true`); drawn with a double border.
    pub abstraction: bool,
    /// Symbolic execution with implicit predicate abstraction: the
    /// transfer into this state abstracted the memory (eq and simple added
    /// to the path condition); drawn as a hexagon.
    pub abstraction_point: bool,
    /// On the current path: the root → the state at the cursor.
    pub on_path: bool,
}

impl ArgMarks {
    /// Each mark: whether it is set, its CSS class, and its words for the
    /// tooltip (`None`: not told, the selection shows itself).
    fn table(&self) -> [(bool, &'static str, Option<&'static str>); 11] {
        [
            (self.reached, "reached", Some("in the reached set")),
            (self.waiting, "waiting", Some("in the waitlist")),
            (self.replaced, "replaced", Some("replaced by a merge result")),
            (self.merged, "merged", Some("merge result")),
            (self.covered, "covered", Some("covered (stop)")),
            (self.target, "target", Some("target")),
            (self.current, "current", Some("being processed")),
            (self.selected, "selected", None),
            (self.abstraction, "abstraction", Some("abstraction state")),
            (self.abstraction_point, "abstraction-point", Some("abstraction point (memory abstracted)")),
            (self.on_path, "on-path", Some("on the current path")),
        ]
    }

    /// The CSS classes of a state node with these marks.
    pub fn classes(&self) -> Vec<&'static str> {
        let set = self.table().into_iter().filter(|m| m.0).map(|m| m.1);
        std::iter::once("arg-node").chain(set).collect()
    }

    /// The marks in words, for the tooltip.
    pub fn words(&self) -> String {
        let set: Vec<&str> = self.table().into_iter().filter(|m| m.0).filter_map(|m| m.2).collect();
        set.join(", ")
    }
}

impl ArgGraph {
    /// Lays out the window of `states` (all states of the trace so far, in
    /// id order) that a position with `shown` created states draws: ids
    /// from [`window_start`]`(shown)` up to [`ARG_CAP`] states further.
    pub fn build(states: &[ArgState], shown: usize) -> ArgGraph {
        ArgGraph::build_with_stubs(states, &[], shown)
    }

    /// [`ArgGraph::build`] with the branches without a successor (symbolic
    /// execution's infeasible and not p-simple branches) as labelled leaves
    /// below their state, laid out with the states so that nothing
    /// overlaps.
    pub fn build_with_stubs(states: &[ArgState], stubs: &[ArgStub], shown: usize) -> ArgGraph {
        let first = window_start(shown).min(states.len());
        let end = (first + ARG_CAP).min(states.len());
        let total = states.len();
        let shown = &states[first..end];
        let index_of = |id: StateId| (id.0 as usize).checked_sub(first).filter(|&i| i < shown.len());
        let mut nodes: Vec<ArgNode> = shown
            .iter()
            .map(|s| {
                let location = s.location.map(|l| format!("@{l}")).unwrap_or_default();
                let chars = s.id.to_string().chars().count().max(location.chars().count());
                ArgNode {
                    state: s.id,
                    location,
                    center: Point { x: 0.0, y: 0.0 },
                    width: chars as f64 * CHAR_W + 14.0,
                    height: 2.0 * LINE_H + 4.0,
                }
            })
            .collect();
        let mut edges: Vec<ArgEdge> = Vec::new();
        for (i, s) in shown.iter().enumerate() {
            let link = match s.origin {
                Origin::Initial => continue,
                Origin::Transfer { .. } => ArgLink::Transfer,
                Origin::Precision { .. } => ArgLink::Precision,
                Origin::Merge { .. } => ArgLink::Merge,
            };
            for p in s.origin.parents() {
                if let Some(from) = index_of(p) {
                    if from != i {
                        edges.push(ArgEdge { from, to: i, link, path: std::rc::Rc::from("") });
                    }
                }
            }
        }
        let mut stub_nodes: Vec<ArgStubNode> = stubs
            .iter()
            .enumerate()
            .filter_map(|(index, stub)| {
                let from = index_of(stub.from)?;
                Some(ArgStubNode {
                    index,
                    stub: stub.clone(),
                    from,
                    center: Point { x: 0.0, y: 0.0 },
                    width: stub.label().chars().count() as f64 * CHAR_W + 10.0,
                    height: LINE_H + 4.0,
                    path: std::rc::Rc::from(""),
                })
            })
            .collect();
        let mut specs: Vec<NodeSpec> =
            nodes.iter().map(|n| NodeSpec { width: n.width, height: n.height, shape: Shape::Rect }).collect();
        specs.extend(stub_nodes.iter().map(|s| NodeSpec { width: s.width, height: s.height, shape: Shape::Rect }));
        let mut espec: Vec<EdgeSpec> = edges.iter().map(|e| EdgeSpec { from: e.from, to: e.to, label: None }).collect();
        espec.extend(stub_nodes.iter().enumerate().map(|(k, s)| EdgeSpec { from: s.from, to: nodes.len() + k, label: None }));
        let l = layout(&specs, &espec, Spacing { node_gap: 12.0, layer_gap: 22.0, margin: 12.0 });
        for (n, c) in nodes.iter_mut().zip(&l.nodes) {
            n.center = *c;
        }
        for (s, c) in stub_nodes.iter_mut().zip(&l.nodes[nodes.len()..]) {
            s.center = *c;
        }
        for (e, r) in edges.iter_mut().zip(&l.edges) {
            e.path = svg_path(&r.points).into();
        }
        for (s, r) in stub_nodes.iter_mut().zip(&l.edges[edges.len()..]) {
            s.path = svg_path(&r.points).into();
        }
        ArgGraph { nodes, edges, width: l.width, height: l.height, total, first: first as u32, stubs: stub_nodes }
    }

    /// The stubs drawn at the position of `snapshot`: those of its
    /// iteration's pruned branches so far whose state is drawn.
    pub fn visible_stubs<'a>(&'a self, snapshot: &Snapshot) -> impl Iterator<Item = &'a ArgStubNode> {
        let known = snapshot.pruned_branches.len();
        let shown = snapshot.states.len();
        self.stubs.iter().filter(move |s| s.index < known && self.visible(s.from, shown))
    }

    /// Which drawn parent links lie on the current path (both ends marked
    /// [`ArgMarks::on_path`]), by index into [`ArgGraph::edges`].
    pub fn path_edges(&self, marks: &[ArgMarks]) -> Vec<bool> {
        let on = |i: usize| marks.get(i).is_some_and(|m| m.on_path);
        self.edges.iter().map(|e| e.link != ArgLink::Merge && on(e.from) && on(e.to)).collect()
    }

    /// How many states are hidden (created before the first drawn one).
    pub fn hidden(&self) -> usize {
        self.first as usize
    }

    /// Whether drawn node `i` exists at a position where `shown` states
    /// were created (later states are laid out but not drawn yet).
    pub fn visible(&self, i: usize, shown: usize) -> bool {
        self.nodes.get(i).is_some_and(|n| (n.state.0 as usize) < shown)
    }

    /// What is drawn at a position where `shown` states were created: the
    /// box around those states (with room for their links), in the
    /// layout's coordinates — the layout has room for every state of the
    /// run, so fitting the whole drawing would shrink the first states to
    /// the final ARG's scale. The whole drawing when none is drawn.
    pub fn visible_bounds(&self, shown: usize) -> Bounds {
        const PAD: f64 = 12.0;
        let drawn = self.nodes.iter().enumerate().filter(|(i, _)| self.visible(*i, shown)).map(|(_, n)| n);
        let b = drawn.fold(None::<Bounds>, |b, n| {
            let (x0, y0) = (n.center.x - n.width / 2.0 - PAD, n.center.y - n.height / 2.0 - PAD);
            let (x1, y1) = (n.center.x + n.width / 2.0 + PAD, n.center.y + n.height / 2.0 + PAD);
            Some(match b {
                None => Bounds { x0, y0, x1, y1 },
                Some(b) => Bounds { x0: b.x0.min(x0), y0: b.y0.min(y0), x1: b.x1.max(x1), y1: b.y1.max(y1) },
            })
        });
        b.unwrap_or(Bounds::of_size(self.width, self.height))
    }

    /// The drawn node of state `id`.
    pub fn node_index(&self, id: StateId) -> Option<usize> {
        Some(id.0.checked_sub(self.first)? as usize).filter(|&i| i < self.nodes.len())
    }

    /// The marks of every drawn node at the position of `snapshot` (which
    /// may be earlier than the one the graph was built from: states created
    /// later get default marks and should not be drawn).
    pub fn marks(&self, snapshot: &Snapshot, highlight: &Highlight) -> Vec<ArgMarks> {
        let path = if is_symbolic_execution(snapshot) { current_path(snapshot) } else { Default::default() };
        self.nodes
            .iter()
            .map(|n| match snapshot.state(n.state) {
                Some(s) => ArgMarks {
                    reached: s.in_reached,
                    waiting: s.in_waitlist,
                    replaced: s.replaced_by.is_some(),
                    merged: matches!(s.origin, Origin::Merge { .. }),
                    covered: !s.covered_by.is_empty(),
                    target: s.target,
                    current: snapshot.current_state == Some(n.state),
                    selected: highlight.states.contains(&n.state),
                    abstraction: crate::model::analysis::is_abstraction_state(snapshot, n.state) && !s.abstraction_point,
                    abstraction_point: s.abstraction_point,
                    on_path: path.contains(&n.state),
                },
                None => ArgMarks::default(),
            })
            .collect()
    }

    /// The dashed "covered by" links at the position of `snapshot`: (from,
    /// to, SVG path), between drawn states only.
    pub fn covered_links(&self, snapshot: &Snapshot) -> Vec<(usize, usize, String)> {
        let mut out = Vec::new();
        for (i, n) in self.nodes.iter().enumerate() {
            let Some(s) = snapshot.state(n.state) else { continue };
            for &by in &s.covered_by {
                if let Some(j) = self.node_index(by).filter(|&j| self.visible(j, snapshot.states.len())) {
                    let (a, b) = (self.nodes[i].center, self.nodes[j].center);
                    let p = edge_between(a, &self.nodes[i], b, &self.nodes[j]);
                    out.push((i, j, svg_path(&p)));
                }
            }
        }
        out
    }
}

/// A straight segment between two rectangles' borders.
fn edge_between(a: Point, na: &ArgNode, b: Point, nb: &ArgNode) -> Vec<Point> {
    let clip = |c: Point, w: f64, h: f64, to: Point| {
        let (dx, dy) = (to.x - c.x, to.y - c.y);
        let tx = if dx.abs() > 1e-9 { (w / 2.0) / dx.abs() } else { f64::INFINITY };
        let ty = if dy.abs() > 1e-9 { (h / 2.0) / dy.abs() } else { f64::INFINITY };
        let t = tx.min(ty).min(1.0);
        Point { x: c.x + dx * t, y: c.y + dy * t }
    };
    vec![clip(a, na.width, na.height, b), clip(b, nb.width, nb.height, a)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::analysis::{Run, RunSpec};
    use crate::model::graphs::layout::check;
    use crate::model::page::EXAMPLE_PROGRAM;

    fn run(preset: &str, max_steps: u64) -> Run {
        Run::start(EXAMPLE_PROGRAM, RunSpec { preset: preset.into(), max_steps, ..RunSpec::default() }).unwrap().complete()
    }

    #[test]
    fn every_state_has_its_parent_links_and_merges_have_two() {
        let mut r = run("octagon-widening", 2000);
        let n = r.cursor.len();
        r.cursor.seek(n);
        let snap = r.cursor.snapshot();
        let g = ArgGraph::build(&ArgState::of_snapshot(snap), snap.states.len());
        assert_eq!(g.nodes.len(), snap.states.len());
        assert_eq!(g.hidden(), 0);
        assert_eq!(ArgState::of_events(r.cursor.events()), ArgState::of_snapshot(snap));
        let expected_links: usize = snap.states.iter().map(|s| s.origin.parents().len()).sum();
        assert_eq!(g.edges.len(), expected_links);
        let merges: Vec<&ArgEdge> = g.edges.iter().filter(|e| e.link == ArgLink::Merge).collect();
        assert!(!merges.is_empty() && merges.len().is_multiple_of(2), "a merge result has both operands as parents");
        // Parents are above their children.
        for e in &g.edges {
            assert!(g.nodes[e.from].center.y < g.nodes[e.to].center.y, "{e:?}");
        }
        let marks = g.marks(snap, &Highlight::default());
        assert!(marks.iter().any(|m| m.merged) && marks.iter().any(|m| m.replaced) && marks.iter().any(|m| m.covered));
        assert_eq!(marks.iter().filter(|m| m.reached).count(), snap.reached_len());
        assert!(!g.covered_links(snap).is_empty());
        let specs: Vec<NodeSpec> =
            g.nodes.iter().map(|n| NodeSpec { width: n.width, height: n.height, shape: Shape::Rect }).collect();
        let espec: Vec<EdgeSpec> = g.edges.iter().map(|e| EdgeSpec { from: e.from, to: e.to, label: None }).collect();
        let l = layout(&specs, &espec, Spacing { node_gap: 12.0, layer_gap: 22.0, margin: 12.0 });
        check(&specs, &espec, &l).unwrap();
    }

    #[test]
    fn after_k_events_the_arg_holds_the_states_created_so_far() {
        let mut r = run("octagon-widening", 2000);
        r.cursor.seek(20);
        let snap = r.cursor.snapshot().clone();
        let g = ArgGraph::build(&ArgState::of_snapshot(&snap), snap.states.len());
        assert_eq!(g.nodes.len(), 4, "s0..s3 after 20 events");
        // Laid out from the whole trace, the same states sit at the same
        // places; the later ones are not drawn yet.
        let all = ArgGraph::build(&ArgState::of_events(r.cursor.events()), snap.states.len());
        assert!(all.nodes.len() > 4);
        assert_eq!((0..all.nodes.len()).filter(|&i| all.visible(i, snap.states.len())).count(), 4);
        // What is drawn is what Fit shows: the four states, not the room
        // the layout keeps for the later ones.
        let (part, whole) = (all.visible_bounds(snap.states.len()), all.visible_bounds(all.nodes.len()));
        assert!(part.width() < whole.width() || part.height() < whole.height(), "{part:?} within {whole:?}");
        for n in all.nodes.iter().take(4) {
            assert!(part.x0 <= n.center.x - n.width / 2.0 && n.center.x + n.width / 2.0 <= part.x1, "{n:?} in {part:?}");
            assert!(part.y0 <= n.center.y - n.height / 2.0 && n.center.y + n.height / 2.0 <= part.y1, "{n:?} in {part:?}");
        }
        assert_eq!(all.visible_bounds(0), Bounds::of_size(all.width, all.height));
        let marks = g.marks(&snap, &Highlight { states: [StateId(2)].into(), ..Highlight::default() });
        assert!(marks[2].current && marks[2].selected, "{:?}", marks[2]);
        assert_eq!(marks[2].classes(), ["arg-node", "reached", "current", "selected"]);
        assert_eq!(marks[2].words(), "in the reached set, being processed", "the selection is not told");
        let all_marks = ArgMarks {
            reached: true,
            waiting: true,
            replaced: true,
            merged: true,
            covered: true,
            target: true,
            current: true,
            selected: true,
            abstraction: true,
            abstraction_point: false,
            on_path: false,
        };
        assert_eq!(all_marks.classes().len(), 10);
        assert_eq!(
            all_marks.words(),
            "in the reached set, in the waitlist, replaced by a merge result, merge result, covered (stop), target, being processed, abstraction state"
        );
        assert_eq!(ArgMarks::default().words(), "");
        assert_eq!(g, ArgGraph::build(&ArgState::of_snapshot(&snap), snap.states.len()), "deterministic");
    }

    #[test]
    fn a_large_arg_is_capped_to_the_most_recent_states() {
        let mut r = run("octagon-sep", 600);
        let n = r.cursor.len();
        r.cursor.seek(n);
        let snap = r.cursor.snapshot();
        assert!(snap.states.len() > ARG_CAP, "{} states", snap.states.len());
        let n = snap.states.len();
        let g = ArgGraph::build(&ArgState::of_snapshot(snap), n);
        let drawn = (0..g.nodes.len()).filter(|&i| g.visible(i, n)).count();
        assert!(drawn <= ARG_CAP && drawn > ARG_CAP - ARG_CHUNK, "{drawn}");
        assert_eq!(g.hidden(), n - drawn);
        assert_eq!(g.first as usize % ARG_CHUNK, 0);
        assert_eq!(g.nodes[0].state.0, g.first);
        assert_eq!(g.node_index(StateId(0)), None);
        assert_eq!(g.node_index(StateId(g.first)), Some(0));
        // The window moves in chunks: one more or one less state keeps it.
        assert_eq!(window_start(n), window_start(n - 1).max(window_start(n)));
        assert_eq!(window_start(ARG_CAP), 0);
        assert_eq!(window_start(ARG_CAP + 1), ARG_CHUNK);
        assert_eq!(window_start(ARG_CAP + ARG_CHUNK), ARG_CHUNK);
    }

    /// A hand-made symbolic-execution trace: s0 → s1 (an abstraction
    /// point) → s2, an infeasible branch from s0 and a not p-simple one
    /// from s1; the cursor pops s2.
    fn symexec_trace() -> Vec<engine::Event> {
        use engine::trace::{AbstractionPointView, ComponentView, Event, PruneReason, StateView, ViewContent};
        let view = |point: bool| {
            Some(StateView {
                components: vec![ComponentView {
                    cpa: "SymExecCPA".into(),
                    content: ViewContent::SymbolicExecution {
                        memory: vec![],
                        path_condition: vec![],
                        visits: vec![],
                        abstraction_point: point,
                        depth: 0,
                    },
                }],
            })
        };
        let created = |id: u32, origin: Origin, point: bool| Event::StateCreated {
            state: StateId(id),
            location: Some(cfa::NodeId(id + 1)),
            callstack: vec![],
            origin,
            view: view(point),
        };
        let child = |parent: u32| Origin::Transfer { parent: StateId(parent), edge: cfa::EdgeId(parent) };
        let pruned = |from: u32, reason: PruneReason| Event::BranchPruned {
            from: StateId(from),
            edge: cfa::EdgeId(10 + from),
            location: cfa::NodeId(9),
            reason,
            detail: "because".into(),
        };
        vec![
            Event::AnalysisStarted { info: Default::default() },
            created(0, Origin::Initial, false),
            Event::WaitlistPop { state: StateId(0), step: 1 },
            created(1, child(0), true),
            Event::AbstractionPoint {
                state: StateId(1),
                point: AbstractionPointView {
                    location: cfa::NodeId(2),
                    visits: 0,
                    threshold: 0,
                    predicates: vec![],
                    eq: vec![],
                    simple: vec![],
                    earlier: 0,
                },
            },
            pruned(0, PruneReason::Infeasible),
            Event::WaitlistPop { state: StateId(1), step: 2 },
            created(2, child(1), false),
            pruned(1, PruneReason::NotSimple),
            Event::WaitlistPop { state: StateId(2), step: 3 },
        ]
    }

    #[test]
    fn the_symbolic_execution_tree_marks_its_path_points_and_pruned_branches() {
        let events = symexec_trace();
        let snap = Snapshot::of(&events);
        assert!(is_symbolic_execution(&snap));
        let stubs = ArgStub::of_events(&events);
        assert_eq!(stubs.len(), 2);
        assert_eq!((stubs[0].label(), stubs[1].label()), ("infeasible", "not p-simple"));
        assert_eq!(stubs[1].css_class(), "arg-stub not-simple");
        let g = ArgGraph::build_with_stubs(&ArgState::of_snapshot(&snap), &stubs, snap.states.len());
        let marks = g.marks(&snap, &Highlight::default());
        // The current path: s0 → s1 → s2 (the popped state and its ancestors).
        assert!(marks.iter().all(|m| m.on_path), "{marks:?}");
        assert_eq!(g.path_edges(&marks), vec![true, true]);
        assert!(marks[1].abstraction_point && !marks[1].abstraction, "a hexagon, not predicate analysis' double border");
        assert!(marks[1].classes().contains(&"abstraction-point"));
        assert!(marks[1].words().contains("abstraction point"));
        assert!(!marks[0].abstraction_point && !marks[2].abstraction_point);
        // Each stub is a leaf below its state, apart from every box.
        let drawn: Vec<&ArgStubNode> = g.visible_stubs(&snap).collect();
        assert_eq!(drawn.len(), 2);
        for s in &drawn {
            let parent = &g.nodes[s.from];
            assert!(s.center.y > parent.center.y, "{s:?} below {parent:?}");
            assert!(!s.path.is_empty());
            for n in &g.nodes {
                let apart = (s.center.x - n.center.x).abs() >= (s.width + n.width) / 2.0
                    || (s.center.y - n.center.y).abs() >= (s.height + n.height) / 2.0;
                assert!(apart, "{s:?} overlaps {n:?}");
            }
        }
        // Earlier, at the first pop: only s0 is on the path, no stub yet.
        let early = Snapshot::of(&events[..3]);
        let early_marks = g.marks(&early, &Highlight::default());
        assert!(early_marks[0].on_path && !early_marks[1].on_path);
        assert_eq!(g.visible_stubs(&early).count(), 0);
        // One stub once the first BranchPruned is folded.
        assert_eq!(g.visible_stubs(&Snapshot::of(&events[..6])).count(), 1);
        // Each pop here is a child of the one before: no backtrack.
        assert!(Snapshot::of(&events).backtrack.is_none());
        // Other analyses have no path marks.
        let mut r = run("value", 200);
        let n = r.cursor.len();
        r.cursor.seek(n);
        let vs = r.cursor.snapshot();
        let vg = ArgGraph::build(&ArgState::of_snapshot(vs), vs.states.len());
        assert!(vg.marks(vs, &Highlight::default()).iter().all(|m| !m.on_path && !m.abstraction_point));
        assert!(vg.stubs.is_empty());
    }
}
