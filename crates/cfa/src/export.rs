//! Views of a [`Program`] for people and tools: a readable text listing,
//! Graphviz DOT, a JSON document for the web page's graph layout, and the
//! reverse-postorder numbering the engine's waitlist can sort by.

use crate::lower::intra_successors;
use crate::model::*;
use serde::Serialize;
use std::fmt::Write;

/// The JSON view of a program (what [`Program::to_json`] serializes).
///
/// ```text
/// { "main": "main",
///   "functions": [ { "id": 0, "name": "main", "entry": 1, "exit": 9,
///                    "nodes": [1, 2, ...] } ],
///   "nodes": [ { "id": 1, "function": 0, "kind": "entry", "line": 3,
///                "loop_head": false, "error": false } ],
///   "edges": [ { "id": 0, "source": 1, "target": 2, "kind": "declare",
///                "label": "int x = 0;", "line": 3 } ],
///   "variables": [ { "id": 0, "name": "x", "qualified": "main::x",
///                    "type": "int", "scope": "local" } ] }
/// ```
///
/// Edge kinds are `blank`, `declare`, `assign`, `assume`, `call`, `return`,
/// `return_statement`, `terminate`, `reach_error`; node kinds are `entry`,
/// `exit`, `normal`, `terminal`.
#[derive(Clone, Debug, Serialize)]
pub struct JsonView {
    /// The name of the function analysis starts in.
    pub main: String,
    /// The functions in source order.
    pub functions: Vec<JsonFunction>,
    /// All locations; `nodes[k].id == k`.
    pub nodes: Vec<JsonNode>,
    /// All edges; `edges[k].id == k`.
    pub edges: Vec<JsonEdge>,
    /// All variables; `variables[k].id == k`.
    pub variables: Vec<JsonVariable>,
}

/// A function in the JSON view: its entry/exit and all its node ids.
#[derive(Clone, Debug, Serialize)]
pub struct JsonFunction {
    /// The function's id (index in `functions`).
    pub id: u32,
    /// Its source name.
    pub name: String,
    /// The entry location.
    pub entry: u32,
    /// The exit location (after `return`).
    pub exit: u32,
    /// Its locations, in id order.
    pub nodes: Vec<u32>,
}

/// A CFA location in the JSON view, with the flags the page draws.
#[derive(Clone, Debug, Serialize)]
pub struct JsonNode {
    /// The location's number (`N<id>`).
    pub id: u32,
    /// The function it belongs to.
    pub function: u32,
    /// `entry`, `exit`, `normal` or `terminal` (after `abort()`/`exit()`).
    pub kind: NodeKind,
    /// The source line of the statement that leaves it.
    pub line: u32,
    /// Target of a back edge: where merge-at-loop-heads and widening act.
    pub loop_head: bool,
    /// The error location of the unreach-call property.
    pub error: bool,
}

/// A CFA edge in the JSON view: endpoints, operation kind and C-like label.
#[derive(Clone, Debug, Serialize)]
pub struct JsonEdge {
    /// The edge's number.
    pub id: u32,
    /// The location it leaves.
    pub source: u32,
    /// The location it enters.
    pub target: u32,
    /// The operation kind (see [`edge_kind_name`]).
    pub kind: &'static str,
    /// The operation as C-like text (`x = x + 1;`, `[x < 10]`).
    pub label: String,
    /// The source line of the statement.
    pub line: u32,
}

/// A program variable in the JSON view.
#[derive(Clone, Debug, Serialize)]
pub struct JsonVariable {
    /// The variable's id.
    pub id: u32,
    /// The name as written (or `__tmp0`, `__retval`).
    pub name: String,
    /// The unique name (`main::x`, `main::x#1`, `g`).
    pub qualified: String,
    /// The C type, e.g. `unsigned int`.
    #[serde(rename = "type")]
    pub ty: String,
    /// `global`, `local`, `param`, `return` or `temp`.
    pub scope: &'static str,
}

/// The snake_case name of an edge's kind (as in the JSON view).
pub fn edge_kind_name(kind: &EdgeKind) -> &'static str {
    match kind {
        EdgeKind::Blank => "blank",
        EdgeKind::Declare { .. } => "declare",
        EdgeKind::Assign { .. } => "assign",
        EdgeKind::Assume { .. } => "assume",
        EdgeKind::Call { .. } => "call",
        EdgeKind::Return { .. } => "return",
        EdgeKind::ReturnStatement { .. } => "return_statement",
        EdgeKind::Terminate => "terminate",
        EdgeKind::ReachError => "reach_error",
        EdgeKind::Store { .. } => "store",
        EdgeKind::Free { .. } => "free",
    }
}

fn dot_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out
}

impl Program {
    /// The nodes of one function, in id order.
    pub fn function_nodes(&self, f: FuncId) -> impl Iterator<Item = &Node> {
        self.nodes.iter().filter(move |n| n.function == f)
    }

    /// A readable listing, one block per function:
    ///
    /// ```text
    /// function main (entry N1, exit N6)
    ///   N1 -> N2  line 3  int x = 0;
    ///   ...
    ///   loop heads: N3
    ///   error nodes: N5 (line 7)
    /// ```
    ///
    /// Edges are listed by source node, in the order of each node's outgoing
    /// edges. Return edges are listed under the callee (they leave its exit).
    pub fn to_listing(&self) -> String {
        let mut s = String::new();
        for (k, f) in self.functions.iter().enumerate() {
            if k > 0 {
                s.push('\n');
            }
            let _ = writeln!(s, "function {} (entry {}, exit {})", f.name, f.entry, f.exit);
            let nodes: Vec<&Node> = self.function_nodes(f.id).collect();
            for n in &nodes {
                for e in self.successors(n.id) {
                    let _ = writeln!(s, "  {} -> {}  line {}  {}", e.source, e.target, e.line, e.label);
                }
            }
            let heads: Vec<String> = nodes.iter().filter(|n| n.loop_head).map(|n| n.id.to_string()).collect();
            if !heads.is_empty() {
                let _ = writeln!(s, "  loop heads: {}", heads.join(", "));
            }
            let errors: Vec<String> = nodes.iter().filter(|n| n.error).map(|n| format!("{} (line {})", n.id, n.line)).collect();
            if !errors.is_empty() {
                let _ = writeln!(s, "  error nodes: {}", errors.join(", "));
            }
            let terms: Vec<String> = nodes.iter().filter(|n| n.kind == NodeKind::Terminal).map(|n| n.id.to_string()).collect();
            if !terms.is_empty() {
                let _ = writeln!(s, "  terminal nodes: {}", terms.join(", "));
            }
        }
        s
    }

    /// Graphviz DOT: one cluster per function, nodes `N<k>`; loop heads are
    /// double circles, error nodes red, terminal nodes boxes; call and
    /// return edges are dashed.
    pub fn to_dot(&self) -> String {
        let mut s =
            String::from("digraph cfa {\n  node [shape=circle, fontname=\"monospace\"];\n  edge [fontname=\"monospace\"];\n");
        for f in &self.functions {
            let _ = writeln!(s, "  subgraph cluster_{} {{\n    label=\"{}\";", f.id.0, dot_escape(&f.name));
            for n in self.function_nodes(f.id) {
                let mut attrs = Vec::new();
                if n.loop_head {
                    attrs.push("shape=doublecircle".to_string());
                }
                if n.kind == NodeKind::Terminal {
                    attrs.push("shape=box".to_string());
                }
                if n.error {
                    attrs.push("color=red, fontcolor=red, style=bold".to_string());
                }
                if attrs.is_empty() {
                    let _ = writeln!(s, "    {};", n.id);
                } else {
                    let _ = writeln!(s, "    {} [{}];", n.id, attrs.join(", "));
                }
            }
            s.push_str("  }\n");
        }
        for e in &self.edges {
            let style = match e.kind {
                EdgeKind::Call { .. } | EdgeKind::Return { .. } => ", style=dashed",
                _ => "",
            };
            let _ = writeln!(s, "  {} -> {} [label=\"{}\"{}];", e.source, e.target, dot_escape(&e.label), style);
        }
        s.push_str("}\n");
        s
    }

    /// The documented JSON view ([`JsonView`]) of the program.
    pub fn json_view(&self) -> JsonView {
        JsonView {
            main: self.main_function().name.clone(),
            functions: self
                .functions
                .iter()
                .map(|f| JsonFunction {
                    id: f.id.0,
                    name: f.name.clone(),
                    entry: f.entry.0,
                    exit: f.exit.0,
                    nodes: self.function_nodes(f.id).map(|n| n.id.0).collect(),
                })
                .collect(),
            nodes: self
                .nodes
                .iter()
                .map(|n| JsonNode {
                    id: n.id.0,
                    function: n.function.0,
                    kind: n.kind,
                    line: n.line,
                    loop_head: n.loop_head,
                    error: n.error,
                })
                .collect(),
            edges: self
                .edges
                .iter()
                .map(|e| JsonEdge {
                    id: e.id.0,
                    source: e.source.0,
                    target: e.target.0,
                    kind: edge_kind_name(&e.kind),
                    label: e.label.clone(),
                    line: e.line,
                })
                .collect(),
            variables: self
                .variables
                .iter()
                .map(|v| JsonVariable {
                    id: v.id.0,
                    name: v.name.clone(),
                    qualified: v.qualified.clone(),
                    ty: v.ctype.as_ref().map(|t| t.to_string()).unwrap_or_else(|| v.ty.c_name().to_string()),
                    scope: match v.scope {
                        VarScope::Global => "global",
                        VarScope::Local(_) => "local",
                        VarScope::Param(_) => "param",
                        VarScope::Return(_) => "return",
                        VarScope::Temp(_) => "temp",
                    },
                })
                .collect(),
        }
    }

    /// The JSON view as a `serde_json::Value`.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self.json_view()).unwrap_or(serde_json::Value::Null)
    }

    /// For every node (indexed by node id), its position in a reverse
    /// postorder of its function's CFA (calls stepped over via their return
    /// site), starting at 0 for the entry. Apart from back edges, a node comes
    /// after all its predecessors; the DFS takes each node's successors
    /// last-to-first, so the body of a loop (the `[cond]` edge, listed first)
    /// is numbered before the code after the loop, and a waitlist sorted by
    /// this index finishes a loop before leaving it. Nodes the DFS does not
    /// reach (only a never-returning function's exit) come last.
    pub fn reverse_postorder(&self) -> Vec<u32> {
        let mut rpo = vec![u32::MAX; self.nodes.len()];
        for f in &self.functions {
            let mut visited = vec![false; self.nodes.len()];
            let mut post: Vec<NodeId> = Vec::new();
            let mut stack: Vec<(NodeId, Vec<NodeId>, usize)> = Vec::new();
            visited[f.entry.0 as usize] = true;
            // Successors are visited last-to-first, so that the first
            // successor (the `[cond]` branch into a loop body) gets the
            // smaller reverse-postorder index.
            let succ_rev = |id: NodeId| {
                let mut v = intra_successors(self, id);
                v.reverse();
                v
            };
            stack.push((f.entry, succ_rev(f.entry), 0));
            while let Some(top) = stack.last_mut() {
                if top.2 < top.1.len() {
                    let y = top.1[top.2];
                    top.2 += 1;
                    if !visited[y.0 as usize] {
                        visited[y.0 as usize] = true;
                        stack.push((y, succ_rev(y), 0));
                    }
                } else {
                    post.push(top.0);
                    stack.pop();
                }
            }
            let reached = post.len() as u32;
            for (k, n) in post.iter().rev().enumerate() {
                rpo[n.0 as usize] = k as u32;
            }
            let mut next = reached;
            for n in self.function_nodes(f.id) {
                if rpo[n.id.0 as usize] == u32::MAX {
                    rpo[n.id.0 as usize] = next;
                    next += 1;
                }
            }
        }
        rpo
    }
}
