//! Loop invariants: a mini-C boolean expression at the loop head, checked
//! for the three conditions of an inductive invariant that proves the
//! program safe:
//!
//! * **initiation** — every path from `main`'s entry to the loop head ends
//!   in a state that satisfies the invariant;
//! * **consecution** — from any state at the loop head that satisfies it,
//!   one more iteration (every path back to the loop head) ends in a state
//!   that satisfies it again;
//! * **sufficiency** — from no state at the loop head that satisfies it does
//!   a path reach the error location (nor does one before the loop).
//!
//! Each condition is a set of loop-free path segments between cut points
//! (the entry, the loop head, the error location), each segment one SMT
//! query in SSA form ([`smt::encode_condition`], [`smt::encode_expr`]
//! under the theory sound for the integer model). A query is
//! *unsatisfiable* when the condition holds on that segment; a model is a
//! counterexample state, shown to the student.
//!
//! The check never calls a solver itself: [`InvariantCheck::scripts`] gives
//! self-contained SMT-LIB2 scripts, the caller answers them (natively the
//! system z3, in the page `z3-solver`, asynchronously), and
//! [`InvariantCheck::grade`] reads the answers. An `unknown` answer never
//! makes an invariant right.
//!
//! The expression is read by the mini-C front end itself (in a small
//! program that declares the variables with their types), so it means
//! exactly what it would mean in the program: C's types, promotions and
//! short-circuit operators.

use cfa::{EdgeKind, Expr, NodeId, Program, Rhs, VarId};
use minic::{IntModel, IntType};
use smt::{encode_condition, encode_expr, parse_response, EncodeEnv, Encoding, Query, Status, Term, Theory, Value};
use std::collections::BTreeMap;

/// At most this many path segments are checked (one query each).
pub const MAX_SEGMENTS: usize = 128;
/// Longest invariant accepted, in bytes.
pub const MAX_LEN: usize = 2000;

/// Which condition a segment's query checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Condition {
    /// Entry → loop head ends in the invariant.
    Initiation,
    /// Loop head → loop head preserves the invariant.
    Consecution,
    /// Loop head → error is impossible under the invariant.
    Sufficiency,
    /// Entry → error without passing the loop head is impossible.
    BeforeLoop,
}

impl Condition {
    fn name(self) -> &'static str {
        match self {
            Condition::Initiation => "initiation",
            Condition::Consecution => "consecution",
            Condition::Sufficiency => "sufficiency",
            Condition::BeforeLoop => "safety before the loop",
        }
    }
}

/// One query: a path segment and what it checks.
#[derive(Clone, Debug)]
struct Segment {
    condition: Condition,
    /// Source lines of the segment's edges, for explanations.
    lines: Vec<u32>,
    /// The SMT-LIB2 script.
    script: String,
    /// Variables whose model values make the counterexample: (display
    /// name, term at the start, term at the end, type).
    shown: Vec<(String, Term, Term, IntType)>,
}

/// The planned check of one invariant.
#[derive(Clone, Debug)]
pub struct InvariantCheck {
    /// The loop head.
    pub location: NodeId,
    /// The invariant as written.
    pub expression: String,
    segments: Vec<Segment>,
}

/// The invariant as paths of assumptions over the *original* program's
/// variables: it holds iff some path's assumptions all hold.
struct Parsed {
    paths: Vec<Vec<(Expr, bool)>>,
    /// Synthetic variable → original variable.
    map: BTreeMap<VarId, VarId>,
}

/// Reads the invariant with the mini-C front end: a program that declares
/// every variable of `program` (same names and types) and tests the
/// expression once.
fn parse_invariant(program: &Program, expression: &str) -> Result<Parsed, String> {
    if expression.len() > MAX_LEN {
        return Err(format!("longer than {MAX_LEN} characters"));
    }
    if expression.trim().is_empty() {
        return Err("the invariant is empty".into());
    }
    for bad in [";", "{", "}", "//", "/*", "#", "\n", "\r"] {
        if expression.contains(bad) {
            return Err(format!("`{bad}` cannot appear in an expression"));
        }
    }
    let main = program.main_function();
    let mut text = String::from("extern void reach_error(void);\n");
    let mut globals = Vec::new();
    let mut locals = Vec::new();
    for v in &program.variables {
        if v.is_global() {
            globals.push(v);
        } else if main.locals.contains(&v.id) || main.params.contains(&v.id) {
            locals.push(v);
        }
    }
    for v in &globals {
        text.push_str(&format!("{} {};\n", v.ty.c_name(), v.name));
    }
    text.push_str("int main(void) {\n");
    let mut seen = std::collections::BTreeSet::new();
    for v in &locals {
        if globals.iter().any(|g| g.name == v.name) || !seen.insert(v.name.clone()) {
            continue;
        }
        text.push_str(&format!("  {} {};\n", v.ty.c_name(), v.name));
    }
    let line = text.lines().count() as u32 + 1;
    text.push_str(&format!("  if ({expression}) {{ reach_error(); }}\n  return 0;\n}}\n"));
    let synthetic = cfa::from_source(&text).map_err(|diags| match diags.first() {
        Some(d) if d.span.line == line && d.span.col > 6 => format!("column {}: {}", d.span.col - 6, d.message),
        Some(d) => d.message.clone(),
        None => "the expression does not parse".into(),
    })?;
    // Synthetic variables → the program's, by name (locals of main first).
    let mut map = BTreeMap::new();
    for sv in &synthetic.variables {
        let original =
            locals.iter().find(|v| v.name == sv.name && !sv.is_global()).or_else(|| globals.iter().find(|v| v.name == sv.name));
        if let Some(o) = original {
            map.insert(sv.id, o.id);
        }
    }
    // The paths from the synthetic entry to its error node: declarations,
    // then only assumptions and blank edges.
    let error = synthetic.error_nodes().next().map(|n| n.id).ok_or("the expression does not parse as a condition")?;
    let mut paths = Vec::new();
    type Pending = (NodeId, Vec<(Expr, bool)>, usize);
    let mut stack: Vec<Pending> = vec![(synthetic.main_function().entry, Vec::new(), 0)];
    let mut expansions = 0usize;
    while let Some((node, conds, depth)) = stack.pop() {
        expansions += 1;
        if expansions > 20_000 {
            return Err("the expression has too many cases".into());
        }
        if node == error {
            paths.push(conds);
            if paths.len() > 64 {
                return Err("the expression has too many cases (more than 64 ways to be true)".into());
            }
            continue;
        }
        if depth > 400 {
            return Err("the expression is too deep".into());
        }
        for e in synthetic.successors(node) {
            let mut c = conds.clone();
            match &e.kind {
                EdgeKind::Declare { init: None, .. } | EdgeKind::Blank => {}
                EdgeKind::Declare { init: Some(Rhs::Expr(Expr::Const { .. })), .. } => {}
                EdgeKind::Assume { cond, positive } => c.push((cond.clone(), *positive)),
                EdgeKind::ReachError => {}
                EdgeKind::ReturnStatement { .. } => continue,
                _ => return Err("the invariant must be a side-effect-free expression over the program's variables".into()),
            }
            stack.push((e.target, c, depth + 1));
        }
    }
    Ok(Parsed { paths, map })
}

/// SSA state along a segment: the current term of each program variable.
struct Ssa {
    enc: Encoding,
    cur: BTreeMap<VarId, Term>,
    version: u32,
    /// Synthetic → original variable map while encoding the invariant.
    map: Option<BTreeMap<VarId, VarId>>,
}

impl Ssa {
    fn fresh_var(&mut self, var: VarId, ty: IntType) -> Term {
        self.version += 1;
        Term::var(&format!("v{}_{}", var.0, self.version), self.enc.sort(ty))
    }
}

impl EncodeEnv for Ssa {
    fn var(&mut self, var: VarId, ty: IntType) -> Term {
        let var = self.map.as_ref().and_then(|m| m.get(&var).copied()).unwrap_or(var);
        if let Some(t) = self.cur.get(&var) {
            return t.clone();
        }
        let t = self.fresh_var(var, ty);
        self.cur.insert(var, t.clone());
        t
    }
    fn fresh(&mut self, ty: IntType, _why: &str) -> Term {
        self.version += 1;
        Term::var(&format!("fresh_{}", self.version), self.enc.sort(ty))
    }
}

fn invariant_term(inv: &Parsed, ssa: &mut Ssa) -> Term {
    ssa.map = Some(inv.map.clone());
    let enc = ssa.enc;
    let disjuncts: Vec<Term> = inv
        .paths
        .iter()
        .map(|p| {
            Term::and(
                p.iter()
                    .map(|(e, pos)| {
                        let c = encode_condition(e, enc, ssa);
                        if *pos {
                            c
                        } else {
                            Term::not(c)
                        }
                    })
                    .collect(),
            )
        })
        .collect();
    ssa.map = None;
    Term::or(disjuncts)
}

/// The loop-free paths from `start` to the loop head or the error
/// location, as edge lists with where they end.
fn segments(program: &Program, start: NodeId, head: NodeId) -> Result<Vec<(Vec<cfa::EdgeId>, bool)>, String> {
    let mut out = Vec::new();
    let mut stack: Vec<(NodeId, Vec<cfa::EdgeId>)> = vec![(start, Vec::new())];
    let mut expansions = 0usize;
    while let Some((node, path)) = stack.pop() {
        expansions += 1;
        if expansions > 20_000 {
            return Err("the program has too many paths for the invariant check".into());
        }
        for e in program.successors(node) {
            let mut p = path.clone();
            p.push(e.id);
            let target = program.node(e.target);
            if e.target == head {
                out.push((p, false));
            } else if target.error {
                out.push((p, true));
            } else if p.iter().any(|x| program.edge(*x).source == e.target) || p.len() > 2000 {
                return Err(format!("the program has a loop besides the one at N{} (line {})", head.0, program.node(head).line));
            } else {
                stack.push((e.target, p));
            }
            if out.len() > MAX_SEGMENTS {
                return Err(format!(
                    "the program has more than {MAX_SEGMENTS} paths between the entry, the loop head and the error"
                ));
            }
        }
    }
    Ok(out)
}

/// Encodes the edges of a segment; returns the path's conjuncts.
fn encode_path(program: &Program, path: &[cfa::EdgeId], ssa: &mut Ssa) -> Result<Vec<Term>, String> {
    let enc = ssa.enc;
    let mut out = Vec::new();
    for id in path {
        let e = program.edge(*id);
        match &e.kind {
            // Memory is not a variable: a store or `free` changes none.
            EdgeKind::Blank
            | EdgeKind::ReachError
            | EdgeKind::Terminate
            | EdgeKind::ReturnStatement { .. }
            | EdgeKind::Store { .. }
            | EdgeKind::Free { .. } => {}
            EdgeKind::Declare { var, init } => {
                let t = match init {
                    Some(Rhs::Expr(x)) => encode_expr(x, enc, ssa),
                    // A read of memory or a new object: any value.
                    Some(Rhs::Nondet(_) | Rhs::Load { .. } | Rhs::Alloc { .. }) | None => {
                        ssa.fresh_var(*var, program.variable(*var).ty)
                    }
                };
                ssa.cur.insert(*var, t);
            }
            EdgeKind::Assign { var, rhs } => {
                let t = match rhs {
                    Rhs::Expr(x) => encode_expr(x, enc, ssa),
                    Rhs::Nondet(_) | Rhs::Load { .. } | Rhs::Alloc { .. } => ssa.fresh_var(*var, program.variable(*var).ty),
                };
                ssa.cur.insert(*var, t);
            }
            EdgeKind::Assume { cond, positive } => {
                let c = encode_condition(cond, enc, ssa);
                out.push(if *positive { c } else { Term::not(c) });
            }
            EdgeKind::Call { .. } | EdgeKind::Return { .. } => {
                return Err("invariant questions need a program without function calls".into());
            }
        }
    }
    Ok(out)
}

impl InvariantCheck {
    /// Reads `expression` over the program's variables at loop head `node`
    /// and builds one query per path segment. Errors are sentences for the
    /// student (with a column for syntax errors).
    pub fn new(
        program: &Program,
        _source: &str,
        node: NodeId,
        expression: &str,
        model: IntModel,
    ) -> Result<InvariantCheck, String> {
        let inv = parse_invariant(program, expression)?;
        let enc = Encoding::new(Theory::sound_for(model), model);
        let names = crate::state::display_names(program);
        let main = program.main_function();
        let shown_vars: Vec<(usize, VarId, IntType)> = program
            .variables
            .iter()
            .enumerate()
            .filter(|(_, v)| v.is_global() || main.locals.contains(&v.id) || main.params.contains(&v.id))
            .map(|(i, v)| (i, v.id, v.ty))
            .collect();
        let mut out = Vec::new();
        for (start, from_head) in [(main.entry, false), (node, true)] {
            for (path, to_error) in segments(program, start, node)? {
                let mut ssa = Ssa { enc, cur: BTreeMap::new(), version: 0, map: None };
                // Start state: every variable a fresh unknown.
                for &(_, v, ty) in &shown_vars {
                    let t = ssa.fresh_var(v, ty);
                    ssa.cur.insert(v, t);
                }
                let start_terms = ssa.cur.clone();
                let mut assertions = Vec::new();
                if from_head {
                    assertions.push(invariant_term(&inv, &mut ssa));
                }
                assertions.extend(encode_path(program, &path, &mut ssa)?);
                let condition = match (from_head, to_error) {
                    (false, false) => Condition::Initiation,
                    (true, false) => Condition::Consecution,
                    (true, true) => Condition::Sufficiency,
                    (false, true) => Condition::BeforeLoop,
                };
                if !to_error {
                    assertions.push(Term::not(invariant_term(&inv, &mut ssa)));
                }
                let shown = shown_vars
                    .iter()
                    .filter_map(|&(i, v, ty)| {
                        let s = start_terms.get(&v)?.clone();
                        let e = ssa.cur.get(&v)?.clone();
                        Some((names.get(i).cloned().unwrap_or_default(), s, e, ty))
                    })
                    .collect();
                let lines: Vec<u32> = path.iter().map(|e| program.edge(*e).line).collect();
                let mut q = Query::new(assertions);
                q.want_model = true;
                q.comment = Some(format!("invariant check: {} along lines {:?}", condition.name(), lines));
                out.push(Segment { condition, lines, script: q.to_smtlib(), shown });
            }
        }
        Ok(InvariantCheck { location: node, expression: expression.to_string(), segments: out })
    }

    /// The SMT-LIB2 scripts to answer, in order (each asks for a model).
    pub fn scripts(&self) -> Vec<String> {
        self.segments.iter().map(|s| s.script.clone()).collect()
    }

    /// Whether the invariant is inductive and sufficient, the explanation,
    /// and details (one line per condition, counterexample states), from the
    /// solver outputs for [`Self::scripts`] (missing ones count as `unknown`).
    pub fn grade(&self, answers: &[String]) -> (bool, String, Vec<String>) {
        let mut failures: BTreeMap<&'static str, String> = BTreeMap::new();
        let mut undecided: BTreeMap<&'static str, usize> = BTreeMap::new();
        for (i, seg) in self.segments.iter().enumerate() {
            let r = parse_response(answers.get(i).map(String::as_str).unwrap_or(""));
            match r.status() {
                Status::Unsat => {}
                Status::Unknown => *undecided.entry(seg.condition.name()).or_default() += 1,
                Status::Sat => {
                    if failures.contains_key(seg.condition.name()) {
                        continue;
                    }
                    let value = |t: &Term, ty: IntType| -> String {
                        match t.eval(&|n| r.model.get(n).copied()) {
                            Some(Value::Int(i)) => i.to_string(),
                            Some(Value::Bv { value, width }) if ty.is_signed() => smt::term::bv_signed(value, width).to_string(),
                            Some(Value::Bv { value, .. }) => value.to_string(),
                            Some(Value::Bool(b)) => b.to_string(),
                            None => "any value".into(),
                        }
                    };
                    let state = |end: bool| -> String {
                        let parts: Vec<String> = seg
                            .shown
                            .iter()
                            .map(|(n, s, e, ty)| format!("{n} = {}", value(if end { e } else { s }, *ty)))
                            .collect();
                        if parts.is_empty() {
                            "(no variables)".into()
                        } else {
                            parts.join(", ")
                        }
                    };
                    let lines = seg.lines.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
                    let text = match seg.condition {
                        Condition::Initiation => format!(
                            "initiation fails: the program reaches the loop head (along lines {lines}) in the state {{{}}}, which does not satisfy the invariant",
                            state(true)
                        ),
                        Condition::Consecution => format!(
                            "consecution fails: the state {{{}}} at the loop head satisfies the invariant, but one iteration (lines {lines}) leads to {{{}}}, which does not",
                            state(false),
                            state(true)
                        ),
                        Condition::Sufficiency => format!(
                            "sufficiency fails: the state {{{}}} at the loop head satisfies the invariant, yet the path along lines {lines} reaches the error location",
                            state(false)
                        ),
                        Condition::BeforeLoop => format!(
                            "the error location is reachable before the loop (lines {lines}) from {{{}}}: no invariant can help",
                            state(false)
                        ),
                    };
                    failures.insert(seg.condition.name(), text);
                }
            }
        }
        let mut details = Vec::new();
        for c in [Condition::Initiation, Condition::Consecution, Condition::Sufficiency] {
            let n = c.name();
            let line = match (failures.get(n), undecided.get(n)) {
                (Some(f), _) => f.clone(),
                (None, Some(k)) => format!("{n}: the solver could not decide {k} path(s) (unknown)"),
                (None, None) => format!("{n} holds"),
            };
            details.push(line);
        }
        if let Some(f) = failures.get(Condition::BeforeLoop.name()) {
            details.push(f.clone());
        }
        let ok = failures.is_empty() && undecided.is_empty();
        let explanation = if ok {
            format!("`{}` is an inductive invariant at N{} that proves the program: initiation, consecution and sufficiency hold ({} path segments checked by the SMT solver).", self.expression, self.location.0, self.segments.len())
        } else if failures.is_empty() {
            format!("`{}` could not be checked completely: the solver answered unknown.", self.expression)
        } else {
            format!(
                "`{}` is not an inductive invariant that proves the program: {}.",
                self.expression,
                failures.values().cloned().collect::<Vec<_>>().join("; ")
            )
        };
        (ok, explanation, details)
    }
}
