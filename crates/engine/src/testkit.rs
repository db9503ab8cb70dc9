//! Building small CFAs by hand, for tests and examples that must not depend
//! on the parser (e.g. a diamond, a loop).
//!
//! ```
//! use engine::testkit::{CfaBuilder, var, int};
//! use cfa::BinOp;
//! let mut b = CfaBuilder::new();
//! let x = b.variable("x");
//! let (n0, n1) = (b.entry(), b.node());
//! b.assign(n0, n1, x, int(1));
//! let program = b.build();
//! assert_eq!(program.edges.len(), 1);
//! ```

use cfa::{
    BinOp, Edge, EdgeId, EdgeKind, Expr, FuncId, Function, Node, NodeId, NodeKind, Program, Rhs, VarId, VarScope, Variable,
};
use minic::{IntType, Span};
use std::sync::Arc;

/// Builds a one-function (`main`) program node by node.
pub struct CfaBuilder {
    program: Program,
}

impl Default for CfaBuilder {
    fn default() -> Self {
        Self::new()
    }
}

/// `x` (an `int` variable) as an expression.
pub fn var(v: VarId) -> Expr {
    Expr::Var { var: v, ty: IntType::Int }
}

/// An `int` constant.
pub fn int(c: i128) -> Expr {
    Expr::int(c)
}

/// `a op b` in `int`.
pub fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    Expr::Binary { op, ty: IntType::Int, lhs: Box::new(a), rhs: Box::new(b) }
}

impl CfaBuilder {
    /// A program with `main` whose entry is node N0 (exit: N1).
    pub fn new() -> Self {
        let mut b = CfaBuilder {
            program: Program {
                functions: vec![Function {
                    id: FuncId(0),
                    name: "main".into(),
                    entry: NodeId(0),
                    exit: NodeId(1),
                    params: vec![],
                    ret: None,
                    locals: vec![],
                    span: Span::default(),
                }],
                nodes: vec![],
                edges: vec![],
                variables: vec![],
                main: FuncId(0),
                warnings: vec![],
            },
        };
        b.push_node(NodeKind::Entry, false);
        b.push_node(NodeKind::Exit, false);
        b
    }

    fn push_node(&mut self, kind: NodeKind, error: bool) -> NodeId {
        let id = NodeId(self.program.nodes.len() as u32);
        self.program.nodes.push(Node {
            id,
            function: FuncId(0),
            kind,
            loop_head: false,
            error,
            line: id.0 + 1,
            outgoing: vec![],
            incoming: vec![],
        });
        id
    }

    /// `main`'s entry node (N0).
    pub fn entry(&self) -> NodeId {
        NodeId(0)
    }

    /// `main`'s exit node (N1).
    pub fn exit(&self) -> NodeId {
        NodeId(1)
    }

    /// A fresh ordinary node.
    pub fn node(&mut self) -> NodeId {
        self.push_node(NodeKind::Normal, false)
    }

    /// A fresh error location.
    pub fn error_node(&mut self) -> NodeId {
        self.push_node(NodeKind::Normal, true)
    }

    /// Marks a node as a loop head.
    pub fn loop_head(&mut self, n: NodeId) {
        self.program.nodes[n.0 as usize].loop_head = true;
    }

    /// A local `int` variable of `main`.
    pub fn variable(&mut self, name: &str) -> VarId {
        self.typed_variable(name, IntType::Int)
    }

    /// A local variable of `main` of type `ty`.
    pub fn typed_variable(&mut self, name: &str, ty: IntType) -> VarId {
        let id = VarId(self.program.variables.len() as u32);
        self.program.variables.push(Variable {
            id,
            name: name.into(),
            qualified: format!("main::{name}"),
            ty,
            scope: VarScope::Local(FuncId(0)),
            span: None,
            ctype: None,
            in_memory: false,
        });
        self.program.functions[0].locals.push(id);
        id
    }

    /// An edge with an explicit kind and label.
    pub fn edge(&mut self, from: NodeId, to: NodeId, kind: EdgeKind, label: &str) -> EdgeId {
        let id = EdgeId(self.program.edges.len() as u32);
        let line = self.program.nodes[from.0 as usize].line;
        self.program.edges.push(Edge { id, source: from, target: to, kind, line, span: Span::default(), label: label.into() });
        self.program.nodes[from.0 as usize].outgoing.push(id);
        self.program.nodes[to.0 as usize].incoming.push(id);
        id
    }

    /// A blank edge.
    pub fn blank(&mut self, from: NodeId, to: NodeId) -> EdgeId {
        self.edge(from, to, EdgeKind::Blank, "")
    }

    /// `x = e;`
    pub fn assign(&mut self, from: NodeId, to: NodeId, x: VarId, e: Expr) -> EdgeId {
        let label = format!("{} = …;", self.program.variables[x.0 as usize].name);
        self.edge(from, to, EdgeKind::Assign { var: x, rhs: Rhs::Expr(e) }, &label)
    }

    /// `x = __VERIFIER_nondet_int();`
    pub fn nondet(&mut self, from: NodeId, to: NodeId, x: VarId) -> EdgeId {
        let label = format!("{} = __VERIFIER_nondet_int();", self.program.variables[x.0 as usize].name);
        self.edge(from, to, EdgeKind::Assign { var: x, rhs: Rhs::Nondet(IntType::Int) }, &label)
    }

    /// `[cond]` (or `[!(cond)]` when `positive` is false).
    pub fn assume(&mut self, from: NodeId, to: NodeId, cond: Expr, positive: bool) -> EdgeId {
        let label = if positive { "[…]" } else { "[!(…)]" };
        self.edge(from, to, EdgeKind::Assume { cond, positive }, label)
    }

    /// Both branches of `if (cond)`: `[cond]` to `then`, `[!(cond)]` to `els`.
    pub fn branch(&mut self, from: NodeId, cond: Expr, then: NodeId, els: NodeId) {
        self.assume(from, then, cond.clone(), true);
        self.assume(from, els, cond, false);
    }

    /// The program (shared, as the engine wants it).
    pub fn build(self) -> Arc<Program> {
        Arc::new(self.program)
    }
}
