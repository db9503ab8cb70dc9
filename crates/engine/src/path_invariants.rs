//! Path invariants for predicate refinement (Beyer, Henzinger, Majumdar,
//! Rybalchenko, "Path Invariants", PLDI 2007).
//!
//! Interpolants of an infeasible error path that unrolls a loop describe
//! the unrolled iterations one by one (`i == 0`, `i == 1`, …), so CEGAR
//! refines once per iteration. The *path program* — the CFA restricted to
//! the nodes and edges of the error path, so it still contains the loops
//! the path unrolls — has invariants that hold for every number of
//! iterations (`a + b == 3*i`). Here the path program is the union of the
//! error paths CEGAR refined so far that unroll a loop (the same loop head
//! refined again brings its other branches in), extended by the whole body
//! of each loop they unroll (a branch no error path took still belongs to
//! the loop's invariant). This module computes its invariants with
//! abstract interpretation, by
//!
//! * **affine equalities** ([`domains::affine`], Karr): `res + cnt == a + b`;
//! * **octagons** ([`domains::Octagon`], with widening): `x <= y + c`;
//!
//! over *mathematical* integers (no wrap-around), and returns the atoms of
//! the invariant at each loop head of the path program as predicates there.
//! They are only a precision: the abstraction computation still checks
//! every predicate under the run's integer model with the solver, so a
//! useless predicate, or one that is wrong under C's wrap-around, costs
//! time but cannot make the analysis unsound.
//!
//! Option `cpa.predicate.refinement.pathInvariants = NONE | AFFINE |
//! OCTAGON | BOTH`.

use crate::cpas::predicate::pathformula::var_name;
use cfa::{BinOp, EdgeId, EdgeKind, Expr, FuncId, NodeId, Program, Rhs, UnOp, VarId};
use domains::affine::Affine;
use domains::{Cmp, LinExpr, Octagon};
use smt::{Encoding, Term};
use std::collections::{BTreeMap, BTreeSet};

/// Which invariant generators run on the path program
/// (`cpa.predicate.refinement.pathInvariants`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathInvariants {
    /// No path invariants: interpolants only.
    None,
    /// Affine equalities (Karr).
    Affine,
    /// Octagons with widening.
    Octagon,
    /// Both generators.
    Both,
}

impl PathInvariants {
    /// The option value (`NONE`, `AFFINE`, `OCTAGON`, `BOTH`; anything else: `NONE`).
    pub fn parse(s: &str) -> PathInvariants {
        match s.to_ascii_uppercase().as_str() {
            "AFFINE" => PathInvariants::Affine,
            "OCTAGON" => PathInvariants::Octagon,
            "BOTH" => PathInvariants::Both,
            _ => PathInvariants::None,
        }
    }

    /// The option value's name.
    pub fn name(self) -> &'static str {
        match self {
            PathInvariants::None => "NONE",
            PathInvariants::Affine => "AFFINE",
            PathInvariants::Octagon => "OCTAGON",
            PathInvariants::Both => "BOTH",
        }
    }

    fn affine(self) -> bool {
        matches!(self, PathInvariants::Affine | PathInvariants::Both)
    }

    fn octagon(self) -> bool {
        matches!(self, PathInvariants::Octagon | PathInvariants::Both)
    }
}

/// How often an error path must enter a loop head for path invariants to
/// be computed: twice means it took the loop's back edge at least once, so
/// the path program contains the loop.
pub const MIN_LOOP_VISITS: usize = 2;

/// The predicates path invariants give at one loop head of the path program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopHeadInvariant {
    /// The loop head.
    pub location: NodeId,
    /// Its function.
    pub function: FuncId,
    /// An edge of the path into the loop head (where the trace shows it).
    pub edge: EdgeId,
    /// The atoms of the invariant, over unindexed program variables (`v3`).
    pub predicates: Vec<Term>,
}

/// The loop heads `path` enters at least [`MIN_LOOP_VISITS`] times, with
/// an edge of the path into each.
fn unrolled_loop_heads(program: &Program, path: &[EdgeId]) -> Vec<(NodeId, EdgeId)> {
    let mut visits: BTreeMap<NodeId, (usize, EdgeId)> = BTreeMap::new();
    for id in path {
        let Some(edge) = program.edges.get(id.0 as usize) else { continue };
        if program.nodes.get(edge.target.0 as usize).is_some_and(|n| n.loop_head) {
            visits.entry(edge.target).or_insert((0, *id)).0 += 1;
        }
    }
    visits.into_iter().filter(|(_, (n, _))| *n >= MIN_LOOP_VISITS).map(|(l, (_, e))| (l, e)).collect()
}

/// Whether `path` enters a loop head at least [`MIN_LOOP_VISITS`] times
/// (its path program keeps that loop).
pub fn unrolls_a_loop(program: &Program, path: &[EdgeId]) -> bool {
    !unrolled_loop_heads(program, path).is_empty()
}

/// The path program of `paths` (all from `main`'s entry): the edges of
/// any of them, each once, and the loop heads one of them unrolls.
fn path_program(program: &Program, paths: &[Vec<EdgeId>]) -> (Vec<EdgeId>, Vec<(NodeId, EdgeId)>) {
    let mut edges: Vec<EdgeId> = Vec::new();
    let mut heads: Vec<(NodeId, EdgeId)> = Vec::new();
    for path in paths {
        for id in path {
            if program.edges.get(id.0 as usize).is_some() && !edges.contains(id) {
                edges.push(*id);
            }
        }
        for (l, e) in unrolled_loop_heads(program, path) {
            if !heads.iter().any(|(h, _)| *h == l) {
                heads.push((l, e));
            }
        }
    }
    for (head, _) in &heads {
        for id in loop_body(program, *head) {
            if !edges.contains(&id) {
                edges.push(id);
            }
        }
    }
    (edges, heads)
}

/// The edges of the loop at `head` inside its function: those between
/// nodes reachable from `head` that reach `head` again (calls and returns
/// left out). The path program keeps them all, so a branch of the body the
/// error paths did not take still counts (`a + b == 3*i` needs both
/// branches of bhmr2007's loop; one alone gives `a == i`, `b == 2*i`).
fn loop_body(program: &Program, head: NodeId) -> Vec<EdgeId> {
    let function = program.node(head).function;
    let inside = |e: &cfa::Edge| {
        !matches!(e.kind, EdgeKind::Call { .. } | EdgeKind::Return { .. })
            && program.node(e.source).function == function
            && program.node(e.target).function == function
    };
    let reach = |forward: bool| {
        let mut seen: BTreeSet<NodeId> = BTreeSet::from([head]);
        let mut work = vec![head];
        while let Some(n) = work.pop() {
            let node = program.node(n);
            for id in if forward { &node.outgoing } else { &node.incoming } {
                let e = program.edge(*id);
                let next = if forward { e.target } else { e.source };
                if inside(e) && seen.insert(next) {
                    work.push(next);
                }
            }
        }
        seen
    };
    let (from, to) = (reach(true), reach(false));
    program
        .edges
        .iter()
        .filter(|e| {
            inside(e) && from.contains(&e.source) && to.contains(&e.source) && from.contains(&e.target) && to.contains(&e.target)
        })
        .map(|e| e.id)
        .collect()
}

/// The invariants of the path program of `paths` (error paths from
/// `main`'s entry: one refinement's, or all those CEGAR refined so far, so
/// that the branches of a loop body different paths took are all in it)
/// at the loop heads they unroll (empty when they unroll none, or `which`
/// is `NONE`). `enc` gives the variables' sorts.
pub fn loop_head_invariants(
    program: &Program,
    paths: &[Vec<EdgeId>],
    which: PathInvariants,
    enc: Encoding,
) -> Vec<LoopHeadInvariant> {
    if which == PathInvariants::None {
        return Vec::new();
    }
    let (edges, heads) = path_program(program, paths);
    if heads.is_empty() {
        return Vec::new();
    }
    let Some(start) = paths.first().and_then(|p| p.first()).and_then(|e| program.edges.get(e.0 as usize)).map(|e| e.source)
    else {
        return Vec::new();
    };
    let vars = Vars::of(program, &edges);
    let affine = which.affine().then(|| analyse::<Affine>(program, &edges, start, &vars));
    let octagon = which.octagon().then(|| analyse::<Octagon>(program, &edges, start, &vars));
    let mut out = Vec::new();
    for (location, edge) in heads {
        let mut predicates: Vec<Term> = Vec::new();
        if let Some(Some(s)) = affine.as_ref().map(|m| m.get(&location)) {
            predicates.extend(s.atoms(&vars, program, enc));
        }
        if let Some(Some(s)) = octagon.as_ref().map(|m| m.get(&location)) {
            predicates.extend(s.atoms(&vars, program, enc));
        }
        let mut unique: Vec<Term> = Vec::new();
        for p in predicates {
            let p = crate::predicate_refinement::normalize_predicate(&p);
            if crate::cpas::predicate::abstraction::is_predicate(&p, program) && !unique.contains(&p) {
                unique.push(p);
            }
        }
        unique.sort();
        if !unique.is_empty() {
            let function = program.nodes.get(location.0 as usize).map(|n| n.function).unwrap_or(FuncId(0));
            out.push(LoopHeadInvariant { location, function, edge, predicates: unique });
        }
    }
    out
}

/// The variables of a path program, numbered `0..n` for the domains.
struct Vars {
    list: Vec<VarId>,
    index: BTreeMap<VarId, usize>,
}

impl Vars {
    /// Every variable an edge of `edges` reads or writes (with the
    /// parameters and return slots of the functions it calls).
    fn of(program: &Program, edges: &[EdgeId]) -> Vars {
        let mut set: BTreeSet<VarId> = BTreeSet::new();
        for id in edges {
            let edge = program.edge(*id);
            for e in edge.kind.expressions() {
                set.extend(e.variables());
            }
            match &edge.kind {
                EdgeKind::Declare { var, .. } | EdgeKind::Assign { var, .. } => {
                    set.insert(*var);
                }
                EdgeKind::Call { callee, result, .. } | EdgeKind::Return { callee, result, .. } => {
                    if let Some(f) = program.functions.get(callee.0 as usize) {
                        set.extend(f.params.iter().copied());
                        set.extend(f.ret);
                    }
                    set.extend(*result);
                }
                EdgeKind::ReturnStatement { .. } => {
                    let f = program.node(edge.source).function;
                    set.extend(program.functions.get(f.0 as usize).and_then(|f| f.ret));
                }
                _ => {}
            }
        }
        let list: Vec<VarId> = set.into_iter().collect();
        let index = list.iter().enumerate().map(|(i, v)| (*v, i)).collect();
        Vars { list, index }
    }

    fn n(&self) -> usize {
        self.list.len()
    }

    /// `e` as `Σ coefficients·x + constant` over mathematical integers
    /// (casts ignored), if it is linear.
    fn linear(&self, e: &Expr) -> Option<(Vec<i128>, i128)> {
        let n = self.n();
        match e {
            Expr::Const { value, .. } => Some((vec![0; n], *value)),
            Expr::Var { var, .. } => {
                let mut c = vec![0; n];
                c[*self.index.get(var)?] = 1;
                Some((c, 0))
            }
            Expr::Cast { arg, .. } => self.linear(arg),
            Expr::Unary { op: UnOp::Neg, arg, .. } => {
                let (c, k) = self.linear(arg)?;
                Some((c.iter().map(|x| -x).collect(), -k))
            }
            Expr::Binary { op: op @ (BinOp::Add | BinOp::Sub), lhs, rhs, .. } => {
                let ((a, k), (b, m)) = (self.linear(lhs)?, self.linear(rhs)?);
                let s: i128 = if *op == BinOp::Add { 1 } else { -1 };
                let c = a.iter().zip(&b).map(|(x, y)| x.checked_add(s.checked_mul(*y)?)).collect::<Option<Vec<_>>>()?;
                Some((c, k.checked_add(s.checked_mul(m)?)?))
            }
            Expr::Binary { op: BinOp::Mul, lhs, rhs, .. } => {
                let ((a, k), (b, m)) = (self.linear(lhs)?, self.linear(rhs)?);
                let (lin, factor) = if a.iter().all(|x| *x == 0) {
                    ((b, m), k)
                } else if b.iter().all(|x| *x == 0) {
                    ((a, k), m)
                } else {
                    return None;
                };
                let c = lin.0.iter().map(|x| x.checked_mul(factor)).collect::<Option<Vec<_>>>()?;
                Some((c, lin.1.checked_mul(factor)?))
            }
            _ => None,
        }
    }

    /// `e ⋈ 0` for a comparison `l op r` (negated unless `positive`), when
    /// both sides are linear: (`l − r` as coefficients and constant, ⋈).
    fn comparison(&self, cond: &Expr, positive: bool) -> Option<((Vec<i128>, i128), Cmp)> {
        let Expr::Binary { op, lhs, rhs, .. } = cond else { return None };
        let op = if positive { *op } else { op.negate_comparison()? };
        let cmp = crate::cpas::octagon::comparison_cmp(op)?;
        let ((a, k), (b, m)) = (self.linear(lhs)?, self.linear(rhs)?);
        let c = a.iter().zip(&b).map(|(x, y)| x.checked_sub(*y)).collect::<Option<Vec<_>>>()?;
        Some(((c, k.checked_sub(m)?), cmp))
    }

    /// The predicate term of `Σ c·x + k ⋈ 0` over unindexed variables.
    fn term(&self, c: &[i128], k: i128, cmp: Cmp, program: &Program, enc: Encoding) -> Term {
        let mut sum = Term::int(k);
        for (i, a) in c.iter().enumerate().filter(|(_, a)| **a != 0) {
            let v = self.list[i];
            let x = Term::var(&var_name(v), enc.sort(crate::cpas::predicate::pathformula::var_type(program, v)));
            sum = Term::add(sum, if *a == 1 { x } else { Term::mul(Term::int(*a), x) });
        }
        let zero = Term::int(0);
        match cmp {
            Cmp::Le => Term::le(sum, zero),
            Cmp::Eq => Term::eq(sum, zero),
            Cmp::Lt => Term::le(sum, Term::int(-1)),
            Cmp::Ge => Term::le(zero, sum),
            Cmp::Gt => Term::le(Term::int(1), sum),
            Cmp::Ne => Term::not(Term::eq(sum, zero)),
        }
    }
}

/// A numeric domain the path program is analysed in.
trait PathDomain: Clone + PartialEq {
    fn top(n: usize) -> Self;
    fn bottom(n: usize) -> Self;
    fn is_bottom(&self) -> bool;
    fn join(&self, other: &Self) -> Self;
    /// `old ∇ new` at a loop head (the join for a domain of finite height).
    fn widen(&self, next: &Self) -> Self;
    fn assign(&self, x: usize, e: Option<&(Vec<i128>, i128)>) -> Self;
    fn guard(&self, e: &(Vec<i128>, i128), cmp: Cmp) -> Self;
    /// The invariant's atoms as predicates.
    fn atoms(&self, vars: &Vars, program: &Program, enc: Encoding) -> Vec<Term>;
}

impl PathDomain for Affine {
    fn top(n: usize) -> Self {
        Affine::top(n)
    }
    fn bottom(n: usize) -> Self {
        Affine::bottom(n)
    }
    fn is_bottom(&self) -> bool {
        Affine::is_bottom(self)
    }
    fn join(&self, other: &Self) -> Self {
        Affine::join(self, other)
    }
    fn widen(&self, next: &Self) -> Self {
        Affine::join(self, next)
    }
    fn assign(&self, x: usize, e: Option<&(Vec<i128>, i128)>) -> Self {
        match e {
            Some((c, k)) => Affine::assign(self, x, c, *k),
            None => self.havoc(x),
        }
    }
    fn guard(&self, (c, k): &(Vec<i128>, i128), cmp: Cmp) -> Self {
        if cmp == Cmp::Eq {
            self.assume_eq(c, *k)
        } else {
            self.clone()
        }
    }
    /// The equalities over at least two variables (one-variable ones,
    /// `i == 0`, are what interpolants find anyway).
    fn atoms(&self, vars: &Vars, program: &Program, enc: Encoding) -> Vec<Term> {
        self.equalities()
            .into_iter()
            .filter(|(c, _)| c.iter().filter(|a| **a != 0).count() >= 2)
            .map(|(c, k)| vars.term(&c, k, Cmp::Eq, program, enc))
            .collect()
    }
}

fn lin_expr(e: &(Vec<i128>, i128)) -> Option<LinExpr> {
    let terms =
        e.0.iter()
            .enumerate()
            .filter(|(_, a)| **a != 0)
            .map(|(i, a)| Some((i, i64::try_from(*a).ok()?)))
            .collect::<Option<Vec<_>>>()?;
    Some(LinExpr::new(terms, i64::try_from(e.1).ok()?))
}

impl PathDomain for Octagon {
    fn top(n: usize) -> Self {
        Octagon::top(n)
    }
    fn bottom(n: usize) -> Self {
        Octagon::bottom(n)
    }
    fn is_bottom(&self) -> bool {
        Octagon::is_bottom(self)
    }
    fn join(&self, other: &Self) -> Self {
        Octagon::join(self, other)
    }
    fn widen(&self, next: &Self) -> Self {
        Octagon::widen(self, next)
    }
    fn assign(&self, x: usize, e: Option<&(Vec<i128>, i128)>) -> Self {
        let mut o = self.clone();
        match e.and_then(lin_expr) {
            Some(l) => Octagon::assign(&mut o, x, &l),
            None => Octagon::forget(&mut o, x),
        }
        o
    }
    fn guard(&self, e: &(Vec<i128>, i128), cmp: Cmp) -> Self {
        let mut o = self.clone();
        if let Some(l) = lin_expr(e) {
            Octagon::guard(&mut o, &l, cmp);
        }
        o
    }
    /// The relational constraints `±x ± y <= c` (bounds of one variable
    /// are what interpolants find anyway).
    fn atoms(&self, vars: &Vars, program: &Program, enc: Encoding) -> Vec<Term> {
        let closed = self.closed();
        if closed.is_bottom() {
            return Vec::new();
        }
        let d = closed.dbm();
        let n = vars.n();
        let mut out = Vec::new();
        for i in 0..2 * n {
            for j in 0..2 * n {
                // V_j − V_i ≤ c; each constraint is stored twice (coherence).
                if i / 2 == j / 2 || (i, j) > (j ^ 1, i ^ 1) {
                    continue;
                }
                let Some(c) = d.get(i, j).get() else { continue };
                let mut coefficients = vec![0i128; n];
                coefficients[j / 2] += if j % 2 == 0 { 1 } else { -1 };
                coefficients[i / 2] -= if i % 2 == 0 { 1 } else { -1 };
                out.push(vars.term(&coefficients, -(c as i128), Cmp::Le, program, enc));
            }
        }
        out
    }
}

/// The most edge applications of one analysis of a path program.
const MAX_STEPS: usize = 20_000;

/// How often a loop head joins before it widens.
const JOINS_BEFORE_WIDENING: usize = 3;

/// The abstract state at each node of the path program (a chaotic
/// iteration with joins, widening at loop heads).
fn analyse<D: PathDomain>(program: &Program, edges: &[EdgeId], start: NodeId, vars: &Vars) -> BTreeMap<NodeId, D> {
    let n = vars.n();
    let mut at: BTreeMap<NodeId, D> = BTreeMap::new();
    let mut joins: BTreeMap<NodeId, usize> = BTreeMap::new();
    at.insert(start, D::top(n));
    let mut work: Vec<NodeId> = vec![start];
    let mut steps = 0;
    while let Some(node) = work.pop() {
        let Some(state) = at.get(&node).cloned() else { continue };
        for id in edges.iter().filter(|e| program.edge(**e).source == node) {
            steps += 1;
            if steps > MAX_STEPS {
                return at;
            }
            let edge = program.edge(*id);
            let next = post(program, vars, &state, &edge.kind, node);
            if next.is_bottom() {
                continue;
            }
            let target = edge.target;
            let old = at.get(&target).cloned().unwrap_or_else(|| D::bottom(n));
            let joined = old.join(&next);
            let count = joins.entry(target).or_default();
            *count += 1;
            let widened =
                if program.node(target).loop_head && *count > JOINS_BEFORE_WIDENING { old.widen(&joined) } else { joined };
            if widened != old {
                at.insert(target, widened);
                if !work.contains(&target) {
                    work.push(target);
                }
            }
        }
    }
    at
}

/// The abstract post of one edge over mathematical integers.
fn post<D: PathDomain>(program: &Program, vars: &Vars, s: &D, kind: &EdgeKind, source: NodeId) -> D {
    let assign = |s: &D, var: VarId, rhs: Option<&Expr>| match vars.index.get(&var) {
        Some(x) => s.assign(*x, rhs.and_then(|e| vars.linear(e)).as_ref()),
        None => s.clone(),
    };
    match kind {
        EdgeKind::Declare { var, init } => assign(s, *var, if let Some(Rhs::Expr(e)) = init { Some(e) } else { None }),
        EdgeKind::Assign { var, rhs } => assign(s, *var, if let Rhs::Expr(e) = rhs { Some(e) } else { None }),
        EdgeKind::Assume { cond, positive } => match vars.comparison(cond, *positive) {
            Some((e, cmp)) => s.guard(&e, cmp),
            None => s.clone(),
        },
        EdgeKind::Call { callee, args, .. } => {
            let Some(f) = program.functions.get(callee.0 as usize) else { return s.clone() };
            // Parameters from arguments, evaluated in the caller: through
            // fresh values would be exact; in order is enough for predicates.
            f.params.iter().zip(args).fold(s.clone(), |acc, (p, a)| assign(&acc, *p, Some(a)))
        }
        EdgeKind::Return { callee, result: Some(r), .. } => {
            let ret = program.functions.get(callee.0 as usize).and_then(|f| f.ret);
            let e = ret.map(|v| Expr::Var { var: v, ty: crate::cpas::predicate::pathformula::var_type(program, v) });
            assign(s, *r, e.as_ref())
        }
        EdgeKind::ReturnStatement { value } => {
            let f = program.node(source).function;
            match program.functions.get(f.0 as usize).and_then(|f| f.ret) {
                Some(ret) => assign(s, ret, value.as_ref()),
                None => s.clone(),
            }
        }
        _ => s.clone(),
    }
}
