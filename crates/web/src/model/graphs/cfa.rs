//! The CFA as a laid-out graph: which boxes and arrows the CFA view draws,
//! where, and what a run's position adds to them (reached-state counts, the
//! current node and edge, the selection).
//!
//! * [`CfaGraph::build`] turns a [`Program`] into graph nodes and edges and
//!   lays them out with [`crate::model::graphs::layout`]. Each CFA node is a circle
//!   (`N5`); loop heads, the error location, entries, exits and terminal
//!   nodes carry a [`Marker`]; each edge is labelled with its operation
//!   (cfa's own C-like label, shortened when long).
//! * **Folding**: a straight-line chain — consecutive nodes with exactly one
//!   incoming and one outgoing edge, none of them special (loop head, entry,
//!   exit, error, terminal) — becomes one box that lists the operations
//!   between its nodes, as CPAchecker's report does. Programs with more
//!   than [`FOLD_ABOVE`] nodes are folded by default.
//! * [`CfaGraph::overlay`] is what a position of the run adds: per graph
//!   node the number of reached states, and which node, edge or folded
//!   operation is current or selected.
//! * [`CfaGraph::interpolant_labels`] is what a CEGAR run's latest
//!   refinement adds: beside each CFA node where an interpolant of the
//!   refuted path holds, a small label with it (on the folded box that
//!   contains the node, at the node's row), placed clear of every node.
//!
//! Nothing here depends on Yew or web-sys: it is tested natively.

use std::collections::{BTreeMap, BTreeSet};

use cfa::{EdgeId, EdgeKind, NodeId, NodeKind, Program};
use engine::trace::{InterpolantView, PredicateEntry};

use crate::model::graphs::layout::{layout, EdgeSpec, NodeSpec, Point, Shape, Spacing};
use crate::model::page::Marker;
use crate::model::selection::Highlight;

/// Programs with more CFA nodes than this are shown folded by default.
pub const FOLD_ABOVE: usize = 60;

/// Edge labels longer than this many characters are shortened (the full
/// text is the tooltip).
pub const LABEL_CHARS: usize = 30;

/// Width of one character of the graph's monospace font (11 px).
pub const CHAR_W: f64 = 6.7;
/// Height of one line of text in the graph.
pub const LINE_H: f64 = 14.0;
/// Spacing of the CFA drawing: label layers sit between node layers, so
/// the gaps are small.
pub const CFA_SPACING: Spacing = Spacing { node_gap: 16.0, layer_gap: 7.0, margin: 10.0 };
/// Diameter of a CFA node's circle.
pub const NODE_D: f64 = 30.0;

/// An operation inside a folded chain.
#[derive(Clone, Debug, PartialEq)]
pub struct FoldedOp {
    /// The CFA edge.
    pub edge: EdgeId,
    /// Its label, shortened.
    pub text: String,
    /// Its label in full.
    pub full: String,
}

/// One node of the drawn graph: a CFA node, or a folded chain of them.
#[derive(Clone, Debug, PartialEq)]
pub struct GraphNode {
    /// The CFA nodes it stands for (one, or a chain in order).
    pub cfa_nodes: Vec<NodeId>,
    /// `N5`, or `N5–N9` for a chain.
    pub title: String,
    /// The operations between the chain's nodes (empty for a single node).
    pub ops: Vec<FoldedOp>,
    /// What is special about it.
    pub markers: Vec<Marker>,
    /// The function it belongs to.
    pub function: String,
    /// Source line of its (first) node.
    pub line: u32,
    /// Its center.
    pub center: Point,
    /// Its size.
    pub width: f64,
    /// Its size.
    pub height: f64,
    /// Circle (single node) or rectangle (folded chain).
    pub shape: Shape,
}

impl GraphNode {
    /// The DOM key of the node: its first CFA node (`N5`).
    pub fn key(&self) -> String {
        self.cfa_nodes.first().map(|n| n.to_string()).unwrap_or_default()
    }

    /// Whether it is a folded chain.
    pub fn is_folded(&self) -> bool {
        self.cfa_nodes.len() > 1
    }

    /// The tooltip: node(s), line, markers, function.
    pub fn tooltip(&self) -> String {
        let mut t = format!("{} — line {} in {}", self.title, self.line, self.function);
        for m in &self.markers {
            t += &format!(", {}", m.word());
        }
        if self.is_folded() {
            t += &format!(" — {} nodes folded (straight-line chain)", self.cfa_nodes.len());
        }
        t
    }
}

/// One drawn edge: a CFA edge between two graph nodes.
#[derive(Clone, Debug, PartialEq)]
pub struct GraphEdge {
    /// The CFA edge.
    pub edge: EdgeId,
    /// Source graph node.
    pub from: usize,
    /// Target graph node.
    pub to: usize,
    /// The label, shortened to [`LABEL_CHARS`].
    pub label: String,
    /// The label in full.
    pub full_label: String,
    /// The edge kind's name (`assume`, `assign`, `call`, …).
    pub kind: &'static str,
    /// Whether it closes a cycle (a loop's edge back to its head).
    pub back: bool,
    /// The SVG path (`M x y Q …`).
    pub path: String,
    /// Top-left corner of the label.
    pub label_at: Option<Point>,
}

/// Where a CFA edge is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgePlace {
    /// As graph edge `i`.
    Edge(usize),
    /// As operation `op` inside folded graph node `node`.
    Inner {
        /// The folded node.
        node: usize,
        /// The operation's index in its list.
        op: usize,
    },
}

/// The CFA of a program laid out as a graph.
#[derive(Clone, Debug, PartialEq)]
pub struct CfaGraph {
    /// The drawn nodes.
    pub nodes: Vec<GraphNode>,
    /// The drawn edges.
    pub edges: Vec<GraphEdge>,
    /// Width of the drawing.
    pub width: f64,
    /// Height of the drawing.
    pub height: f64,
    /// Whether chains are folded.
    pub folded: bool,
    /// How many CFA nodes folding hides (0: nothing to fold).
    pub foldable: usize,
    /// Graph node of each CFA node (by node id).
    node_of: Vec<usize>,
    /// Where each CFA edge is drawn (by edge id).
    edge_of: Vec<EdgePlace>,
}

/// What a position of a run adds to the graph.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Overlay {
    /// Reached states per graph node (only nodes with some).
    pub counts: BTreeMap<usize, usize>,
    /// The graph node of the state being processed.
    pub current_node: Option<usize>,
    /// Where the edge being processed is drawn.
    pub current_edge: Option<EdgePlace>,
    /// Graph nodes to mark as selected.
    pub selected_nodes: BTreeSet<usize>,
    /// Graph edges to mark as selected.
    pub selected_edges: BTreeSet<usize>,
    /// Folded operations to mark as selected: (node, op).
    pub selected_ops: BTreeSet<(usize, usize)>,
}

/// Interpolant labels longer than this many characters are shortened (the
/// full text is the tooltip).
pub const INTERPOLANT_CHARS: usize = 26;

/// Space between an interpolant label's text and its border.
const INTERPOLANT_PAD: f64 = 4.0;

/// Width kept free for a node's count badge (two digits).
const BADGE_W: f64 = 2.0 * 6.6 + 8.0;

/// An interpolant drawn on the CFA graph. An interpolant of a refuted error
/// path is a formula at one location along the path: it over-approximates
/// the states the path's prefix can reach there and is inconsistent with
/// the path's rest — so the analysis must track its variables at that
/// location to see the path is infeasible. The explicit-value refiner's
/// interpolants are sets of variable values (`{x=6}`; `true` when nothing
/// needs to be known, `false` past the contradiction).
#[derive(Clone, Debug, PartialEq)]
pub struct InterpolantLabel {
    /// The CFA node the interpolant holds at (the label's `data-node`).
    pub node: NodeId,
    /// The graph node it is drawn beside: the node's circle, or the folded
    /// box that contains it.
    pub graph_node: usize,
    /// What the label shows: the interpolant with the node's own function's
    /// variables unqualified (`{flag=1}`), `N2: …` on a folded box, several
    /// interpolants at one node (a loop unrolled along the path) joined by
    /// ` | `; shortened to [`INTERPOLANT_CHARS`].
    pub text: String,
    /// The tooltip: the node and, per interpolant there, the path edge
    /// after which it holds and the interpolant in full.
    pub full: String,
    /// Top-left corner of the label's box.
    pub at: Point,
    /// Width of the label's box.
    pub width: f64,
    /// Height of the label's box.
    pub height: f64,
    /// Predicate labels: the node has a predicate the latest refinement
    /// added (drawn highlighted). Always false for interpolants.
    pub new: bool,
}

impl InterpolantLabel {
    /// Whether the label's box meets the rectangle `(x, y, w, h)`.
    pub fn overlaps(&self, x: f64, y: f64, w: f64, h: f64) -> bool {
        Rect { x: self.at.x, y: self.at.y, w: self.width, h: self.height }.meets(&Rect { x, y, w, h })
    }
}

/// An axis-parallel rectangle (top-left corner and size).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Rect {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
}

impl Rect {
    fn meets(&self, o: &Rect) -> bool {
        self.x < o.x + o.w && o.x < self.x + self.w && self.y < o.y + o.h && o.y < self.y + self.h
    }
}

/// What one label beside a node says, before it is placed.
struct LabelItem {
    node: NodeId,
    /// The formulas shown, joined by ` | `.
    texts: Vec<String>,
    /// The tooltip.
    full: String,
    new: bool,
}

/// The predicates of a precision that hold at no single node, for the
/// caption under the CFA graph: `x == y (in main)`, `n <= x (everywhere)`;
/// new ones (added by the latest refinement) marked.
pub fn predicate_caption(predicates: &[(PredicateEntry, bool)]) -> Vec<(String, bool)> {
    predicates
        .iter()
        .filter(|(p, _)| p.location.is_none())
        .map(|(p, new)| (format!("{} ({})", p.predicate, p.scope), *new))
        .collect()
}

/// An interpolant's text as a label shows it: `{}` (nothing needs to be
/// known) as `true`, and the variables of `function` without their
/// `function::` qualifier.
pub fn interpolant_display(text: &str, function: &str) -> String {
    if text == "{}" {
        return "true".into();
    }
    if function.is_empty() {
        return text.to_string();
    }
    let pat = format!("{function}::");
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find(&pat) {
        out.push_str(&rest[..i]);
        // Only a whole qualifier (`main::x`), not the tail of another
        // function's name (`domain::x`).
        if out.chars().last().is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            out.push_str(&pat);
        }
        rest = &rest[i + pat.len()..];
    }
    out.push_str(rest);
    out
}

/// Shortens `s` to at most `max` characters, with `…` when cut.
pub fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(max.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

/// An SVG path through `points`, with the bends rounded (quadratic curves
/// through the midpoints of the segments).
pub fn svg_path(points: &[Point]) -> String {
    let f = |v: f64| format!("{:.1}", v);
    let Some(first) = points.first() else { return String::new() };
    let mut d = format!("M{} {}", f(first.x), f(first.y));
    if points.len() <= 2 {
        for p in &points[1..] {
            d += &format!(" L{} {}", f(p.x), f(p.y));
        }
        return d;
    }
    for i in 1..points.len() - 1 {
        let (p, q) = (points[i], points[i + 1]);
        let mid = Point { x: (p.x + q.x) / 2.0, y: (p.y + q.y) / 2.0 };
        let end = if i + 1 == points.len() - 1 { q } else { mid };
        d += &format!(" Q{} {} {} {}", f(p.x), f(p.y), f(end.x), f(end.y));
    }
    d
}

fn markers_of(node: &cfa::Node) -> Vec<Marker> {
    let mut m = Vec::new();
    match node.kind {
        NodeKind::Entry => m.push(Marker::Entry),
        NodeKind::Exit => m.push(Marker::Exit),
        NodeKind::Terminal => m.push(Marker::Terminal),
        NodeKind::Normal => {}
    }
    if node.loop_head {
        m.push(Marker::LoopHead);
    }
    if node.error {
        m.push(Marker::Error);
    }
    m
}

/// Whether a CFA node may be folded into a chain: one edge in, one out,
/// both intraprocedural, and nothing special about it.
fn chain_node(p: &Program, n: &cfa::Node) -> bool {
    let intra = |e: EdgeId| {
        !matches!(p.edges.get(e.0 as usize).map(|e| &e.kind), Some(EdgeKind::Call { .. } | EdgeKind::Return { .. }) | None)
    };
    n.kind == NodeKind::Normal
        && !n.loop_head
        && !n.error
        && n.incoming.len() == 1
        && n.outgoing.len() == 1
        && intra(n.incoming[0])
        && intra(n.outgoing[0])
        && p.edges.get(n.outgoing[0].0 as usize).is_some_and(|e| e.target != n.id)
}

impl CfaGraph {
    /// Whether a program of this size is folded by default.
    pub fn fold_by_default(program: &Program) -> bool {
        program.nodes.len() > FOLD_ABOVE
    }

    /// The graph of `program`, with straight-line chains folded or not.
    pub fn build(program: &Program, fold: bool) -> CfaGraph {
        let n = program.nodes.len();
        // Chains: maximal runs of chain nodes along their single edges.
        let is_chain: Vec<bool> = program.nodes.iter().map(|nd| chain_node(program, nd)).collect();
        let mut group: Vec<Option<usize>> = vec![None; n];
        let mut chains: Vec<Vec<NodeId>> = Vec::new();
        for start in 0..n {
            if !is_chain[start] || group[start].is_some() {
                continue;
            }
            // Only start at a chain node whose predecessor is not one.
            let pred = program.edges.get(program.nodes[start].incoming[0].0 as usize).map(|e| e.source.0 as usize);
            if pred.is_some_and(|p| p < n && is_chain[p] && p != start) {
                continue;
            }
            let mut chain = vec![NodeId(start as u32)];
            let mut at = start;
            loop {
                let next = program.edges.get(program.nodes[at].outgoing[0].0 as usize).map(|e| e.target.0 as usize);
                match next {
                    Some(w) if w < n && is_chain[w] && group[w].is_none() && !chain.contains(&NodeId(w as u32)) => {
                        chain.push(NodeId(w as u32));
                        at = w;
                    }
                    _ => break,
                }
            }
            if chain.len() >= 2 {
                for c in &chain {
                    group[c.0 as usize] = Some(chains.len());
                }
                chains.push(chain);
            }
        }
        // A cycle made only of chain nodes has no start: it stays unfolded.
        let foldable: usize = chains.iter().map(|c| c.len() - 1).sum();

        let mut nodes: Vec<GraphNode> = Vec::new();
        let mut node_of = vec![usize::MAX; n];
        let mut edge_of = vec![EdgePlace::Edge(usize::MAX); program.edges.len()];
        let fname = |f: cfa::FuncId| program.functions.get(f.0 as usize).map(|f| f.name.clone()).unwrap_or_default();
        let mut emitted = vec![false; chains.len()];
        for nd in &program.nodes {
            let i = nd.id.0 as usize;
            match group[i].filter(|_| fold) {
                Some(g) => {
                    if emitted[g] {
                        continue;
                    }
                    emitted[g] = true;
                    let chain = &chains[g];
                    let idx = nodes.len();
                    let mut ops = Vec::new();
                    for c in chain {
                        node_of[c.0 as usize] = idx;
                    }
                    for w in chain.windows(2) {
                        if let Some(e) = program.nodes[w[0].0 as usize].outgoing.first() {
                            if let Some(edge) = program.edges.get(e.0 as usize) {
                                edge_of[e.0 as usize] = EdgePlace::Inner { node: idx, op: ops.len() };
                                ops.push(FoldedOp {
                                    edge: *e,
                                    text: shorten(&edge.label, LABEL_CHARS),
                                    full: edge.label.clone(),
                                });
                            }
                        }
                    }
                    let first = chain[0];
                    let last = chain[chain.len() - 1];
                    let title = format!("{first}–{last}");
                    let chars = ops.iter().map(|o| o.text.chars().count()).chain([title.chars().count()]).max().unwrap_or(1);
                    nodes.push(GraphNode {
                        cfa_nodes: chain.clone(),
                        title,
                        ops,
                        markers: vec![],
                        function: fname(nd.function),
                        line: program.nodes[first.0 as usize].line,
                        center: Point { x: 0.0, y: 0.0 },
                        width: chars as f64 * CHAR_W + 14.0,
                        height: (1 + chain.len() - 1) as f64 * LINE_H + 10.0,
                        shape: Shape::Rect,
                    });
                }
                None => {
                    node_of[i] = nodes.len();
                    let title = nd.id.to_string();
                    let d = NODE_D.max(title.chars().count() as f64 * CHAR_W + 8.0);
                    nodes.push(GraphNode {
                        cfa_nodes: vec![nd.id],
                        title,
                        ops: vec![],
                        markers: markers_of(nd),
                        function: fname(nd.function),
                        line: nd.line,
                        center: Point { x: 0.0, y: 0.0 },
                        width: d,
                        height: d,
                        shape: Shape::Circle,
                    });
                }
            }
        }
        let mut edges: Vec<GraphEdge> = Vec::new();
        for e in &program.edges {
            if matches!(edge_of.get(e.id.0 as usize), Some(EdgePlace::Inner { .. })) {
                continue;
            }
            let (Some(&from), Some(&to)) = (node_of.get(e.source.0 as usize), node_of.get(e.target.0 as usize)) else { continue };
            if from == usize::MAX || to == usize::MAX {
                continue;
            }
            edge_of[e.id.0 as usize] = EdgePlace::Edge(edges.len());
            edges.push(GraphEdge {
                edge: e.id,
                from,
                to,
                label: shorten(&e.label, LABEL_CHARS),
                full_label: e.label.clone(),
                kind: cfa::edge_kind_name(&e.kind),
                back: false,
                path: String::new(),
                label_at: None,
            });
        }
        let specs: Vec<NodeSpec> = nodes.iter().map(|g| NodeSpec { width: g.width, height: g.height, shape: g.shape }).collect();
        let espec: Vec<EdgeSpec> = edges
            .iter()
            .map(|g| EdgeSpec { from: g.from, to: g.to, label: Some((g.label.chars().count() as f64 * CHAR_W, LINE_H)) })
            .collect();
        let l = layout(&specs, &espec, CFA_SPACING);
        for (g, c) in nodes.iter_mut().zip(&l.nodes) {
            g.center = *c;
        }
        for (g, r) in edges.iter_mut().zip(&l.edges) {
            g.back = r.back;
            g.path = svg_path(&r.points);
            g.label_at = r.label_at;
        }
        CfaGraph { nodes, edges, width: l.width, height: l.height, folded: fold, foldable, node_of, edge_of }
    }

    /// The graph node drawing CFA node `n`.
    pub fn node_index(&self, n: NodeId) -> Option<usize> {
        self.node_of.get(n.0 as usize).copied().filter(|&i| i < self.nodes.len())
    }

    /// Where CFA edge `e` is drawn.
    pub fn edge_place(&self, e: EdgeId) -> Option<EdgePlace> {
        self.edge_of.get(e.0 as usize).copied().filter(|p| match p {
            EdgePlace::Edge(i) => *i < self.edges.len(),
            EdgePlace::Inner { node, .. } => *node < self.nodes.len(),
        })
    }

    /// What a run adds at one position: `reached` is the reached set by
    /// location, `current_node`/`current_edge` what the step processes,
    /// `highlight` the resolved selection.
    pub fn overlay(
        &self,
        reached: &BTreeMap<NodeId, Vec<engine::StateId>>,
        current_node: Option<NodeId>,
        current_edge: Option<EdgeId>,
        highlight: &Highlight,
    ) -> Overlay {
        let mut o = Overlay::default();
        for (n, states) in reached {
            if let Some(i) = self.node_index(*n) {
                if !states.is_empty() {
                    *o.counts.entry(i).or_default() += states.len();
                }
            }
        }
        o.current_node = current_node.and_then(|n| self.node_index(n));
        o.current_edge = current_edge.and_then(|e| self.edge_place(e));
        o.selected_nodes = highlight.nodes.iter().filter_map(|&n| self.node_index(n)).collect();
        for &e in &highlight.edges {
            match self.edge_place(e) {
                Some(EdgePlace::Edge(i)) => {
                    o.selected_edges.insert(i);
                }
                Some(EdgePlace::Inner { node, op }) => {
                    o.selected_ops.insert((node, op));
                }
                None => {}
            }
        }
        o
    }

    /// The labels the latest refinement's `interpolants` add to the graph:
    /// one per CFA node that has any, beside the node's circle (right of
    /// it, else left, below or above) or beside its row of the folded box
    /// that contains it. No label meets a node's shape, its count badge or
    /// another label; edge labels and the drawing's bounds are avoided when
    /// possible. Interpolants at nodes the graph does not draw are skipped.
    pub fn interpolant_labels(&self, program: &Program, interpolants: &[InterpolantView]) -> Vec<InterpolantLabel> {
        // The nodes in order of their first interpolant along the path.
        let mut order: Vec<NodeId> = Vec::new();
        let mut at_node: BTreeMap<NodeId, Vec<&InterpolantView>> = BTreeMap::new();
        for it in interpolants {
            if self.node_index(it.location).is_none() {
                continue;
            }
            let list = at_node.entry(it.location).or_default();
            if list.is_empty() {
                order.push(it.location);
            }
            list.push(it);
        }
        let items = order.into_iter().map(|node| {
            let its = &at_node[&node];
            let function = self.node_index(node).map(|gi| self.nodes[gi].function.as_str()).unwrap_or("");
            let mut texts: Vec<String> = Vec::new();
            for it in its {
                let t = interpolant_display(&it.text, function);
                if !texts.contains(&t) {
                    texts.push(t);
                }
            }
            let mut full = format!("interpolant at {node} (latest refinement)");
            for it in its {
                let e = program.edge(it.edge);
                full += &format!("\nafter {}→{} `{}` (line {}): {}", e.source, e.target, e.label, e.line, it.text);
            }
            LabelItem { node, texts, full, new: false }
        });
        self.place_labels(items.collect())
    }

    /// The labels of a predicate precision (predicate analysis): one per
    /// CFA node with predicates of its own (`location` set), beside the
    /// node as [`CfaGraph::interpolant_labels`] places interpolants, the
    /// predicates joined by ` | `; a node with a predicate the latest
    /// refinement added is marked [`InterpolantLabel::new`]. Function-wide
    /// and global predicates have no node: [`predicate_caption`] lists them.
    pub fn predicate_labels(&self, predicates: &[(PredicateEntry, bool)]) -> Vec<InterpolantLabel> {
        let mut at_node: BTreeMap<NodeId, Vec<(&PredicateEntry, bool)>> = BTreeMap::new();
        for (p, new) in predicates {
            if let Some(node) = p.location.filter(|&n| self.node_index(n).is_some()) {
                at_node.entry(node).or_default().push((p, *new));
            }
        }
        let items = at_node
            .into_iter()
            .map(|(node, ps)| {
                let function = self.node_index(node).map(|gi| self.nodes[gi].function.as_str()).unwrap_or("");
                let texts: Vec<String> = ps.iter().map(|(p, _)| interpolant_display(&p.predicate, function)).collect();
                let mut full = format!("predicates at {node} (the abstraction there is computed over them)");
                for (p, new) in &ps {
                    full += &format!("\n{}{}", p.predicate, if *new { " (new: added by the latest refinement)" } else { "" });
                }
                LabelItem { node, texts, full, new: ps.iter().any(|(_, new)| *new) }
            })
            .collect();
        self.place_labels(items)
    }

    /// Places one label per item beside its node (see
    /// [`CfaGraph::interpolant_labels`] for where), in the items' order.
    fn place_labels(&self, items: Vec<LabelItem>) -> Vec<InterpolantLabel> {
        // What a label must never cover: the nodes' shapes and the place of
        // their count badges (drawn only with states, reserved always so a
        // label does not move while stepping).
        let mut hard: Vec<Rect> = Vec::new();
        for n in &self.nodes {
            let (x0, y0) = (n.center.x - n.width / 2.0, n.center.y - n.height / 2.0);
            hard.push(Rect { x: x0, y: y0, w: n.width, h: n.height });
            let badge =
                if n.is_folded() { (x0 + n.width, y0) } else { (n.center.x + n.width * 0.36, n.center.y - n.height * 0.36) };
            hard.push(Rect { x: badge.0 - 4.0, y: badge.1 - 8.0, w: BADGE_W, h: 15.0 });
        }
        let soft: Vec<Rect> = self
            .edges
            .iter()
            .filter_map(|e| {
                e.label_at.map(|p| Rect { x: p.x - 2.0, y: p.y, w: e.label.chars().count() as f64 * CHAR_W + 4.0, h: LINE_H })
            })
            .collect();
        let mut labels: Vec<InterpolantLabel> = Vec::new();
        for LabelItem { node, texts, full, new } in items {
            let Some(gi) = self.node_index(node) else { continue };
            let g = &self.nodes[gi];
            let shown = texts.join(" | ");
            let text = shorten(&if g.is_folded() { format!("{node}: {shown}") } else { shown }, INTERPOLANT_CHARS);
            let (w, h) = (text.chars().count() as f64 * CHAR_W + 2.0 * INTERPOLANT_PAD, LINE_H);
            let (x0, y0) = (g.center.x - g.width / 2.0, g.center.y - g.height / 2.0);
            let (x1, y1) = (x0 + g.width, y0 + g.height);
            let candidates: Vec<Point> = if g.is_folded() {
                // Beside the node's row (the title for the chain's first
                // node, else the operation that leads to it), in one column
                // right of the box's badge, else left of the box.
                let j = g.cfa_nodes.iter().position(|&c| c == node).unwrap_or(0);
                let row = y0 + 5.0 + j as f64 * LINE_H + if j > 0 { 1.0 } else { 0.0 };
                vec![Point { x: x1 - 4.0 + BADGE_W + 3.0, y: row }, Point { x: x0 - 6.0 - w, y: row }]
            } else {
                // Right of the circle just below its badge, else left,
                // below, above.
                vec![
                    Point { x: x1 + 6.0, y: g.center.y - 3.0 },
                    Point { x: x0 - 6.0 - w, y: g.center.y - h / 2.0 },
                    Point { x: g.center.x - w / 2.0, y: y1 + 3.0 },
                    Point { x: g.center.x - w / 2.0, y: y0 - 3.0 - h },
                ]
            };
            let placed: Vec<Rect> = labels.iter().map(|l| Rect { x: l.at.x, y: l.at.y, w: l.width, h: l.height }).collect();
            let free = |p: &Point, avoid_soft: bool, inside: bool| {
                let r = Rect { x: p.x, y: p.y, w, h };
                p.x >= 0.0
                    && p.y >= 0.0
                    && (!inside || (p.x + w <= self.width && p.y + h <= self.height))
                    && !hard.iter().chain(&placed).any(|o| o.meets(&r))
                    && (!avoid_soft || !soft.iter().any(|o| o.meets(&r)))
            };
            let at = candidates
                .iter()
                .find(|p| free(p, true, true))
                .or_else(|| candidates.iter().find(|p| free(p, true, false)))
                .or_else(|| candidates.iter().find(|p| free(p, false, false)))
                .copied()
                .unwrap_or_else(|| {
                    // Further right until clear: past every node and label
                    // at the latest, so this ends.
                    let mut p = candidates[0];
                    while !free(&p, false, false) {
                        p.x += 8.0;
                    }
                    p
                });
            labels.push(InterpolantLabel { node, graph_node: gi, text, full, at, width: w, height: h, new });
        }
        labels
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::model::graphs::layout::{check, EdgeSpec, NodeSpec};
    use crate::model::page::EXAMPLE_PROGRAM;

    fn check_graph(g: &CfaGraph, program: &Program) {
        let specs: Vec<NodeSpec> =
            g.nodes.iter().map(|n| NodeSpec { width: n.width, height: n.height, shape: n.shape }).collect();
        let espec: Vec<EdgeSpec> = g
            .edges
            .iter()
            .map(|e| EdgeSpec { from: e.from, to: e.to, label: Some((e.label.chars().count() as f64 * CHAR_W, LINE_H)) })
            .collect();
        let l = layout(&specs, &espec, CFA_SPACING);
        check(&specs, &espec, &l).unwrap();
        // Every CFA node and edge is drawn somewhere.
        for nd in &program.nodes {
            let i = g.node_index(nd.id).unwrap_or_else(|| panic!("{} not drawn", nd.id));
            assert!(g.nodes[i].cfa_nodes.contains(&nd.id));
        }
        for e in &program.edges {
            match g.edge_place(e.id).unwrap_or_else(|| panic!("edge {} not drawn", e.id.0)) {
                EdgePlace::Edge(i) => assert_eq!(g.edges[i].edge, e.id),
                EdgePlace::Inner { node, op } => assert_eq!(g.nodes[node].ops[op].edge, e.id),
            }
        }
    }

    #[test]
    fn listing_2_1_draws_every_node_and_edge_with_its_markers() {
        let program = cfa::from_source(EXAMPLE_PROGRAM).unwrap();
        let g = CfaGraph::build(&program, false);
        assert_eq!(g.nodes.len(), 13);
        assert_eq!(g.edges.len(), 14);
        check_graph(&g, &program);
        let heads: Vec<&str> =
            g.nodes.iter().filter(|n| n.markers.contains(&Marker::LoopHead)).map(|n| n.title.as_str()).collect();
        assert_eq!(heads, ["N3"]);
        assert!(g.nodes.iter().any(|n| n.markers.contains(&Marker::Error)));
        assert!(g.nodes.iter().any(|n| n.markers.contains(&Marker::Entry)));
        // The loop's edge back to its head points up, all others down.
        let backs: Vec<&str> = g.edges.iter().filter(|e| e.back).map(|e| e.full_label.as_str()).collect();
        assert_eq!(backs, ["ticks = ticks + 1;"]);
        assert!(g.edges.iter().any(|e| e.label == "int flag = __VERIFIER_nondet_…"), "long labels are shortened");
        assert_eq!(g, CfaGraph::build(&program, false), "deterministic");
    }

    #[test]
    fn folding_merges_straight_line_chains_and_keeps_every_operation() {
        let src = "int main() { int a = 1; int b = 2; int c = a + b; a = c; while (a < 10) { a = a + 1; b = b + 1; c = c + 1; } return 0; }";
        let program = cfa::from_source(src).unwrap();
        let plain = CfaGraph::build(&program, false);
        let folded = CfaGraph::build(&program, true);
        assert!(folded.foldable > 0);
        assert!(folded.nodes.len() < plain.nodes.len(), "{} vs {}", folded.nodes.len(), plain.nodes.len());
        check_graph(&folded, &program);
        check_graph(&plain, &program);
        let boxes: Vec<&GraphNode> = folded.nodes.iter().filter(|n| n.is_folded()).collect();
        assert!(!boxes.is_empty());
        for b in &boxes {
            assert_eq!(b.ops.len(), b.cfa_nodes.len() - 1);
            assert!(b.markers.is_empty());
        }
        // The loop head is never folded.
        let head = program.nodes.iter().find(|n| n.loop_head).unwrap().id;
        assert!(!folded.nodes[folded.node_index(head).unwrap()].is_folded());
    }

    #[test]
    fn overlay_counts_reached_states_per_drawn_node_and_marks_the_selection() {
        let mut run =
            crate::model::analysis::Run::start(EXAMPLE_PROGRAM, crate::model::analysis::RunSpec::default()).unwrap().complete();
        let n = run.cursor.len();
        run.cursor.seek(n);
        let snap = run.cursor.snapshot();
        let g = CfaGraph::build(&run.program, false);
        let head = run.program.nodes.iter().find(|n| n.loop_head).unwrap().id;
        let h = crate::model::selection::Selection::Node(head).resolve(&run.program, Some(snap));
        let o = g.overlay(&snap.reached, None, None, &h);
        let total: usize = o.counts.values().sum();
        assert_eq!(total, snap.reached_len());
        assert_eq!(o.selected_nodes, BTreeSet::from([g.node_index(head).unwrap()]));
        // Folded, the counts of a chain's nodes add up.
        let f = CfaGraph::build(&run.program, true);
        let of = f.overlay(&snap.reached, None, None, &h);
        assert_eq!(of.counts.values().sum::<usize>(), total);
    }

    #[test]
    fn svg_paths_and_shortening() {
        assert_eq!(svg_path(&[Point { x: 0.0, y: 0.0 }, Point { x: 1.0, y: 2.0 }]), "M0.0 0.0 L1.0 2.0");
        let p = svg_path(&[Point { x: 0.0, y: 0.0 }, Point { x: 0.0, y: 10.0 }, Point { x: 10.0, y: 20.0 }]);
        assert_eq!(p, "M0.0 0.0 Q0.0 10.0 10.0 20.0");
        assert_eq!(shorten("abcdef", 4), "abc…");
        assert_eq!(shorten("abc", 4), "abc");
        assert_eq!(svg_path(&[]), "");
    }

    /// A generated program of a few hundred lines: folded by default,
    /// with far fewer drawn nodes, and laid out with the invariants.
    pub(crate) fn long_program(blocks: usize) -> String {
        let mut s = String::from("extern int __VERIFIER_nondet_int(void);\nint main() {\n  int x = 0;\n  int y = 0;\n  int z = __VERIFIER_nondet_int();\n");
        for k in 0..blocks {
            s += &format!("  x = x + {k};\n  y = y - 1;\n  z = z + x;\n  x = x - y;\n");
            s += "  if (x > y) {\n    x = x - 1;\n    y = y + 2;\n  } else {\n    y = y + 1;\n  }\n";
            s += &format!("  while (x < {k}) {{\n    x = x + 1;\n    z = z - 1;\n  }}\n");
        }
        s += "  return 0;\n}\n";
        s
    }

    #[test]
    fn a_program_of_a_few_hundred_lines_is_folded_and_lays_out() {
        let src = long_program(22);
        assert!(src.lines().count() >= 300, "{} lines", src.lines().count());
        let program = cfa::from_source(&src).unwrap();
        assert!(CfaGraph::fold_by_default(&program));
        let plain = CfaGraph::build(&program, false);
        let folded = CfaGraph::build(&program, true);
        check_graph(&folded, &program);
        assert!(folded.nodes.len() * 10 < plain.nodes.len() * 7, "{} of {} nodes drawn", folded.nodes.len(), plain.nodes.len());
    }

    /// Every SV-COMP task of the shared benchmark set lays out, folded and
    /// unfolded, without panic and with the layout's invariants (natively:
    /// the tasks are files).
    #[test]
    #[cfg(not(target_arch = "wasm32"))]
    fn every_svcomp_task_lays_out() {
        let root = svcomp_tasks::folder();
        let mut files = Vec::new();
        let mut dirs = vec![root.clone()];
        while let Some(d) = dirs.pop() {
            let Ok(rd) = std::fs::read_dir(&d) else { continue };
            for entry in rd.flatten() {
                let p = entry.path();
                if p.is_dir() {
                    dirs.push(p);
                } else if p.extension().is_some_and(|x| x == "c" || x == "i") {
                    files.push(p);
                }
            }
        }
        files.sort();
        assert!(files.len() >= 50, "the SV-COMP folder at {} has {} tasks", root.display(), files.len());
        let mut laid_out = 0;
        for f in &files {
            let Ok(src) = std::fs::read_to_string(f) else { continue };
            let Ok(program) = cfa::from_source(&src) else { continue };
            for fold in [false, true] {
                let g = CfaGraph::build(&program, fold);
                check_graph(&g, &program);
            }
            laid_out += 1;
        }
        assert!(laid_out >= 50, "{laid_out} tasks laid out");
    }
}
