//! The path formula of an error path in static single assignment (SSA)
//! form — the precise half of the feasibility check of a counterexample,
//! built on the `smt` crate's encoding of mini-C expressions
//! ([`smt::encode_expr`], [`smt::encode_condition`]).
//!
//! For a path `e₁ … eₙ` through the CFA, every assignment creates a new
//! version of its variable (`v3@2`), every assumption becomes a conjunct,
//! and every nondeterministic value becomes an *input* constant `in_k`. The
//! formula is satisfiable iff (up to operations the theory
//! over-approximates, see [`smt::encode`]) some execution follows the path;
//! a model's `in_k` values are concrete nondet inputs that
//! [`concrete::execute`] replays.
//!
//! The theory is the one sound for the run's integer model
//! ([`smt::Theory::sound_for`]): bit-vectors under `c` (exact wrap-around,
//! bit operations), integers under `math`.
//!
//! The encoding mirrors the concrete interpreter exactly so inputs line up:
//! inputs are taken in the interpreter's order (a `Nondet` right-hand side;
//! a read of a variable that holds no value yet, in [`cfa::Expr::variables`]
//! order; at a branching location, the reads of *all* outgoing assumptions
//! in edge order; an unset return slot), calls push a frame of locals and
//! returns pop it.

use cfa::{EdgeId, EdgeKind, Expr, Program, Rhs, VarId, VarScope};
use minic::types::{IntModel, IntType};
use smt::{encode_cast, encode_condition, encode_expr, EncodeEnv, Encoding, Query, Term, Theory};
use std::collections::BTreeMap;

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

/// The SSA path formula of a path: the query, its SMT-LIB2 text and its
/// inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathFormula {
    /// The conjunction (with `want_model`).
    pub query: Query,
    /// `query` as a self-contained SMT-LIB2 script.
    pub smtlib: String,
    /// The inputs in interpreter order.
    pub inputs: Vec<PathInput>,
    /// Whether some operation was over-approximated by a fresh value (then
    /// `sat` needs confirmation by replay; `unsat` is exact either way).
    pub approximated: bool,
    /// The encoding used.
    pub encoding: Encoding,
}

/// The variable terms and fresh values of the encoding (an [`EncodeEnv`]).
struct Env<'p> {
    program: &'p Program,
    enc: Encoding,
    /// The SSA term currently holding each variable's value (absent: no
    /// value yet in the current activation).
    cur: BTreeMap<VarId, Term>,
    fresh: u32,
    approximated: bool,
    extra: Vec<Term>,
}

impl EncodeEnv for Env<'_> {
    fn var(&mut self, var: VarId, ty: IntType) -> Term {
        match self.cur.get(&var) {
            Some(t) => t.clone(),
            // Not reached: inputs are taken before every read.
            None => self.fresh(ty, "unset variable"),
        }
    }
    fn fresh(&mut self, ty: IntType, _why: &str) -> Term {
        self.approximated = true;
        self.fresh += 1;
        let t = Term::var(&format!("approx_{}", self.fresh), self.enc.sort(ty));
        self.extra.push(self.enc.range_constraint(&t, ty));
        t
    }
}

struct Encoder<'p> {
    env: Env<'p>,
    /// The caller activations' local variables, innermost last.
    frames: Vec<BTreeMap<VarId, Term>>,
    versions: BTreeMap<VarId, u32>,
    asserts: Vec<Term>,
    inputs: Vec<PathInput>,
    position: usize,
}

impl Encoder<'_> {
    fn program(&self) -> &Program {
        self.env.program
    }

    fn var_ty(&self, v: VarId) -> IntType {
        self.program().variables.get(v.0 as usize).map(|x| x.ty).unwrap_or(IntType::Int)
    }

    fn is_global(&self, v: VarId) -> bool {
        self.program().variables.get(v.0 as usize).is_some_and(|x| x.scope == VarScope::Global)
    }

    fn input(&mut self, ty: IntType) -> Term {
        let name = format!("in_{}", self.inputs.len());
        let t = Term::var(&name, self.env.enc.sort(ty));
        self.asserts.push(self.env.enc.range_constraint(&t, ty));
        self.inputs.push(PathInput { name, ty, position: self.position });
        t
    }

    /// `var := term` (a value of type `from`, converted to the variable's
    /// type): a new SSA version.
    fn set(&mut self, var: VarId, term: Term, from: IntType) {
        let ty = self.var_ty(var);
        let k = self.versions.entry(var).or_insert(0);
        *k += 1;
        let v = Term::var(&format!("v{}@{}", var.0, k), self.env.enc.sort(ty));
        let value = if from == ty { term } else { encode_cast(term, from, ty, self.env.enc) };
        self.asserts.push(Term::eq(v.clone(), value));
        self.env.cur.insert(var, v);
    }

    /// Every variable of `e` without a value takes an input (interpreter order).
    fn read_inputs(&mut self, e: &Expr) {
        for v in e.variables() {
            if !self.env.cur.contains_key(&v) {
                let ty = self.var_ty(v);
                let i = self.input(ty);
                self.set(v, i, ty);
            }
        }
    }

    fn value(&mut self, e: &Expr) -> Term {
        let enc = self.env.enc;
        encode_expr(e, enc, &mut self.env)
    }

    fn edge(&mut self, id: EdgeId) {
        let Some(edge) = self.program().edges.get(id.0 as usize).cloned() else { return };
        match &edge.kind {
            EdgeKind::Blank | EdgeKind::Terminate | EdgeKind::ReachError => {}
            // Memory is not encoded: the interpreter reads the address (and
            // the value) first, which may take inputs; no variable changes.
            EdgeKind::Store { addr, value, .. } => {
                self.read_inputs(addr);
                self.read_inputs(value);
            }
            EdgeKind::Free { addr } => self.read_inputs(addr),
            EdgeKind::Declare { var, init: None } => {
                self.env.cur.remove(var);
            }
            EdgeKind::Declare { var, init: Some(rhs) } | EdgeKind::Assign { var, rhs } => match rhs {
                Rhs::Expr(e) => {
                    self.read_inputs(e);
                    let t = self.value(e);
                    self.set(*var, t, e.ty());
                }
                Rhs::Nondet(ty) => {
                    let t = self.input(*ty);
                    self.set(*var, t, *ty);
                }
                // A read of memory or a new object: a fresh value, not an
                // input (a read of a cell never written takes an input in
                // the interpreter, which the formula does not know, so a
                // model needs confirmation by replay: `approximated`).
                Rhs::Load { addr: e, .. } | Rhs::Alloc { size: e, .. } => {
                    self.read_inputs(e);
                    let ty = rhs.havoc_type().unwrap_or(IntType::Int);
                    let t = self.env.fresh(ty, "memory");
                    self.set(*var, t, ty);
                }
            },
            EdgeKind::Assume { cond, positive } => {
                // The interpreter evaluates every outgoing assumption of the
                // location (in order) to find the enabled edge.
                let outgoing = self.program().nodes.get(edge.source.0 as usize).map(|n| n.outgoing.clone()).unwrap_or_default();
                for o in outgoing {
                    let c = match self.program().edges.get(o.0 as usize).map(|e| &e.kind) {
                        Some(EdgeKind::Assume { cond: c, .. }) => c.clone(),
                        _ => continue,
                    };
                    self.read_inputs(&c);
                }
                let enc = self.env.enc;
                let c = encode_condition(cond, enc, &mut self.env);
                self.asserts.push(if *positive { c } else { Term::not(c) });
            }
            EdgeKind::Call { callee, args, .. } => {
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    self.read_inputs(a);
                    vals.push((self.value(a), a.ty()));
                }
                let locals: BTreeMap<VarId, Term> =
                    self.env.cur.iter().filter(|(v, _)| !self.is_global(**v)).map(|(v, t)| (*v, t.clone())).collect();
                for v in locals.keys() {
                    self.env.cur.remove(v);
                }
                self.frames.push(locals);
                let params = self.program().functions.get(callee.0 as usize).map(|f| f.params.clone()).unwrap_or_default();
                for (p, (t, ty)) in params.into_iter().zip(vals) {
                    self.set(p, t, ty);
                }
            }
            EdgeKind::Return { callee, result, .. } => {
                let ret = self.program().functions.get(callee.0 as usize).and_then(|f| f.ret);
                let value = match (result, ret) {
                    (Some(_), Some(r)) => {
                        let ty = self.var_ty(r);
                        Some((
                            match self.env.cur.get(&r) {
                                Some(t) => t.clone(),
                                None => self.input(ty),
                            },
                            ty,
                        ))
                    }
                    _ => None,
                };
                let globals: BTreeMap<VarId, Term> =
                    self.env.cur.iter().filter(|(v, _)| self.is_global(**v)).map(|(v, t)| (*v, t.clone())).collect();
                self.env.cur = globals;
                if let Some(saved) = self.frames.pop() {
                    self.env.cur.extend(saved);
                }
                if let (Some(res), Some((t, ty))) = (result, value) {
                    self.set(*res, t, ty);
                }
            }
            EdgeKind::ReturnStatement { value } => {
                if let Some(e) = value {
                    self.read_inputs(e);
                    let t = self.value(e);
                    if let Some(r) = self.program().return_slot_at(edge.source) {
                        self.set(r, t, e.ty());
                    }
                }
            }
        }
    }
}

/// The SSA path formula of `path` (edges from `main`'s entry) under `model`,
/// in the theory sound for it.
pub fn path_formula(program: &Program, path: &[EdgeId], model: IntModel) -> PathFormula {
    let enc = Encoding::new(Theory::sound_for(model), model);
    let mut e = Encoder {
        env: Env { program, enc, cur: BTreeMap::new(), fresh: 0, approximated: false, extra: Vec::new() },
        frames: Vec::new(),
        versions: BTreeMap::new(),
        asserts: Vec::new(),
        inputs: Vec::new(),
        position: 0,
    };
    for (i, id) in path.iter().enumerate() {
        e.position = i;
        e.edge(*id);
    }
    let mut assertions: Vec<Term> = e.asserts;
    assertions.extend(e.env.extra);
    assertions.retain(|t| *t != Term::bool(true));
    let query = Query {
        assertions,
        want_model: true,
        comment: Some(format!(
            "SSA path formula of an error path: {} edges, {} inputs, integer model {}, theory {}",
            path.len(),
            e.inputs.len(),
            model.name(),
            enc.theory.name()
        )),
    };
    let smtlib = query.to_smtlib();
    PathFormula { query, smtlib, inputs: e.inputs, approximated: e.env.approximated, encoding: enc }
}

/// The value of input `input` in a model (`None` when the model leaves it
/// unconstrained), as an integer of its type.
pub fn input_value(input: &PathInput, model: &BTreeMap<String, smt::Value>) -> Option<i128> {
    match model.get(&input.name)? {
        smt::Value::Int(i) => Some(*i),
        smt::Value::Bv { value, width } => {
            Some(if input.ty.is_signed() { smt::term::bv_signed(*value, *width) } else { *value as i128 })
        }
        smt::Value::Bool(b) => Some(*b as i128),
    }
}
