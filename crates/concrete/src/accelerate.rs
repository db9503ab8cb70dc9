//! Accelerated concrete execution: the interpreter of [`crate::execute`]
//! that, at a loop head, may jump over many iterations of the loop at once
//! when the last iteration was a *translation* — every variable changed by
//! a constant `d_v` (0 for one that was reset to the value it had) — and
//! the iteration's edges are affine: assignments of sums of variables times
//! constants, comparisons of such sums as conditions, calls and returns, no
//! input, no memory.
//!
//! The jump is exact, never an approximation. Let `s` be the state at the
//! loop head, `p` the edges of the last iteration and `d` its effect. Over
//! mathematical integers `p` maps a state to an affine function `F` of it;
//! when iterations 0 and 1 from `s` (states `s` and `s + d`) follow `p`
//! without any wrap-around (every subexpression and every assigned value
//! equal under C's and the mathematical semantics) and end in `s + d` and
//! `s + 2·d`, `F(s + i·d) = s + (i+1)·d` for every `i`. Every value along
//! iteration `i` is then affine in `i`, so a comparison that holds at `i = 0`
//! and at `i = M` holds on the whole of `[0, M]` (a `!=` only when its two
//! sides differ by the same amount at both ends), and a value in its type's
//! range at both ends is in range in between. Checking iteration `M`
//! concretely therefore proves that iterations `0 … M` all follow `p`
//! exactly as C runs them: the run continues from `s + (M+1)·d`. `M` is the
//! largest such bound (found by doubling and bisection: the iterations that
//! pass the check form an interval from 0). A loop runs at least
//! [`MIN_JUMP`] iterations before it is jumped over, so a short inner loop
//! is run edge by edge and the outer loop's iteration (with the inner loop
//! unrolled in it) can be accelerated instead.

use crate::{Execution, InputSource, Machine, Options};
use cfa::{BinOp, EdgeId, EdgeKind, Expr, NodeId, Rhs, UnOp, VarId};
use minic::types::{IntModel, IntType};
use std::collections::BTreeMap;

/// Fewest iterations worth a jump (shorter loops run edge by edge).
pub const MIN_JUMP: u128 = 64;

/// One jump over iterations of a loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Jump {
    /// The loop head.
    pub loop_head: NodeId,
    /// The source line of the iteration's first edge.
    pub line: u32,
    /// How many iterations were jumped over (not run edge by edge).
    pub iterations: u128,
    /// How many edges of the iteration.
    pub iteration_edges: usize,
    /// Where in the executed path (its length then) the jump happened.
    pub at_step: usize,
}

impl std::fmt::Display for Jump {
    /// `loop at line 9 ×134217720`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "loop at line {} ×{}", self.line, self.iterations)
    }
}

/// An accelerated execution: the run and its jumps. The run's path holds
/// only the edges executed one by one (each jump leaves out its iterations).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AcceleratedExecution {
    /// The run (its outcome is the ground truth, as for [`crate::execute`]).
    pub execution: Execution,
    /// The jumps, in order.
    pub jumps: Vec<Jump>,
}

impl AcceleratedExecution {
    /// The jumps in words: `loop at line 9 ×134217720, loop at line 12 ×5`;
    /// beyond four jumps the first two, the last and the totals
    /// (`…, 1172 jumps over 297656 iterations in all`).
    pub fn jumps_in_words(&self) -> String {
        let words: Vec<String> = self.jumps.iter().map(|j| j.to_string()).collect();
        if words.len() <= 4 {
            return words.join(", ");
        }
        let total: u128 = self.jumps.iter().map(|j| j.iterations).sum();
        format!(
            "{}, {}, …, {} ({} jumps over {total} iterations in all)",
            words[0],
            words[1],
            words[words.len() - 1],
            words.len()
        )
    }
}

/// Runs `program` like [`crate::execute`] but jumps over the iterations of
/// translation loops (see the module text). `options.max_steps` bounds the
/// edges executed one by one; states are not recorded.
pub fn execute_accelerated(program: &cfa::Program, input: &mut dyn InputSource, options: Options) -> AcceleratedExecution {
    let mut acc = Accelerator::default();
    let options = Options { record_states: false, ..options };
    let execution = crate::run(program, input, options, Some(&mut acc));
    AcceleratedExecution { execution, jumps: acc.jumps }
}

/// A visit of a loop head: where in the path, and the values then.
struct Visit {
    step: usize,
    values: BTreeMap<VarId, i128>,
    jumps: usize,
}

/// The jumps so far and the last visit of each loop head (per call depth).
#[derive(Default)]
pub(crate) struct Accelerator {
    last: BTreeMap<(NodeId, usize), Visit>,
    jumps: Vec<Jump>,
}

/// An input source that has none: an iteration that reads an input is not
/// accelerated.
struct NoInputs;

impl InputSource for NoInputs {
    fn next_input(&mut self, _ty: IntType) -> Option<i128> {
        None
    }
}

impl Accelerator {
    /// At the loop head `node`, after the edges `path`: jumps when the
    /// iteration since the last visit can be repeated exactly.
    pub(crate) fn visit(&mut self, m: &mut Machine<'_, '_>, node: NodeId, path: &[EdgeId]) {
        let key = (node, m.frames.len());
        let now = Visit { step: path.len(), values: m.top_values(), jumps: self.jumps.len() };
        let Some(prev) = self.last.insert(key, now) else { return };
        let now = &self.last[&key];
        if prev.jumps != now.jumps || prev.step >= now.step {
            return;
        }
        let iteration = &path[prev.step..now.step];
        if !prev.values.keys().eq(now.values.keys()) || !affine_iteration(m.program, iteration) {
            return;
        }
        let delta: BTreeMap<VarId, i128> = now.values.iter().map(|(v, x)| (*v, x - prev.values[v])).collect();
        if delta.values().all(|d| *d == 0) {
            return; // no progress: an endless loop, left to the step limit
        }
        let start = now.values.clone();
        let good = |i: u128| -> Option<Vec<i128>> {
            let i = i128::try_from(i).ok()?;
            let mut state = BTreeMap::new();
            for (v, x) in &start {
                state.insert(*v, delta[v].checked_mul(i).and_then(|di| x.checked_add(di))?);
            }
            exact_iteration(m, node, iteration, &state, &delta)
        };
        // A `!=` guard holds on all of [0, M] when the distance of its sides
        // (affine in i) is the same at both ends.
        let Some(base) = good(0) else { return };
        let good = |i: u128| good(i).is_some_and(|d| d == base);
        if !good(1) || !good(MIN_JUMP - 1) {
            return;
        }
        // The largest M with good(M): doubling, then bisection.
        let (mut lo, mut hi) = (MIN_JUMP - 1, (MIN_JUMP - 1) * 2);
        while good(hi) {
            lo = hi;
            if hi >= 1 << 100 {
                return;
            }
            hi *= 2;
        }
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if good(mid) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let iterations = lo + 1;
        let k = iterations as i128;
        let mut end = Vec::with_capacity(start.len());
        for (v, x) in &start {
            let Some(y) = delta[v].checked_mul(k).and_then(|d| x.checked_add(d)) else { return };
            end.push((*v, y));
        }
        for (v, y) in end {
            m.set(v, y);
        }
        let line = iteration.first().map(|e| m.program.edge(*e).line).unwrap_or(0);
        self.jumps.push(Jump { loop_head: node, line, iterations, iteration_edges: iteration.len(), at_step: path.len() });
        self.last.remove(&key);
    }
}

/// Whether every edge of `iteration` is affine (see the module text) and
/// its calls and returns are balanced inside it.
fn affine_iteration(program: &cfa::Program, iteration: &[EdgeId]) -> bool {
    let mut depth = 0i64;
    for e in iteration {
        let edge = program.edge(*e);
        let ok = match &edge.kind {
            EdgeKind::Blank => true,
            EdgeKind::Assume { cond, .. } => guard(cond).is_some(),
            EdgeKind::Assign { rhs: Rhs::Expr(e), .. } | EdgeKind::Declare { init: Some(Rhs::Expr(e)), .. } => affine(e),
            EdgeKind::ReturnStatement { value } => value.as_ref().is_none_or(affine),
            EdgeKind::Call { args, .. } => {
                depth += 1;
                args.iter().all(affine)
            }
            EdgeKind::Return { .. } => {
                depth -= 1;
                depth >= 0
            }
            _ => false,
        };
        if !ok {
            return false;
        }
    }
    depth == 0
}

/// Sums of variables times constants (with casts and negation).
fn affine(e: &Expr) -> bool {
    match e {
        Expr::Const { .. } | Expr::Var { .. } => true,
        // A conversion to `_Bool` is `e != 0` under both models: not affine.
        Expr::Cast { ty: IntType::Bool, .. } => false,
        Expr::Cast { arg, .. } | Expr::Unary { op: UnOp::Neg, arg, .. } => affine(arg),
        Expr::Binary { op: BinOp::Add | BinOp::Sub, lhs, rhs, .. } => affine(lhs) && affine(rhs),
        Expr::Binary { op: BinOp::Mul, lhs, rhs, .. } => {
            affine(lhs) && affine(rhs) && (lhs.variables().is_empty() || rhs.variables().is_empty())
        }
        _ => false,
    }
}

/// A condition over affine values: `(lhs, rhs, op)` with `op` a comparison
/// (a bare affine `e` is `e != 0`; `!c` flips `c`), `None` otherwise.
fn guard(cond: &Expr) -> Option<(Expr, Expr, BinOp, bool)> {
    match cond {
        Expr::Binary { op, lhs, rhs, .. } if op.is_comparison() && affine(lhs) && affine(rhs) => {
            Some(((**lhs).clone(), (**rhs).clone(), *op, true))
        }
        Expr::Unary { op: UnOp::LogNot, arg, .. } => guard(arg).map(|(l, r, op, pos)| (l, r, op, !pos)),
        e if affine(e) => Some((e.clone(), Expr::int(0), BinOp::Ne, true)),
        _ => None,
    }
}

/// Runs `iteration` once from the loop head `node` in a copy of `m` whose
/// top values are `state`: when it follows the iteration's edges without
/// any wrap-around or input and ends in `state + delta`, the distances of
/// the two sides of its `!=` guards, in order (they must not change from
/// one iteration to the next), else `None`.
fn exact_iteration(
    m: &Machine<'_, '_>,
    node: NodeId,
    iteration: &[EdgeId],
    state: &BTreeMap<VarId, i128>,
    delta: &BTreeMap<VarId, i128>,
) -> Option<Vec<i128>> {
    let program = m.program;
    let model = m.model;
    let mut none = NoInputs;
    let mut t = Machine {
        program,
        model,
        input: &mut none,
        globals: m.globals.clone(),
        frames: m.frames.clone(),
        inputs: Vec::new(),
        memory: crate::memory::Memory::default(),
        converted: false,
    };
    for (v, x) in state {
        t.set(*v, *x);
    }
    let depth = t.frames.len();
    let mut at = node;
    let mut distances = Vec::new();
    for e in iteration {
        let edge = program.edge(*e);
        if t.converted || edge.source != at || t.frames.len() < depth {
            return None;
        }
        let mut lookup = |v: VarId| t.get(v);
        let ok = match &edge.kind {
            EdgeKind::Assume { cond, positive } => {
                let (lhs, rhs, op, pos) = guard(cond)?;
                let taken = matches!(cond.eval(model, &mut lookup), Ok(Some(v)) if (v != 0) == *positive);
                // After the flips, is the edge's condition `lhs != rhs`?
                let holds = pos == *positive;
                if (op == BinOp::Ne && holds) || (op == BinOp::Eq && !holds) {
                    let l = lhs.eval(IntModel::Math, &mut lookup).ok()??;
                    let r = rhs.eval(IntModel::Math, &mut lookup).ok()??;
                    distances.push(l - r);
                }
                taken && no_wrap(&lhs, model, &mut lookup) && no_wrap(&rhs, model, &mut lookup)
            }
            EdgeKind::Assign { rhs: Rhs::Expr(x), .. } | EdgeKind::Declare { init: Some(Rhs::Expr(x)), .. } => {
                no_wrap(x, model, &mut lookup)
            }
            EdgeKind::ReturnStatement { value } => value.as_ref().is_none_or(|x| no_wrap(x, model, &mut lookup)),
            EdgeKind::Call { args, .. } => args.iter().all(|x| no_wrap(x, model, &mut lookup)),
            _ => true,
        };
        if !ok {
            return None;
        }
        at = t.take(program.node(at), edge).ok()?;
    }
    if t.converted || at != node || t.frames.len() != depth {
        return None;
    }
    let end = t.top_values();
    (end.len() == state.len() && state.iter().all(|(v, x)| end.get(v) == Some(&(x + delta[v])))).then_some(distances)
}

/// Whether `e` and each of its subexpressions has the same value under
/// `model` as over mathematical integers (no wrap-around anywhere).
fn no_wrap(e: &Expr, model: IntModel, lookup: &mut dyn FnMut(VarId) -> Option<i128>) -> bool {
    let same = match (e.eval(model, lookup), e.eval(IntModel::Math, lookup)) {
        (Ok(Some(a)), Ok(Some(b))) => a == b,
        _ => false,
    };
    same && match e {
        Expr::Const { .. } | Expr::Var { .. } => true,
        Expr::Cast { arg, .. } | Expr::Unary { arg, .. } => no_wrap(arg, model, lookup),
        Expr::Binary { lhs, rhs, .. } => no_wrap(lhs, model, lookup) && no_wrap(rhs, model, lookup),
    }
}
