//! The blocks of block-abstraction memoization (BAM, see
//! [`crate::algorithm`]'s `bam` module): which part of the CFA one cached
//! block analysis covers, where it is entered and left, and which
//! variables its analysis can see (what [`crate::cpa::Cpa::reduce`] keeps).
//!
//! * A **function block** (`cpa.bam.blockHeuristic = FunctionPartitioning`)
//!   is a function body: entered by a call edge, left at the function's
//!   exit. It sees the globals and the function's own variables.
//! * A **loop block** (`LoopPartitioning`) is the natural loop of a loop
//!   head ([`cfa::Node::loop_head`]): the head and every node of the same
//!   function that reaches one of its back edges (from a node the head
//!   dominates) without passing the head. It is entered by an intraprocedural edge
//!   from outside the loop into the head and left by the edges leaving the
//!   loop: a state of the block's own activation at a node outside the
//!   loop is an exit state. Calls made in the loop are analysed inside the
//!   block (or, with `FunctionAndLoopPartitioning`, as function blocks
//!   nested in it). A loop block sees the variables its edges read or
//!   write (with the return slot when a `return` leaves the loop) and,
//!   when the loop calls functions, every global and every variable of the
//!   functions it may call: everything else is unchanged by the loop, so
//!   reduce may drop it and expand restore it from the entry state.

use cfa::{Edge, EdgeKind, FuncId, NodeId, Program, VarId};
use std::collections::{BTreeMap, BTreeSet};

/// Which blocks BAM makes (`cpa.bam.blockHeuristic`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BlockHeuristic {
    /// `FUNCTIONPARTITIONING`: every function body except `main`'s.
    #[default]
    Functions,
    /// `LOOPPARTITIONING`: every loop; calls are analysed inline.
    Loops,
    /// `FUNCTIONANDLOOPPARTITIONING`: both.
    FunctionsAndLoops,
}

impl BlockHeuristic {
    /// The heuristic the option value names (`FunctionPartitioning` for an
    /// unknown one; the config table only admits the three).
    pub fn from_option(value: &str) -> Self {
        match value.to_ascii_uppercase().as_str() {
            "LOOPPARTITIONING" => BlockHeuristic::Loops,
            "FUNCTIONANDLOOPPARTITIONING" => BlockHeuristic::FunctionsAndLoops,
            _ => BlockHeuristic::Functions,
        }
    }
    /// Whether calls of functions are blocks.
    pub fn functions(self) -> bool {
        self != BlockHeuristic::Loops
    }
    /// Whether loops are blocks.
    pub fn loops(self) -> bool {
        self != BlockHeuristic::Functions
    }
}

/// A block's identity: the cache key's first part.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BlockId {
    /// The body of a function.
    Function(FuncId),
    /// The natural loop of this loop head.
    Loop(NodeId),
}

impl BlockId {
    /// The block's name in events and the page: the function's name, or
    /// `loop@line N` (N: the source line of the loop head).
    pub fn name(self, program: &Program) -> String {
        match self {
            BlockId::Function(f) => {
                program.functions.get(f.0 as usize).map(|x| x.name.clone()).unwrap_or_else(|| format!("f{}", f.0))
            }
            BlockId::Loop(head) => format!("loop@line {}", program.nodes.get(head.0 as usize).map_or(0, |n| n.line)),
        }
    }
}

/// A block of BAM, computed once from the CFA.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// Which block it is.
    pub id: BlockId,
    /// Its name in events and the page: the function's name, or
    /// `loop@line N` (N: the line of the loop head).
    pub name: String,
    /// The function whose activation the block runs in (the called
    /// function, or the function containing the loop).
    pub function: FuncId,
    /// A loop block's nodes (the head included); empty for a function block.
    pub body: BTreeSet<NodeId>,
    /// The block's function (for a loop, the one containing it) and every
    /// function the block may call: whose precision its analysis consults.
    pub functions: BTreeSet<FuncId>,
    /// The variables the block's analysis can read or write (what reduce
    /// keeps).
    pub variables: BTreeSet<VarId>,
}

impl Block {
    /// The block `id` of `program` (a loop head without a natural loop
    /// makes a block of the head alone, which every edge leaves).
    pub fn new(program: &Program, id: BlockId) -> Block {
        match id {
            BlockId::Function(f) => Block::function(program, f),
            BlockId::Loop(head) => {
                let function = program.nodes.get(head.0 as usize).map_or(program.main, |n| n.function);
                let body = natural_loop(program, &dominators(program, function), head);
                Block::of_loop(program, head, body.unwrap_or_else(|| BTreeSet::from([head])))
            }
        }
    }

    /// The function block of `f`: it sees the globals and `f`'s own
    /// variables (parameters, locals, return slot, temporaries).
    pub fn function(program: &Program, f: FuncId) -> Block {
        let mut variables: BTreeSet<VarId> = program.frame_variables(f).into_iter().collect();
        variables.extend(globals(program));
        Block {
            id: BlockId::Function(f),
            name: BlockId::Function(f).name(program),
            function: f,
            body: BTreeSet::new(),
            functions: callees_closure(program, f),
            variables,
        }
    }

    /// The loop block of the loop head `head` whose natural loop is `body`
    /// (see the module docs).
    fn of_loop(program: &Program, head: NodeId, body: BTreeSet<NodeId>) -> Block {
        let node = program.node(head);
        let mut functions = BTreeSet::from([node.function]);
        let mut variables = BTreeSet::new();
        let mut calls = false;
        for n in &body {
            for e in program.successors(*n) {
                variables.extend(edge_variables(program, e));
                if let EdgeKind::Call { callee, .. } = e.kind {
                    calls = true;
                    functions.extend(callees_closure(program, callee));
                }
            }
        }
        if calls {
            variables.extend(globals(program));
            for f in &functions {
                if *f != node.function {
                    variables.extend(program.frame_variables(*f));
                }
            }
        }
        let id = BlockId::Loop(head);
        Block { id, name: id.name(program), function: node.function, body, functions, variables }
    }

    /// Whether reduce keeps `var`: the block's analysis may read or write it.
    pub fn sees(&self, var: VarId) -> bool {
        self.variables.contains(&var)
    }

    /// Whether a state of the block's own activation at `node` has left
    /// the block: the function's exit for a function block, any node
    /// outside the loop for a loop block.
    pub fn is_exit(&self, program: &Program, node: NodeId) -> bool {
        match self.id {
            BlockId::Function(f) => program.functions.get(f.0 as usize).is_some_and(|x| x.exit == node),
            BlockId::Loop(_) => !self.body.contains(&node),
        }
    }

    /// Whether `edge` enters this loop block: an intraprocedural edge from
    /// outside the loop into its head (never for a function block).
    pub fn entered_by(&self, edge: &Edge) -> bool {
        let BlockId::Loop(head) = self.id else { return false };
        let intra = !matches!(edge.kind, EdgeKind::Call { .. } | EdgeKind::Return { .. });
        intra && edge.target == head && !self.body.contains(&edge.source)
    }
}

/// The global variables of `program`.
fn globals(program: &Program) -> impl Iterator<Item = VarId> + '_ {
    program.variables.iter().enumerate().filter(|(_, v)| v.is_global()).map(|(i, _)| VarId(i as u32))
}

/// Every variable `edge` reads or writes in the activation it starts in
/// (a call's arguments and result, the callee's parameters it assigns; a
/// `return e;`'s return slot).
fn edge_variables(program: &Program, edge: &Edge) -> Vec<VarId> {
    let mut out: Vec<VarId> = edge.kind.expressions().iter().flat_map(|e| e.variables()).collect();
    match &edge.kind {
        EdgeKind::Declare { var, .. } | EdgeKind::Assign { var, .. } => out.push(*var),
        EdgeKind::Call { callee, result, .. } => {
            out.extend(result);
            out.extend(program.frame_variables(*callee));
        }
        EdgeKind::Return { result, .. } => out.extend(result),
        EdgeKind::ReturnStatement { .. } => out.extend(program.return_slot_at(edge.source)),
        _ => {}
    }
    out
}

/// `f` and every function reachable from it through call edges.
pub fn callees_closure(program: &Program, f: FuncId) -> BTreeSet<FuncId> {
    let mut out = BTreeSet::from([f]);
    let mut todo = vec![f];
    while let Some(g) = todo.pop() {
        for e in &program.edges {
            let caller = program.nodes.get(e.source.0 as usize).map(|n| n.function);
            if caller == Some(g) {
                if let EdgeKind::Call { callee, .. } = e.kind {
                    if out.insert(callee) {
                        todo.push(callee);
                    }
                }
            }
        }
    }
    out
}

/// The successors of `n` in its own function (a call steps to its return
/// site; return edges leave the function).
fn intra_successors(program: &Program, n: NodeId) -> Vec<NodeId> {
    (program.successors(n))
        .filter_map(|e| match &e.kind {
            EdgeKind::Call { return_site, .. } => Some(*return_site),
            EdgeKind::Return { .. } => None,
            _ => Some(e.target),
        })
        .collect()
}

/// The predecessors of `n` in its own function (a return site's is the
/// call site; a function entry has none).
fn intra_predecessors(program: &Program, n: NodeId) -> Vec<NodeId> {
    (program.node(n).incoming.iter().map(|e| program.edge(*e)))
        .filter_map(|e| match &e.kind {
            EdgeKind::Return { call_site, .. } => Some(*call_site),
            EdgeKind::Call { .. } => None,
            _ => Some(e.source),
        })
        .collect()
}

/// The immediate dominators of the nodes of function `f` reachable from
/// its entry in its own graph (Cooper, Harvey & Kennedy's iteration over
/// the reverse postorder): a node's entry in the map is its immediate
/// dominator (the entry's is itself).
fn dominators(program: &Program, f: FuncId) -> BTreeMap<NodeId, NodeId> {
    let Some(entry) = program.functions.get(f.0 as usize).map(|x| x.entry) else { return BTreeMap::new() };
    // Postorder by an iterative depth-first search.
    let mut post: Vec<NodeId> = Vec::new();
    let mut seen = BTreeSet::from([entry]);
    let mut stack: Vec<(NodeId, Vec<NodeId>)> = vec![(entry, intra_successors(program, entry))];
    while let Some((n, succ)) = stack.last_mut() {
        match succ.pop() {
            Some(s) if seen.insert(s) => {
                let next = intra_successors(program, s);
                stack.push((s, next));
            }
            Some(_) => {}
            None => {
                post.push(*n);
                stack.pop();
            }
        }
    }
    let order: BTreeMap<NodeId, usize> = post.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let mut idom: BTreeMap<NodeId, NodeId> = BTreeMap::from([(entry, entry)]);
    let intersect = |idom: &BTreeMap<NodeId, NodeId>, mut a: NodeId, mut b: NodeId| {
        while a != b {
            while order[&a] < order[&b] {
                a = idom[&a];
            }
            while order[&b] < order[&a] {
                b = idom[&b];
            }
        }
        a
    };
    let mut changed = true;
    while changed {
        changed = false;
        for n in post.iter().rev().filter(|n| **n != entry) {
            let preds = intra_predecessors(program, *n);
            let mut done = preds.iter().filter(|p| idom.contains_key(p));
            let Some(first) = done.next() else { continue };
            let new = done.fold(*first, |acc, p| intersect(&idom, acc, *p));
            if idom.get(n) != Some(&new) {
                idom.insert(*n, new);
                changed = true;
            }
        }
    }
    idom
}

/// Whether `a` dominates `b` (under the immediate dominators `idom`).
fn dominates(idom: &BTreeMap<NodeId, NodeId>, a: NodeId, mut b: NodeId) -> bool {
    loop {
        if a == b {
            return true;
        }
        match idom.get(&b) {
            Some(d) if *d != b => b = *d,
            _ => return false,
        }
    }
}

/// The natural loop of `head` (under its function's immediate dominators
/// `idom`): the head and the nodes that reach a back edge's source (a
/// predecessor the head dominates) without passing through the head.
/// `None` when no predecessor is dominated by the head (a loop entered at
/// several places, made with `goto`): such a loop is no block.
fn natural_loop(program: &Program, idom: &BTreeMap<NodeId, NodeId>, head: NodeId) -> Option<BTreeSet<NodeId>> {
    let latches: Vec<NodeId> = intra_predecessors(program, head).into_iter().filter(|p| dominates(idom, head, *p)).collect();
    if latches.is_empty() {
        return None;
    }
    let mut body = BTreeSet::from([head]);
    let mut todo = latches;
    while let Some(n) = todo.pop() {
        if idom.contains_key(&n) && body.insert(n) {
            todo.extend(intra_predecessors(program, n));
        }
    }
    Some(body)
}

/// The loop blocks of `program`: one per loop head with a natural loop.
pub fn loop_blocks(program: &Program) -> Vec<Block> {
    let mut out = Vec::new();
    for f in &program.functions {
        let heads: Vec<NodeId> = (program.nodes.iter()).filter(|n| n.function == f.id && n.loop_head).map(|n| n.id).collect();
        if heads.is_empty() {
            continue;
        }
        let idom = dominators(program, f.id);
        out.extend(heads.into_iter().filter_map(|h| Some(Block::of_loop(program, h, natural_loop(program, &idom, h)?))));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const NESTED: &str = "int g;\nint main() {\n  int i = 0;\n  int u = 7;\n  while (i < 3) {\n    int j = 0;\n    while (j < 2) {\n      j++;\n    }\n    i++;\n  }\n  return u;\n}\n";

    #[test]
    fn nested_loops_are_nested_blocks_that_see_only_their_variables() {
        let p = cfa::from_source(NESTED).unwrap();
        let mut blocks = loop_blocks(&p);
        assert_eq!(blocks.len(), 2);
        blocks.sort_by_key(|b| b.body.len());
        let (inner, outer) = (&blocks[0], &blocks[1]);
        assert_eq!((inner.name.as_str(), outer.name.as_str()), ("loop@line 7", "loop@line 5"));
        assert!(inner.body.is_subset(&outer.body) && inner.body.len() < outer.body.len());
        let name = |v: &VarId| p.variable(*v).name.clone();
        let names = |b: &Block| b.variables.iter().map(name).collect::<Vec<_>>();
        assert_eq!(names(inner), vec!["j"]);
        let outer_names = names(outer);
        assert!(outer_names.contains(&"i".to_string()) && outer_names.contains(&"j".to_string()));
        assert!(!outer_names.contains(&"u".to_string()) && !outer_names.contains(&"g".to_string()));
        // The inner loop is entered from the outer body, not from itself.
        let BlockId::Loop(h) = inner.id else { unreachable!() };
        let entries: Vec<&Edge> = p.node(h).incoming.iter().map(|e| p.edge(*e)).filter(|e| inner.entered_by(e)).collect();
        assert_eq!(entries.len(), 1);
        assert!(outer.body.contains(&entries[0].source));
        assert!(inner.is_exit(&p, entries[0].source) && !outer.is_exit(&p, entries[0].source));
    }

    #[test]
    fn a_loop_that_calls_sees_the_globals_and_the_callees_variables() {
        let src = "int g; int h;\nint inc(int x) { return x + 1; }\nint main() {\n  int i = 0; int u = 1;\n  while (i < 3) {\n    i = inc(i);\n  }\n  return u;\n}\n";
        let p = cfa::from_source(src).unwrap();
        let b = loop_blocks(&p).remove(0);
        let names: Vec<String> = b.variables.iter().map(|v| p.variable(*v).name.clone()).collect();
        for n in ["g", "h", "i", "x"] {
            assert!(names.contains(&n.to_string()), "{n} in {names:?}");
        }
        assert!(!names.contains(&"u".to_string()), "{names:?}");
        assert_eq!(b.functions.len(), 2);
    }
}
