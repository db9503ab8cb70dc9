//! A layered ("Sugiyama-style") graph layout, for the CFA and the ARG.
//!
//! The input is a directed graph whose nodes have a size and whose edges
//! may carry a label of some size; the output places every node, routes
//! every edge as a polyline and places every label, so that
//!
//! * forward edges point downward: every edge goes from a higher layer to a
//!   lower one, except the few *back edges* that close cycles (a loop's
//!   edge back to its head), which are laid out reversed and point upward;
//! * nodes and labels never overlap (labels sit on dummy nodes of their own);
//! * the layout is deterministic (the same graph gives the same picture).
//!
//! The steps are the classic ones:
//!
//! 1. **Cycle removal** — a depth-first search from the sources (in input
//!    order) marks the edges that close a cycle; they are reversed.
//! 2. **Layering** — longest path from the sources; an edge with a label
//!    spans two layers (the label gets the layer in between).
//! 3. **Dummy nodes** — an edge spanning several layers gets one dummy node
//!    per layer it crosses, so all edges join adjacent layers.
//! 4. **Crossing reduction** — barycenter sweeps down and up, keeping the
//!    order with the fewest crossings (counted exactly, by inversions).
//! 5. **Coordinates** — each layer is placed at the weighted average of its
//!    neighbours' positions, as close as the separation allows (an exact
//!    least-squares placement that keeps the order), alternating down and
//!    up sweeps; long edges weigh more, so they run straight.
//! 6. **Routing** — each edge is the polyline through its dummies, clipped
//!    at the border of its end nodes; self-loops are drawn beside the node.
//!
//! Nothing here knows about CFAs or the page: it is tested natively.

use std::collections::VecDeque;

/// A point in layout coordinates (pixels; y grows downward).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// Horizontal position.
    pub x: f64,
    /// Vertical position.
    pub y: f64,
}

/// The shape of a node, for clipping edges at its border.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape {
    /// A circle of this radius (the node's size is its bounding box).
    Circle,
    /// A rectangle of the node's size.
    Rect,
}

/// A node to place: its size and shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NodeSpec {
    /// Width in pixels.
    pub width: f64,
    /// Height in pixels.
    pub height: f64,
    /// Its outline (edges end at it).
    pub shape: Shape,
}

/// An edge to route: its ends (indices into the node list) and the size of
/// its label (`None`: unlabelled).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EdgeSpec {
    /// The source node's index.
    pub from: usize,
    /// The target node's index.
    pub to: usize,
    /// The label's width and height, if the edge has a label.
    pub label: Option<(f64, f64)>,
}

/// Spacing of a layout.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spacing {
    /// Horizontal gap between neighbours in a layer.
    pub node_gap: f64,
    /// Vertical gap between layers.
    pub layer_gap: f64,
    /// Margin around the drawing.
    pub margin: f64,
}

impl Default for Spacing {
    fn default() -> Self {
        Spacing { node_gap: 18.0, layer_gap: 16.0, margin: 12.0 }
    }
}

/// One routed edge.
#[derive(Clone, Debug, PartialEq)]
pub struct EdgeRoute {
    /// The polyline from the source's border to the target's border (at
    /// least two points).
    pub points: Vec<Point>,
    /// Where the label's top-left corner goes, if the edge has a label.
    pub label_at: Option<Point>,
    /// Whether the edge closes a cycle (drawn pointing upward).
    pub back: bool,
}

/// The result of [`layout`].
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// The center of every node, in input order.
    pub nodes: Vec<Point>,
    /// The route of every edge, in input order.
    pub edges: Vec<EdgeRoute>,
    /// The layer of every node (0 = top).
    pub layers: Vec<usize>,
    /// Width of the drawing (margins included).
    pub width: f64,
    /// Height of the drawing (margins included).
    pub height: f64,
}

/// A node of the layered graph: a real node, a bend of a long edge, or an
/// edge's label.
#[derive(Clone, Copy, Debug)]
struct LNode {
    /// Extent left of the node's port (where edges attach).
    left: f64,
    /// Extent right of the port.
    right: f64,
    height: f64,
    layer: usize,
    /// Horizontal weight in the placement (dummies pull harder, so long
    /// edges run straight).
    weight: f64,
}

/// Lays out the graph. Edge ends out of range are ignored (such an edge is
/// routed as a single point at the origin); this never panics.
pub fn layout(nodes: &[NodeSpec], edges: &[EdgeSpec], spacing: Spacing) -> Layout {
    // 1. Cycle removal.
    let back = back_edges(nodes.len(), edges);
    // 2. Layering.
    let layer = longest_path_layers(nodes.len(), edges, &back);
    // 3. Dummy nodes.
    let g = LayeredGraph::new(nodes, edges, &back, &layer);
    // 4. Crossing reduction.
    let order = reduce_crossings(&g, initial_order(&g));
    // 5. Coordinates.
    let (x, width) = horizontal_positions(&g, &order, spacing);
    let (layer_y, height) = layer_heights(&g, &order, spacing);
    let y: Vec<f64> = g.lnodes.iter().map(|v| layer_y[v.layer]).collect();
    // 6. Routing.
    let centers: Vec<Point> = (0..nodes.len()).map(|v| Point { x: x[v], y: y[v] }).collect();
    let edges = route_edges(nodes, edges, &g, &back, &centers, |v| Point { x: x[v], y: y[v] });
    Layout { nodes: centers, edges, layers: layer, width: width.max(2.0 * spacing.margin), height }
}

/// Whether both ends of the edge are nodes of the graph.
fn is_valid(e: &EdgeSpec, n: usize) -> bool {
    e.from < n && e.to < n
}

/// An edge's ends in the acyclic orientation: back edges reversed.
fn oriented(e: &EdgeSpec, back: bool) -> (usize, usize) {
    if back {
        (e.to, e.from)
    } else {
        (e.from, e.to)
    }
}

/// Step 2, layering: each node's layer is the longest path to it from the
/// sources over the acyclic orientation (a labelled edge spans two layers,
/// self-loops do not constrain layers); then a source with successors is
/// pulled down next to its first successor (e.g. a function's lone
/// declaration edge), keeping it above them.
fn longest_path_layers(n: usize, edges: &[EdgeSpec], back: &[bool]) -> Vec<usize> {
    let mut layer = vec![0usize; n];
    let mut indeg = vec![0usize; n];
    let mut out: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
    for (i, e) in edges.iter().enumerate() {
        if !is_valid(e, n) || e.from == e.to {
            continue;
        }
        let (a, b) = oriented(e, back[i]);
        let span = if e.label.is_some() { 2 } else { 1 };
        out[a].push((b, span));
        indeg[b] += 1;
    }
    let mut queue: VecDeque<usize> = (0..n).filter(|&v| indeg[v] == 0).collect();
    while let Some(v) = queue.pop_front() {
        for &(w, span) in &out[v] {
            layer[w] = layer[w].max(layer[v] + span);
            indeg[w] -= 1;
            if indeg[w] == 0 {
                queue.push_back(w);
            }
        }
    }
    let mut has_in = vec![false; n];
    for (v, succ) in out.iter().enumerate() {
        for &(w, _) in succ {
            if w != v {
                has_in[w] = true;
            }
        }
    }
    for v in 0..n {
        if has_in[v] || out[v].is_empty() {
            continue;
        }
        let lowest = out[v].iter().map(|&(w, span)| layer[w].saturating_sub(span)).min().unwrap_or(0);
        layer[v] = layer[v].max(lowest);
    }
    layer
}

/// Step 3, the layered graph: the real nodes (first, in input order), then
/// a dummy node per layer a long edge crosses (one of them holds the edge's
/// label), so that every edge is a chain of segments between adjacent
/// layers.
struct LayeredGraph {
    /// Real nodes, then dummies.
    lnodes: Vec<LNode>,
    /// `self_loops[v]`: the self-loops of node `v`, as edge indices.
    self_loops: Vec<Vec<usize>>,
    /// `chains[i]`: the layered nodes of edge `i` from its top end to its
    /// bottom end (empty for self-loops and invalid edges).
    chains: Vec<Vec<usize>>,
    /// `label_node[i]`: the dummy holding edge `i`'s label.
    label_node: Vec<Option<usize>>,
    /// Neighbours in the layer above, per layered node.
    up: Vec<Vec<usize>>,
    /// Neighbours in the layer below, per layered node.
    down: Vec<Vec<usize>>,
    /// The number of layers.
    layer_count: usize,
}

impl LayeredGraph {
    /// The layered graph of the input, given the back edges and layers.
    fn new(nodes: &[NodeSpec], edges: &[EdgeSpec], back: &[bool], layer: &[usize]) -> LayeredGraph {
        let n = nodes.len();
        let mut lnodes: Vec<LNode> = nodes
            .iter()
            .zip(layer)
            .map(|(s, &l)| LNode { left: s.width / 2.0, right: s.width / 2.0, height: s.height, layer: l, weight: 1.0 })
            .collect();
        // Self-loops widen their node on the right (loop + label).
        let mut self_loops: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, e) in edges.iter().enumerate() {
            if is_valid(e, n) && e.from == e.to {
                self_loops[e.from].push(i);
            }
        }
        for (v, loops) in self_loops.iter().enumerate() {
            let extra: f64 = loops.iter().map(|&i| 16.0 + edges[i].label.map_or(0.0, |(w, _)| w + 4.0)).fold(0.0, f64::max);
            lnodes[v].right += extra;
        }
        let mut chains: Vec<Vec<usize>> = vec![Vec::new(); edges.len()];
        let mut label_node: Vec<Option<usize>> = vec![None; edges.len()];
        for (i, e) in edges.iter().enumerate() {
            if !is_valid(e, n) || e.from == e.to {
                continue;
            }
            let (a, b) = oriented(e, back[i]);
            let (la, lb) = (layer[a], layer[b]);
            let mut chain = vec![a];
            let mid = if e.label.is_some() { Some(la + 1) } else { None };
            for l in la + 1..lb {
                let d = lnodes.len();
                match (mid, e.label) {
                    (Some(m), Some((w, h))) if m == l => {
                        lnodes.push(LNode { left: 2.0, right: w + 6.0, height: h, layer: l, weight: 2.0 });
                        label_node[i] = Some(d);
                    }
                    _ => lnodes.push(LNode { left: 1.0, right: 1.0, height: 0.0, layer: l, weight: 4.0 }),
                }
                chain.push(d);
            }
            chain.push(b);
            chains[i] = chain;
        }
        let layer_count = lnodes.iter().map(|v| v.layer + 1).max().unwrap_or(0);
        let total = lnodes.len();
        let mut up: Vec<Vec<usize>> = vec![Vec::new(); total];
        let mut down: Vec<Vec<usize>> = vec![Vec::new(); total];
        for chain in &chains {
            for w in chain.windows(2) {
                down[w[0]].push(w[1]);
                up[w[1]].push(w[0]);
            }
        }
        LayeredGraph { lnodes, self_loops, chains, label_node, up, down, layer_count }
    }
}

/// The order within each layer before crossing reduction: breadth-first
/// from the sources in input order, so the picture follows the program's
/// order; nodes not reached that way go last.
fn initial_order(g: &LayeredGraph) -> Vec<Vec<usize>> {
    let total = g.lnodes.len();
    let mut order: Vec<Vec<usize>> = vec![Vec::new(); g.layer_count];
    let mut seen = vec![false; total];
    let mut queue: VecDeque<usize> = VecDeque::new();
    for v in 0..total {
        if g.up[v].is_empty() && !seen[v] {
            seen[v] = true;
            queue.push_back(v);
        }
        while let Some(x) = queue.pop_front() {
            order[g.lnodes[x].layer].push(x);
            for &y in &g.down[x] {
                if !seen[y] {
                    seen[y] = true;
                    queue.push_back(y);
                }
            }
        }
    }
    for v in 0..total {
        if !seen[v] {
            order[g.lnodes[v].layer].push(v);
        }
    }
    order
}

/// Each layered node's position in its layer.
fn positions(order: &[Vec<usize>], total: usize) -> Vec<usize> {
    let mut pos = vec![0usize; total];
    for row in order {
        for (i, &v) in row.iter().enumerate() {
            pos[v] = i;
        }
    }
    pos
}

/// Step 4, crossing reduction: up to 12 barycenter sweeps, alternately
/// down and up; returns the order with the fewest crossings seen.
fn reduce_crossings(g: &LayeredGraph, mut order: Vec<Vec<usize>>) -> Vec<Vec<usize>> {
    let mut pos = positions(&order, g.lnodes.len());
    let mut best = order.clone();
    let mut best_crossings = crossings(&order, &g.down, &pos);
    for iter in 0..12 {
        if best_crossings == 0 {
            break;
        }
        let downward = iter % 2 == 0;
        let layers: Vec<usize> =
            if downward { (1..g.layer_count).collect() } else { (0..g.layer_count.saturating_sub(1)).rev().collect() };
        let neighbours = if downward { &g.up } else { &g.down };
        for l in layers {
            order[l] = barycenter_order(&order[l], neighbours, &pos);
            for (i, &v) in order[l].iter().enumerate() {
                pos[v] = i;
            }
        }
        let c = crossings(&order, &g.down, &pos);
        if c < best_crossings {
            best_crossings = c;
            best = order.clone();
        }
    }
    best
}

/// A layer sorted by the mean position of each node's neighbours in the
/// layer swept from (a node without such neighbours keeps its place; ties
/// keep the current order).
fn barycenter_order(row: &[usize], neighbours: &[Vec<usize>], pos: &[usize]) -> Vec<usize> {
    let mut keyed: Vec<(f64, usize, usize)> = row
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            let ns = &neighbours[v];
            let key = if ns.is_empty() { i as f64 } else { ns.iter().map(|&w| pos[w] as f64).sum::<f64>() / ns.len() as f64 };
            (key, i, v)
        })
        .collect();
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    keyed.into_iter().map(|(_, _, v)| v).collect()
}

/// Step 5, horizontal coordinates: every layered node's port x (packed to
/// the left at first, then placed by averaging sweeps), shifted so the
/// leftmost extent is at the margin; and the drawing's width.
fn horizontal_positions(g: &LayeredGraph, order: &[Vec<usize>], spacing: Spacing) -> (Vec<f64>, f64) {
    let total = g.lnodes.len();
    let mut x = vec![0.0f64; total];
    for row in order {
        let mut at = 0.0;
        for (i, &v) in row.iter().enumerate() {
            if i > 0 {
                at += g.lnodes[v].left;
            }
            x[v] = at;
            at += g.lnodes[v].right + spacing.node_gap;
        }
    }
    // Averaging sweeps, then two downward sweeps in which a one-to-one
    // link (a node whose only upper neighbour has it as only lower
    // neighbour) pulls hard: chains and long edges come out straight.
    for iter in 0..10 {
        let straighten = iter >= 8;
        let downward = straighten || iter % 2 == 0;
        let layers: Vec<usize> = if downward { (0..g.layer_count).collect() } else { (0..g.layer_count).rev().collect() };
        for l in layers {
            let row = &order[l];
            let desired: Vec<(f64, f64)> = row.iter().map(|&v| desired_x(g, &x, v, downward, straighten)).collect();
            let gaps: Vec<f64> = row.windows(2).map(|p| g.lnodes[p[0]].right + spacing.node_gap + g.lnodes[p[1]].left).collect();
            let placed = place_row(&desired, &gaps);
            for (i, &v) in row.iter().enumerate() {
                x[v] = placed[i];
            }
        }
    }
    let min_left = (0..total).map(|v| x[v] - g.lnodes[v].left).fold(f64::INFINITY, f64::min);
    let shift = if min_left.is_finite() { spacing.margin - min_left } else { spacing.margin };
    for xv in x.iter_mut() {
        *xv += shift;
    }
    let width = (0..total).map(|v| x[v] + g.lnodes[v].right).fold(0.0, f64::max) + spacing.margin;
    (x, width)
}

/// Where node `v` would like to be in a sweep, and how hard it pulls: the
/// weighted mean of its neighbours' x (both sides count; the sweep's side
/// counts double), or, when straightening, exactly under its one-to-one
/// upper neighbour.
fn desired_x(g: &LayeredGraph, x: &[f64], v: usize, downward: bool, straighten: bool) -> (f64, f64) {
    let (up, down) = (&g.up, &g.down);
    if straighten && up[v].len() == 1 && down[up[v][0]].len() == 1 {
        return (x[up[v][0]], 1000.0);
    }
    let (primary, secondary) = if downward { (&up[v], &down[v]) } else { (&down[v], &up[v]) };
    let mut sum = 0.0;
    let mut w = 0.0;
    for &u in primary {
        sum += 2.0 * x[u];
        w += 2.0;
    }
    for &u in secondary {
        sum += x[u];
        w += 1.0;
    }
    if w == 0.0 {
        (x[v], 0.05)
    } else {
        (sum / w, g.lnodes[v].weight * w)
    }
}

/// Step 5, vertical coordinates: the y of each layer's middle (each layer
/// as tall as its tallest member), and the drawing's height.
fn layer_heights(g: &LayeredGraph, order: &[Vec<usize>], spacing: Spacing) -> (Vec<f64>, f64) {
    let mut layer_y = vec![0.0f64; g.layer_count];
    let mut at = spacing.margin;
    for (l, row) in order.iter().enumerate() {
        let h = row.iter().map(|&v| g.lnodes[v].height).fold(0.0, f64::max);
        layer_y[l] = at + h / 2.0;
        at += h + spacing.layer_gap;
    }
    let height = if g.layer_count == 0 { 2.0 * spacing.margin } else { at - spacing.layer_gap + spacing.margin };
    (layer_y, height)
}

/// Step 6, routing: every edge as the polyline through its dummies (`at`
/// places a layered node), clipped at the border of its end nodes, in
/// the edge's own direction; self-loops beside their node; invalid edges
/// as a point at the origin.
fn route_edges(
    nodes: &[NodeSpec],
    edges: &[EdgeSpec],
    g: &LayeredGraph,
    back: &[bool],
    centers: &[Point],
    at: impl Fn(usize) -> Point,
) -> Vec<EdgeRoute> {
    let mut routes = Vec::with_capacity(edges.len());
    for (i, e) in edges.iter().enumerate() {
        if !is_valid(e, nodes.len()) {
            routes.push(EdgeRoute { points: vec![Point { x: 0.0, y: 0.0 }; 2], label_at: None, back: false });
            continue;
        }
        if e.from == e.to {
            let k = g.self_loops[e.from].iter().position(|&j| j == i).unwrap_or(0) as f64;
            routes.push(self_loop_route(centers[e.from], nodes[e.from], e.label, k));
            continue;
        }
        let mut points: Vec<Point> = g.chains[i].iter().map(|&v| at(v)).collect();
        if back[i] {
            points.reverse();
        }
        let (s, t) = (e.from, e.to);
        if points.len() >= 2 {
            let p1 = points[1];
            points[0] = clip(centers[s], nodes[s], p1);
            let m = points.len();
            let q = points[m - 2];
            points[m - 1] = clip(centers[t], nodes[t], q);
        }
        let label_at = match (g.label_node[i], e.label) {
            (Some(d), Some((_, h))) => {
                let p = at(d);
                Some(Point { x: p.x + 6.0, y: p.y - h / 2.0 })
            }
            _ => None,
        };
        routes.push(EdgeRoute { points, label_at, back: back[i] });
    }
    routes
}

/// The `k`-th self-loop of a node centered at `c`: a loop out of its right
/// side (each further one reaching 6 px farther), its label to the right.
fn self_loop_route(c: Point, s: NodeSpec, label: Option<(f64, f64)>, k: f64) -> EdgeRoute {
    let r = s.width / 2.0;
    let reach = r + 14.0 + 6.0 * k;
    let dy = (s.height / 2.0 - 3.0).max(3.0);
    let points = vec![
        Point { x: c.x + r * 0.8, y: c.y - dy * 0.6 },
        Point { x: c.x + reach, y: c.y - dy },
        Point { x: c.x + reach, y: c.y + dy },
        Point { x: c.x + r * 0.8, y: c.y + dy * 0.6 },
    ];
    let label_at = label.map(|(_, h)| Point { x: c.x + reach + 4.0, y: c.y - h / 2.0 });
    EdgeRoute { points, label_at, back: true }
}

/// Marks the edges that close a cycle in a depth-first search started at
/// the nodes without incoming edges (in input order), then at any node not
/// yet visited. Self-loops count as back edges.
fn back_edges(n: usize, edges: &[EdgeSpec]) -> Vec<bool> {
    let mut out: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
    let mut has_in = vec![false; n];
    for (i, e) in edges.iter().enumerate() {
        if e.from < n && e.to < n {
            out[e.from].push((e.to, i));
            if e.from != e.to {
                has_in[e.to] = true;
            }
        }
    }
    let mut back = vec![false; edges.len()];
    // 0 = unvisited, 1 = on the stack, 2 = done.
    let mut state = vec![0u8; n];
    let roots: Vec<usize> = (0..n).filter(|&v| !has_in[v]).chain(0..n).collect();
    for root in roots {
        if state[root] != 0 {
            continue;
        }
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        state[root] = 1;
        while let Some(&mut (v, ref mut k)) = stack.last_mut() {
            if *k < out[v].len() {
                let (w, i) = out[v][*k];
                *k += 1;
                match state[w] {
                    0 => {
                        state[w] = 1;
                        stack.push((w, 0));
                    }
                    1 => back[i] = true,
                    _ => {}
                }
            } else {
                state[v] = 2;
                stack.pop();
            }
        }
    }
    back
}

/// The number of edge crossings between adjacent layers.
fn crossings(order: &[Vec<usize>], down: &[Vec<usize>], pos: &[usize]) -> u64 {
    let mut total = 0u64;
    for row in order {
        // Segments (upper position, lower position), sorted by upper then
        // lower: crossings are the inversions of the lower positions.
        let mut segs: Vec<(usize, usize)> = Vec::new();
        for &v in row {
            for &w in &down[v] {
                segs.push((pos[v], pos[w]));
            }
        }
        segs.sort_unstable();
        let mut lower: Vec<usize> = segs.into_iter().map(|(_, b)| b).collect();
        total += inversions(&mut lower);
    }
    total
}

/// Counts inversions (pairs i < j with v[i] > v[j]) by merge sort.
fn inversions(v: &mut [usize]) -> u64 {
    let n = v.len();
    if n < 2 {
        return 0;
    }
    let mid = n / 2;
    let mut count = inversions(&mut v[..mid]) + inversions(&mut v[mid..]);
    let mut merged = Vec::with_capacity(n);
    let (mut i, mut j) = (0, mid);
    while i < mid && j < n {
        if v[i] <= v[j] {
            merged.push(v[i]);
            i += 1;
        } else {
            merged.push(v[j]);
            count += (mid - i) as u64;
            j += 1;
        }
    }
    merged.extend_from_slice(&v[i..mid]);
    merged.extend_from_slice(&v[j..n]);
    v.copy_from_slice(&merged);
    count
}

/// Positions for one layer: minimizes Σ wᵢ (xᵢ − dᵢ)² subject to
/// xᵢ₊₁ − xᵢ ≥ gapᵢ (keeps the order and the separation), by merging
/// blocks of nodes that press against each other.
fn place_row(desired: &[(f64, f64)], gaps: &[f64]) -> Vec<f64> {
    let n = desired.len();
    // Offsets of each node from the first one when packed tightly.
    let mut offset = vec![0.0; n];
    for i in 1..n {
        offset[i] = offset[i - 1] + gaps[i - 1];
    }
    // A block: nodes first..=last packed tightly; its first node sits at
    // Σ w (d − offset) / Σ w.
    struct Block {
        first: usize,
        last: usize,
        wsum: f64,
        wdsum: f64,
    }
    let start = |b: &Block| if b.wsum > 0.0 { b.wdsum / b.wsum } else { 0.0 };
    let mut blocks: Vec<Block> = Vec::with_capacity(n);
    for i in 0..n {
        let (d, w) = desired[i];
        let w = if w.is_finite() && w > 0.0 { w } else { 1e-6 };
        let d = if d.is_finite() { d } else { 0.0 };
        blocks.push(Block { first: i, last: i, wsum: w, wdsum: w * (d - offset[i]) });
        // Merge while the new block overlaps the previous one.
        while blocks.len() >= 2 {
            let b = &blocks[blocks.len() - 1];
            let a = &blocks[blocks.len() - 2];
            // In block coordinates both start at `start - offset[first]`
            // relative to the packed row; they overlap when b's first node
            // would be left of its packed place after a's last.
            let a_first_x = start(a);
            let b_first_x = start(b);
            if b_first_x < a_first_x - 1e-9 {
                let b = blocks.pop().unwrap_or(Block { first: i, last: i, wsum: 0.0, wdsum: 0.0 });
                if let Some(a) = blocks.last_mut() {
                    a.last = b.last;
                    a.wsum += b.wsum;
                    a.wdsum += b.wdsum;
                }
            } else {
                break;
            }
        }
    }
    let mut x = vec![0.0; n];
    for b in &blocks {
        let s = start(b);
        for (i, xi) in x.iter_mut().enumerate().take(b.last + 1).skip(b.first) {
            *xi = s + offset[i];
        }
    }
    x
}

/// The point where the segment from the node's center toward `toward`
/// leaves the node's outline.
fn clip(center: Point, spec: NodeSpec, toward: Point) -> Point {
    let (dx, dy) = (toward.x - center.x, toward.y - center.y);
    let len = (dx * dx + dy * dy).sqrt();
    if len < 1e-9 {
        return center;
    }
    let (hw, hh) = (spec.width / 2.0, spec.height / 2.0);
    let t = match spec.shape {
        Shape::Circle => hw.min(hh) / len,
        Shape::Rect => {
            let tx = if dx.abs() > 1e-9 { hw / dx.abs() } else { f64::INFINITY };
            let ty = if dy.abs() > 1e-9 { hh / dy.abs() } else { f64::INFINITY };
            tx.min(ty)
        }
    };
    let t = t.min(1.0);
    Point { x: center.x + dx * t, y: center.y + dy * t }
}

/// Checks the layout's invariants (used by the tests): every node and edge
/// present, no two nodes of a layer overlap, labels do not overlap nodes,
/// forward edges point down. Returns the first violation found.
pub fn check(nodes: &[NodeSpec], edges: &[EdgeSpec], l: &Layout) -> Result<(), String> {
    if l.nodes.len() != nodes.len() || l.edges.len() != edges.len() {
        return Err(format!("{} nodes / {} edges placed for {} / {}", l.nodes.len(), l.edges.len(), nodes.len(), edges.len()));
    }
    let rect = |i: usize| {
        let (c, s) = (l.nodes[i], nodes[i]);
        (c.x - s.width / 2.0, c.y - s.height / 2.0, c.x + s.width / 2.0, c.y + s.height / 2.0)
    };
    let overlap = |a: (f64, f64, f64, f64), b: (f64, f64, f64, f64)| {
        a.0 < b.2 - 0.5 && b.0 < a.2 - 0.5 && a.1 < b.3 - 0.5 && b.1 < a.3 - 0.5
    };
    let mut boxes: Vec<(f64, f64, f64, f64, String)> = (0..nodes.len())
        .map(|i| {
            let r = rect(i);
            (r.0, r.1, r.2, r.3, format!("node {i}"))
        })
        .collect();
    for (i, (e, r)) in edges.iter().zip(&l.edges).enumerate() {
        if let (Some((w, h)), Some(p)) = (e.label, r.label_at) {
            boxes.push((p.x, p.y, p.x + w, p.y + h, format!("label of edge {i}")));
        }
        if e.from == e.to {
            continue;
        }
        let (a, b) = (l.nodes[e.from], l.nodes[e.to]);
        if r.back && b.y > a.y + 0.5 {
            return Err(format!("back edge {i} ({} -> {}) points down", e.from, e.to));
        }
        if !r.back && b.y <= a.y {
            return Err(format!("forward edge {i} ({} -> {}) does not point down", e.from, e.to));
        }
        if r.points.len() < 2 || r.points.iter().any(|p| !p.x.is_finite() || !p.y.is_finite()) {
            return Err(format!("edge {i} is not a polyline"));
        }
    }
    // Sort by top to keep the pairwise check cheap on tall graphs.
    boxes.sort_by(|a, b| a.1.total_cmp(&b.1));
    for i in 0..boxes.len() {
        for j in i + 1..boxes.len() {
            if boxes[j].1 >= boxes[i].3 {
                break;
            }
            let (a, b) = (&boxes[i], &boxes[j]);
            if overlap((a.0, a.1, a.2, a.3), (b.0, b.1, b.2, b.3)) {
                return Err(format!("{} overlaps {}", a.4, b.4));
            }
        }
    }
    if l.nodes.iter().any(|p| p.x < 0.0 || p.y < 0.0 || p.x > l.width || p.y > l.height) {
        return Err("a node lies outside the drawing".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn circle() -> NodeSpec {
        NodeSpec { width: 28.0, height: 28.0, shape: Shape::Circle }
    }

    fn edge(from: usize, to: usize, label: bool) -> EdgeSpec {
        EdgeSpec { from, to, label: label.then_some((60.0, 14.0)) }
    }

    #[test]
    fn a_loop_has_one_back_edge_pointing_up_and_forward_edges_point_down() {
        // 0 -> 1 (head) -> 2 -> 1 ; 1 -> 3
        let nodes = vec![circle(); 4];
        let edges = vec![edge(0, 1, true), edge(1, 2, true), edge(2, 1, true), edge(1, 3, true)];
        let l = layout(&nodes, &edges, Spacing::default());
        check(&nodes, &edges, &l).unwrap();
        let backs: Vec<bool> = l.edges.iter().map(|e| e.back).collect();
        assert_eq!(backs, [false, false, true, false]);
        assert!(l.nodes[2].y > l.nodes[1].y && l.nodes[1].y > l.nodes[0].y);
        // Labelled edges span two layers (the label's layer between).
        assert_eq!(l.layers, [0, 2, 4, 4]);
        // Edges start and end on the circles, not at their centers.
        let p = &l.edges[0].points;
        assert!((p[0].y - (l.nodes[0].y + 14.0)).abs() < 1e-6, "{p:?}");
    }

    #[test]
    fn the_same_graph_gives_the_same_layout() {
        let nodes = vec![circle(); 6];
        let edges = vec![
            edge(0, 1, true),
            edge(1, 2, false),
            edge(1, 3, true),
            edge(2, 4, true),
            edge(3, 4, false),
            edge(4, 1, true),
            edge(4, 5, true),
        ];
        let a = layout(&nodes, &edges, Spacing::default());
        let b = layout(&nodes, &edges, Spacing::default());
        assert_eq!(a, b);
        check(&nodes, &edges, &a).unwrap();
    }

    #[test]
    fn crossing_reduction_untangles_a_swapped_pair() {
        // 0 -> {1, 2}; 1 -> 4, 2 -> 3: the initial order puts 3 before 4 in
        // a BFS that visits 2 first, and the sweeps untangle it.
        let nodes = vec![circle(); 5];
        let edges = vec![edge(0, 2, false), edge(0, 1, false), edge(1, 4, false), edge(2, 3, false)];
        let l = layout(&nodes, &edges, Spacing::default());
        check(&nodes, &edges, &l).unwrap();
        let left_of = |a: usize, b: usize| l.nodes[a].x < l.nodes[b].x;
        assert_eq!(left_of(1, 2), left_of(4, 3), "no crossing: {:?}", l.nodes);
    }

    #[test]
    fn self_loops_empty_graphs_and_bad_edges_do_not_panic() {
        let l = layout(&[], &[], Spacing::default());
        assert!(l.nodes.is_empty() && l.width > 0.0);
        let nodes = vec![circle(); 2];
        let edges = vec![edge(0, 0, true), edge(0, 1, true), edge(1, 7, true)];
        let l = layout(&nodes, &edges, Spacing::default());
        assert_eq!(l.edges.len(), 3);
        assert!(l.edges[0].back && l.edges[0].label_at.is_some());
        check(&nodes, &edges[..2], &Layout { edges: l.edges[..2].to_vec(), ..l.clone() }).unwrap();
    }

    #[test]
    fn row_placement_keeps_order_and_gaps() {
        let x = place_row(&[(0.0, 1.0), (0.0, 1.0), (0.0, 1.0)], &[10.0, 10.0]);
        assert_eq!(x, [-10.0, 0.0, 10.0]);
        let x = place_row(&[(0.0, 1.0), (100.0, 1.0)], &[10.0]);
        assert_eq!(x, [0.0, 100.0]);
        assert_eq!(inversions(&mut [3, 1, 2]), 2);
    }

    #[test]
    fn a_long_chain_is_straight() {
        let n = 50;
        let nodes = vec![circle(); n];
        let mut edges: Vec<EdgeSpec> = (0..n - 1).map(|i| edge(i, i + 1, false)).collect();
        edges.push(edge(0, n - 1, false));
        let l = layout(&nodes, &edges, Spacing::default());
        check(&nodes, &edges, &l).unwrap();
        let xs: Vec<f64> = l.nodes[1..n - 1].iter().map(|p| p.x).collect();
        assert!(xs.windows(2).all(|w| (w[0] - w[1]).abs() < 1e-6), "{xs:?}");
    }
}
