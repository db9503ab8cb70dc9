//! The path formula of an error path in static single assignment (SSA)
//! form, as SMT-LIB2 text over integers — the precise half of the
//! feasibility check of a counterexample.
//!
//! For a path `e₁ … eₙ` through the CFA, every assignment creates a new
//! version of its variable (`x@3`), every assumption becomes a conjunct, and
//! every nondeterministic value becomes an *input* constant `in_k`. The
//! formula is satisfiable iff (up to the over-approximated operations
//! below) some execution follows the path; a model's `in_k` values are
//! concrete nondet inputs that [`concrete::execute`] replays.
//!
//! The encoding mirrors the concrete interpreter exactly so inputs line up:
//! inputs are taken in the interpreter's order (a `Nondet` right-hand side;
//! a read of a variable that holds no value yet, in [`cfa::Expr::variables`]
//! order; at a branching location, the reads of *all* outgoing assumptions
//! in edge order; an unset return slot), calls push a frame of locals and
//! returns pop it.
//!
//! Integer semantics follow [`cfa::Expr::eval`]: under `math` values are
//! unbounded (only `_Bool` normalizes), under `c` every result wraps into its
//! type (`min + (v − min) mod 2^bits`). Division and remainder truncate
//! toward zero and require a non-zero divisor (an execution that divides by
//! zero stops, so it cannot follow the path). Shifts by a constant are exact;
//! bitwise operations and shifts by a variable amount are *over-approximated*
//! by a fresh unconstrained value of the type: then `unsat` still proves the
//! path infeasible, while a `sat` answer must be confirmed by replay.

use cfa::{BinOp, EdgeId, EdgeKind, Expr, Program, Rhs, UnOp, VarId, VarScope};
use minic::types::{IntModel, IntType};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// One nondeterministic input of the path, in the order the concrete
/// interpreter takes inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathInput {
    /// The SMT constant holding it (`in_0`, `in_1`, …).
    pub name: String,
    /// The type whose value it is.
    pub ty: IntType,
    /// The path position (edge index) where it is taken.
    pub position: usize,
}

/// The SSA path formula of a path: the SMT-LIB2 script and its inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathFormula {
    /// A complete script: declarations, one `assert` per conjunct,
    /// `(check-sat)` and a `(get-value …)` of the inputs.
    pub smtlib: String,
    /// The inputs in interpreter order.
    pub inputs: Vec<PathInput>,
    /// Whether some operation was over-approximated (then `sat` needs
    /// confirmation by replay; `unsat` is exact either way).
    pub approximated: bool,
}

struct Encoder<'p> {
    program: &'p Program,
    model: IntModel,
    /// The SSA constant currently holding each variable's value (absent:
    /// no value yet in the current activation).
    cur: BTreeMap<VarId, String>,
    /// The caller activations' local variables, innermost last.
    frames: Vec<BTreeMap<VarId, String>>,
    versions: BTreeMap<VarId, u32>,
    decls: Vec<String>,
    asserts: Vec<String>,
    inputs: Vec<PathInput>,
    fresh: u32,
    approximated: bool,
    position: usize,
}

fn lit(v: i128) -> String {
    if v < 0 {
        format!("(- {})", v.unsigned_abs())
    } else {
        v.to_string()
    }
}

impl<'p> Encoder<'p> {
    fn var_ty(&self, v: VarId) -> IntType {
        self.program.variables.get(v.0 as usize).map(|x| x.ty).unwrap_or(IntType::Int)
    }

    fn is_global(&self, v: VarId) -> bool {
        self.program.variables.get(v.0 as usize).is_some_and(|x| x.scope == VarScope::Global)
    }

    /// A fresh constant constrained to the values of `ty` under the model.
    fn fresh_of(&mut self, prefix: &str, ty: IntType) -> String {
        let name = format!("{prefix}_{}", self.fresh);
        self.fresh += 1;
        self.decls.push(format!("(declare-const {name} Int)"));
        self.range(&name, ty);
        name
    }

    fn range(&mut self, name: &str, ty: IntType) {
        if self.model == IntModel::C || ty == IntType::Bool {
            self.asserts.push(format!("(and (<= {} {name}) (<= {name} {}))", lit(ty.min_value()), lit(ty.max_value())));
        }
    }

    fn input(&mut self, ty: IntType) -> String {
        let name = format!("in_{}", self.inputs.len());
        self.decls.push(format!("(declare-const {name} Int)"));
        self.range(&name, ty);
        self.inputs.push(PathInput { name: name.clone(), ty, position: self.position });
        name
    }

    /// `var := term` (converted to the variable's type): a new SSA version.
    fn set(&mut self, var: VarId, term: String) {
        let ty = self.var_ty(var);
        let k = self.versions.entry(var).or_insert(0);
        *k += 1;
        let name = format!("v{}@{}", var.0, k);
        self.decls.push(format!("(declare-const |{name}| Int)"));
        let conv = self.convert(term, ty);
        self.asserts.push(format!("(= |{name}| {conv})"));
        self.cur.insert(var, format!("|{name}|"));
    }

    /// Every variable of `e` without a value takes an input (interpreter order).
    fn read_inputs(&mut self, e: &Expr) {
        for v in e.variables() {
            if !self.cur.contains_key(&v) {
                let ty = self.var_ty(v);
                let i = self.input(ty);
                self.set(v, i);
            }
        }
    }

    fn convert(&self, t: String, ty: IntType) -> String {
        match self.model {
            _ if ty == IntType::Bool => format!("(ite (= {t} 0) 0 1)"),
            IntModel::Math => t,
            IntModel::C => {
                let min = ty.min_value();
                let m = 1i128 << ty.bits();
                format!("(+ {} (mod (- {t} {}) {m}))", lit(min), lit(min))
            }
        }
    }

    fn expr(&mut self, e: &Expr) -> String {
        match e {
            Expr::Const { value, .. } => lit(*value),
            Expr::Var { var, .. } => self.cur.get(var).cloned().unwrap_or_else(|| "0".into()),
            Expr::Cast { ty, arg } => {
                let a = self.expr(arg);
                self.convert(a, *ty)
            }
            Expr::Unary { op, ty, arg } => {
                let a = self.expr(arg);
                match op {
                    UnOp::Neg => self.convert(format!("(- {a})"), *ty),
                    UnOp::BitNot => self.convert(format!("(- (- {a}) 1)"), *ty),
                    UnOp::LogNot => format!("(ite (= {a} 0) 1 0)"),
                }
            }
            Expr::Binary { op, ty, lhs, rhs } => {
                let a = self.expr(lhs);
                let b = self.expr(rhs);
                let cmp = |o: &str| format!("(ite ({o} {a} {b}) 1 0)");
                let raw = match op {
                    BinOp::Lt => return cmp("<"),
                    BinOp::Le => return cmp("<="),
                    BinOp::Gt => return cmp(">"),
                    BinOp::Ge => return cmp(">="),
                    BinOp::Eq => return cmp("="),
                    BinOp::Ne => return format!("(ite (= {a} {b}) 0 1)"),
                    BinOp::Add => format!("(+ {a} {b})"),
                    BinOp::Sub => format!("(- {a} {b})"),
                    BinOp::Mul => format!("(* {a} {b})"),
                    BinOp::Div | BinOp::Rem => {
                        self.asserts.push(format!("(not (= {b} 0))"));
                        let q = format!(
                            "(ite (>= {a} 0) (ite (> {b} 0) (div {a} {b}) (- (div {a} (- {b})))) (ite (> {b} 0) (- (div (- {a}) {b})) (div (- {a}) (- {b}))))"
                        );
                        if *op == BinOp::Div {
                            q
                        } else {
                            format!("(- {a} (* {b} {q}))")
                        }
                    }
                    BinOp::Shl | BinOp::Shr => {
                        let limit: i128 = if self.model == IntModel::C { ty.bits() as i128 } else { 127 };
                        match rhs.as_ref() {
                            Expr::Const { value: k, .. } if (0..limit).contains(k) => {
                                let p = 1i128 << *k;
                                if *op == BinOp::Shl {
                                    format!("(* {a} {p})")
                                } else {
                                    format!("(div {a} {p})")
                                }
                            }
                            Expr::Const { .. } => {
                                // A bad shift stops every execution here.
                                self.asserts.push("false".into());
                                "0".into()
                            }
                            _ => {
                                self.approximated = true;
                                self.asserts.push(format!("(and (<= 0 {b}) (< {b} {limit}))"));
                                return self.fresh_of("approx", *ty);
                            }
                        }
                    }
                    BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor => {
                        self.approximated = true;
                        return self.fresh_of("approx", *ty);
                    }
                };
                self.convert(raw, *ty)
            }
        }
    }

    fn truth(&mut self, cond: &Expr, positive: bool) {
        let t = self.expr(cond);
        if positive {
            self.asserts.push(format!("(not (= {t} 0))"));
        } else {
            self.asserts.push(format!("(= {t} 0)"));
        }
    }

    fn edge(&mut self, id: EdgeId) {
        let Some(edge) = self.program.edges.get(id.0 as usize) else { return };
        match &edge.kind {
            EdgeKind::Blank | EdgeKind::Terminate | EdgeKind::ReachError => {}
            EdgeKind::Declare { var, init: None } => {
                self.cur.remove(var);
            }
            EdgeKind::Declare { var, init: Some(rhs) } | EdgeKind::Assign { var, rhs } => {
                let t = match rhs {
                    Rhs::Expr(e) => {
                        self.read_inputs(e);
                        self.expr(e)
                    }
                    Rhs::Nondet(ty) => self.input(*ty),
                };
                self.set(*var, t);
            }
            EdgeKind::Assume { cond, positive } => {
                // The interpreter evaluates every outgoing assumption of the
                // location (in order) to find the enabled edge.
                let outgoing = self.program.nodes.get(edge.source.0 as usize).map(|n| n.outgoing.clone()).unwrap_or_default();
                for o in outgoing {
                    if let Some(EdgeKind::Assume { cond: c, .. }) = self.program.edges.get(o.0 as usize).map(|e| &e.kind) {
                        self.read_inputs(c);
                    }
                }
                self.truth(cond, *positive);
            }
            EdgeKind::Call { callee, args, .. } => {
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    self.read_inputs(a);
                    vals.push(self.expr(a));
                }
                let locals: BTreeMap<VarId, String> =
                    self.cur.iter().filter(|(v, _)| !self.is_global(**v)).map(|(v, t)| (*v, t.clone())).collect();
                for v in locals.keys() {
                    self.cur.remove(v);
                }
                self.frames.push(locals);
                let params = self.program.functions.get(callee.0 as usize).map(|f| f.params.clone()).unwrap_or_default();
                for (p, t) in params.into_iter().zip(vals) {
                    self.set(p, t);
                }
            }
            EdgeKind::Return { callee, result, .. } => {
                let ret = self.program.functions.get(callee.0 as usize).and_then(|f| f.ret);
                let value = match (result, ret) {
                    (Some(_), Some(r)) => Some(match self.cur.get(&r) {
                        Some(t) => t.clone(),
                        None => self.input(self.var_ty(r)),
                    }),
                    _ => None,
                };
                self.cur.retain(|v, _| self.program.variables.get(v.0 as usize).is_some_and(|x| x.scope == VarScope::Global));
                if let Some(saved) = self.frames.pop() {
                    self.cur.extend(saved);
                }
                if let (Some(res), Some(t)) = (result, value) {
                    self.set(*res, t);
                }
            }
            EdgeKind::ReturnStatement { value } => {
                if let Some(e) = value {
                    self.read_inputs(e);
                    let t = self.expr(e);
                    let f = self.program.nodes.get(edge.source.0 as usize).map(|n| n.function);
                    if let Some(r) = f.and_then(|f| self.program.functions.get(f.0 as usize)).and_then(|f| f.ret) {
                        self.set(r, t);
                    }
                }
            }
        }
    }
}

/// The SSA path formula of `path` (edges from `main`'s entry) under `model`.
pub fn path_formula(program: &Program, path: &[EdgeId], model: IntModel) -> PathFormula {
    let mut enc = Encoder {
        program,
        model,
        cur: BTreeMap::new(),
        frames: Vec::new(),
        versions: BTreeMap::new(),
        decls: Vec::new(),
        asserts: Vec::new(),
        inputs: Vec::new(),
        fresh: 0,
        approximated: false,
        position: 0,
    };
    for (i, e) in path.iter().enumerate() {
        enc.position = i;
        enc.edge(*e);
    }
    let mut s = String::new();
    let _ = writeln!(s, "; SSA path formula of an error path ({} edges, integer model {})", path.len(), model.name());
    s.push_str("(set-logic ALL)\n");
    for d in &enc.decls {
        s.push_str(d);
        s.push('\n');
    }
    for a in &enc.asserts {
        let _ = writeln!(s, "(assert {a})");
    }
    s.push_str("(check-sat)\n");
    if !enc.inputs.is_empty() {
        let names: Vec<&str> = enc.inputs.iter().map(|i| i.name.as_str()).collect();
        let _ = writeln!(s, "(get-value ({}))", names.join(" "));
    }
    PathFormula { smtlib: s, inputs: enc.inputs, approximated: enc.approximated }
}
