//! Running one transformed edge on an explorer state: the transformed
//! program's semantics. Concrete operations are `cfa::Expr::eval` (the
//! interpreter's semantics); `lift`, `a_op`, `freeze`/`thaw` go to the
//! domain ([`transform::value::Ops`]); an assumption on an abstract
//! condition is a choice the domain must allow (parity, sign: the value may
//! be non-zero / zero; terms: the path condition with it is satisfiable —
//! asked through the run's [`SolverOracle`], so the page can answer later).
//!
//! Memory is concrete (the interpreter's model): a load, store, `free` or
//! allocation at an invalid address stops the path with the interpreter's
//! message; an abstract value stored to a cell is frozen into the cell's
//! shadow entry and thawed by a load. An address (or size) that is
//! abstract at run time is *lowered* ([`MAX_LOWERED_VALUES`]): terms
//! enumerate its values by the solver — one successor per value `k`, with
//! `v == k` added to the path condition; when more values remain, the run
//! records that it is incomplete (UNKNOWN at best). Parity and sign values
//! stand for infinitely many addresses: the path stops there and the run is
//! incomplete — a lowered value must never drop a behaviour.
//!
//! The values follow the transformed program, but the execution never
//! trusts it blindly: a concrete expression that meets an abstract value
//! at run time is computed abstractly, so the explorer stays sound even
//! where value propagation was coarse.

use super::state::{Frame, Val, XState};
use crate::solver::{Ask, SolverOracle};
use cfa::{EdgeKind, Expr, Program, VarId};
use domains::Rel;
use minic::{IntModel, IntType};
use smt::Status;
use std::collections::BTreeMap;
use transform::program::{AExpr, Address, Operand, TOp};
use transform::value::{rel, Ops, TermValue};
use transform::{AbsValue, Domain, Transformed};

/// Why a path ends without a successor on an edge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoSuccessor {
    /// A concrete assumption is false (the edge is not taken).
    False,
    /// The domain rules the choice out; in words.
    Pruned(String),
    /// The path cannot go on: an operation C leaves undefined (the
    /// interpreter stops there too) or the input list ran out.
    Stuck(String),
}

/// How many values of an abstract address the term domain enumerates by
/// the solver before it gives up (the run then ends UNKNOWN at best).
pub const MAX_LOWERED_VALUES: usize = 8;

/// The result of running one edge.
#[derive(Clone, Debug)]
pub enum EdgeResult {
    /// The successors (several when an abstract address was lowered to
    /// several values; none when lowering could not go on), and why the
    /// exploration is incomplete at this edge, if it is.
    Next {
        /// The successors.
        states: Vec<XState>,
        /// Why some behaviours of the edge are not explored (an abstract
        /// address the domain cannot lower soundly).
        incomplete: Option<String>,
    },
    /// No successor, and why.
    None(NoSuccessor),
    /// A solver query is pending (asked through the oracle).
    Pending,
}

enum Halt {
    Undefined(String),
    Inputs,
    Pending,
    /// A lowering point not decided yet: the values to try, and why the
    /// list is incomplete.
    Lower(Vec<i128>, Option<String>),
}

/// What a lowered value is used for: which concrete values can go on
/// without a memory error.
#[derive(Clone, Copy)]
enum Access {
    /// The address of a cell of this many bytes: any in-bounds offset of a
    /// live object.
    Cell(u64),
    /// The argument of `free`: the start of a live object.
    Free,
    /// An allocation size: any size (infinitely many).
    Size,
}

/// How many valid addresses parity and sign enumerate for a lowered
/// address before they give up (the run then ends UNKNOWN at best).
pub const MAX_LOWERED_CELLS: usize = 64;

/// The lowered values decided so far on one attempt of an edge, in the
/// order its lowering points are met.
struct Lowering {
    forced: Vec<i128>,
    used: usize,
}

/// What running an edge needs besides the state.
pub struct Exec<'a> {
    /// The program.
    pub program: &'a Program,
    /// Its transformation.
    pub transformed: &'a Transformed,
    /// The domain operations.
    pub ops: Ops,
    /// Concrete inputs (the concrete-only configuration), or `None`.
    pub inputs: Option<&'a [i128]>,
    /// The run's solver oracle (term domain).
    pub oracle: &'a SolverOracle,
}

impl Exec<'_> {
    fn model(&self) -> IntModel {
        self.ops.model
    }

    /// Runs edge `edge` of the program from `state` (see the module docs).
    pub fn run(&self, state: &XState, edge: cfa::EdgeId) -> EdgeResult {
        let mut states = Vec::new();
        let mut incomplete = None;
        let mut last_none = None;
        // Attempts with the lowered values fixed so far (depth first, so
        // the successors come in the order the values were found).
        let mut work = vec![Vec::new()];
        while let Some(forced) = work.pop() {
            let mut lowering = Lowering { forced: forced.clone(), used: 0 };
            match self.attempt(state, edge, &mut lowering) {
                Ok(Ok(s)) => states.push(s),
                Ok(Err(why)) => last_none = Some(why),
                Err(Halt::Pending) => return EdgeResult::Pending,
                Err(Halt::Lower(values, why)) => {
                    if incomplete.is_none() {
                        incomplete = why;
                    }
                    for k in values.into_iter().rev() {
                        let mut f = forced.clone();
                        f.push(k);
                        work.push(f);
                    }
                }
                Err(Halt::Undefined(what)) => last_none = Some(NoSuccessor::Stuck(what)),
                Err(Halt::Inputs) => last_none = Some(NoSuccessor::Stuck("the input list ran out".into())),
            }
        }
        match last_none {
            Some(why) if states.is_empty() && incomplete.is_none() => EdgeResult::None(why),
            _ => EdgeResult::Next { states, incomplete },
        }
    }

    /// One run of the edge with the lowered values of `lowering`.
    fn attempt(&self, state: &XState, edge: cfa::EdgeId, lowering: &mut Lowering) -> Result<Result<XState, NoSuccessor>, Halt> {
        let mut s = state.clone();
        let e = self.program.edge(edge);
        let te = self.transformed.edge(edge);
        if let Some(why) = self.apply(&mut s, &te.op, e, lowering)? {
            return Ok(Err(why));
        }
        for v in &te.lifts {
            if let Some(Val::C(c)) = s.get(self.program, *v) {
                let ty = self.program.variable(*v).ty;
                s.set(self.program, self.model(), *v, Val::A(self.ops.lift(c, ty)));
            }
        }
        s.node = e.target;
        Ok(Ok(s))
    }

    fn apply(&self, s: &mut XState, op: &TOp, e: &cfa::Edge, lowering: &mut Lowering) -> Result<Option<NoSuccessor>, Halt> {
        let p = self.program;
        let memory = |err: concrete::MemoryError| Halt::Undefined(format!("memory error: {err} (edge {})", e.id.0));
        match op {
            TOp::Blank | TOp::Terminate | TOp::ReachError => {}
            TOp::Unset { var, .. } => s.unset(p, *var),
            TOp::Store { var, value: Operand::Load { addr, ty, bytes, lifted, .. }, .. } => {
                let a = self.address(s, addr, Access::Cell(*bytes), lowering)?;
                let v = match s.load_cell(a, *bytes).map_err(memory)? {
                    Some(v) => v,
                    None => {
                        // Nobody wrote the cell: an input, kept in it (as the interpreter does).
                        let v = self.input(s, *ty, *lifted)?;
                        s.store_cell(a, *bytes, v.clone()).map_err(memory)?;
                        v
                    }
                };
                s.set(p, self.model(), *var, v);
            }
            TOp::Store { var, value: Operand::Alloc { size, zeroed, heap }, .. } => {
                let n = self.address(s, size, Access::Size, lowering)?;
                let a = s.objects.alloc(n, *zeroed, *heap).map_err(memory)?;
                s.set(p, self.model(), *var, Val::C(a));
            }
            TOp::Store { var, value, .. } => {
                let v = self.operand(s, value)?;
                s.set(p, self.model(), *var, v);
            }
            TOp::MemStore { addr, value, bytes, .. } => {
                let a = self.address(s, addr, Access::Cell(*bytes), lowering)?;
                let v = self.operand(s, value)?;
                s.store_cell(a, *bytes, v).map_err(memory)?;
            }
            TOp::Free { addr } => {
                let a = self.address(s, addr, Access::Free, lowering)?;
                s.free(a).map_err(memory)?;
            }
            TOp::Assume { cond, positive } => return self.assume(s, cond, *positive),
            TOp::Call { callee, args } => {
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(self.operand(s, a)?);
                }
                s.frames.push(Frame { function: *callee, call_site: Some(e.source), values: BTreeMap::new() });
                for (param, v) in p.function(*callee).params.iter().zip(vals) {
                    s.set(p, self.model(), *param, v);
                }
            }
            TOp::ReturnValue { slot, value } => {
                if let Some(v) = value {
                    let v = self.operand(s, v)?;
                    if let Some(r) = slot {
                        s.set(p, self.model(), *r, v);
                    }
                }
            }
            TOp::Return { callee, result, lifted, .. } => {
                // Only the return to the active call site is enabled.
                let EdgeKind::Return { call_site, .. } = &e.kind else { return Ok(Some(NoSuccessor::False)) };
                if s.frames.last().and_then(|f| f.call_site) != Some(*call_site) {
                    return Ok(Some(NoSuccessor::False));
                }
                let ret = p.function(*callee).ret;
                let value = match (result, ret) {
                    (Some(_), Some(r)) => match s.get(p, r) {
                        Some(v) => Some(v),
                        None => Some(self.input(s, p.variable(r).ty, *lifted)?),
                    },
                    _ => None,
                };
                s.frames.pop();
                if let (Some(res), Some(v)) = (result, value) {
                    s.set(p, self.model(), *res, v);
                }
            }
        }
        Ok(None)
    }

    /// An input of type `ty`: abstract when lifted (or when no input list
    /// was given — never guess a concrete value), else the list's next.
    fn input(&self, s: &mut XState, ty: IntType, lifted: bool) -> Result<Val, Halt> {
        match self.inputs {
            Some(list) if !lifted => {
                let raw = *list.get(s.inputs_read).ok_or(Halt::Inputs)?;
                s.inputs_read += 1;
                Ok(Val::C(ty.convert(raw, self.model())))
            }
            _ => Ok(Val::A(self.ops.input(ty, &mut s.path))),
        }
    }

    /// Gives every variable `vars` reads that holds no value an input (in
    /// order, as the interpreter does before it evaluates).
    fn materialize(&self, s: &mut XState, vars: &[VarId]) -> Result<(), Halt> {
        for v in vars {
            if s.get(self.program, *v).is_none() {
                let ty = self.program.variable(*v).ty;
                let x = self.input(s, ty, self.transformed.lifted_input(*v))?;
                s.set(self.program, self.model(), *v, x);
            }
        }
        Ok(())
    }

    fn operand(&self, s: &mut XState, o: &Operand) -> Result<Val, Halt> {
        match o {
            Operand::Concrete(e) => self.concrete(s, e),
            Operand::Abstract(a) => Ok(Val::A(self.abstract_value(s, a)?)),
            Operand::Input { ty, lifted } => self.input(s, *ty, *lifted),
            // Loads and allocations are only the value of a variable's store.
            Operand::Load { .. } | Operand::Alloc { .. } => {
                Err(Halt::Undefined("a memory operation inside an expression".into()))
            }
        }
    }

    /// The concrete value of an address (or size): computed, and lowered
    /// when it turns out abstract (see the module docs).
    fn address(&self, s: &mut XState, addr: &Address, access: Access, lowering: &mut Lowering) -> Result<i128, Halt> {
        let e = match addr {
            Address::Concrete(e) => e.clone(),
            Address::Lower(a) => a.to_expr(),
        };
        let v = match self.concrete(s, &e)? {
            Val::C(c) => return Ok(c),
            Val::A(v) => v,
        };
        let ty = e.ty();
        if let Some(&k) = lowering.forced.get(lowering.used) {
            lowering.used += 1;
            if let AbsValue::Term(TermValue(t)) = &v {
                let c = self.ops.term_encoding().encoding().constant(k, ty);
                s.path.condition.push(smt::Term::eq(t.clone(), c));
            }
            return Ok(k);
        }
        let AbsValue::Term(TermValue(t)) = &v else {
            return Err(self.valid_addresses(s, &v, access, &e));
        };
        self.enumerate(s, t, ty, &e)
    }

    /// Parity and sign: `v` stands for infinitely many values, but only
    /// the addresses of live cells go on without a memory error (any other
    /// stops the path, as in the interpreter): those in `γ(v)` are the
    /// lowered values, at most [`MAX_LOWERED_CELLS`].
    fn valid_addresses(&self, s: &XState, v: &AbsValue, access: Access, e: &Expr) -> Halt {
        let domain = self.ops.domain;
        let what = transform::print::expr_text(self.program, e);
        if matches!(access, Access::Size) {
            // Decided before looking at live objects: with none live yet the
            // loop below would lower to no value at all and drop the path
            // without saying so (a wrong TRUE).
            let why = format!("the {domain} domain cannot lower the abstract allocation size `{what}` ({v}): it stands for infinitely many sizes, so the path stops there");
            return Halt::Lower(vec![], Some(why));
        }
        let mut values = Vec::new();
        for (base, size) in s.objects.live_objects() {
            let offsets = match access {
                Access::Cell(bytes) if size >= bytes => 0..=size - bytes,
                Access::Free => 0..=0,
                Access::Cell(_) | Access::Size => continue,
            };
            let before = values.len();
            for off in offsets {
                // Whether a positive address is in γ(v) depends only on its
                // parity (parity) or on nothing (sign): two offsets without
                // one decide the whole object.
                if off >= 2 && values.len() == before {
                    break;
                }
                let a = base + off as i128;
                if self.ops.contains(v, a) {
                    if values.len() == MAX_LOWERED_CELLS {
                        let why = format!("the {domain} domain lowers the abstract address `{what}` ({v}) to the valid addresses it may be, but there are more than {MAX_LOWERED_CELLS}; only {MAX_LOWERED_CELLS} were explored");
                        return Halt::Lower(values, Some(why));
                    }
                    values.push(a);
                }
            }
        }
        Halt::Lower(values, None)
    }

    /// The term domain's lowering: the values of `t` under the path
    /// condition, one solver query each, at most [`MAX_LOWERED_VALUES`].
    fn enumerate(&self, s: &XState, t: &smt::Term, ty: IntType, e: &Expr) -> Result<i128, Halt> {
        let enc = self.ops.term_encoding().encoding();
        let mut values: Vec<i128> = Vec::new();
        let lowered = smt::Term::var("lowered", enc.sort(ty));
        loop {
            let mut assertions = s.path.condition.clone();
            assertions.extend(values.iter().map(|k| smt::Term::ne(t.clone(), enc.constant(*k, ty))));
            let last = values.len() == MAX_LOWERED_VALUES;
            if !last {
                assertions.push(smt::Term::eq(lowered.clone(), t.clone()));
            }
            let q = smt::Query {
                assertions,
                want_model: !last,
                comment: Some(if last { "lower: is there another value?" } else { "lower: a value of the address" }.into()),
            };
            let r = match self.oracle.ask_query(&q) {
                Ask::Pending => return Err(Halt::Pending),
                Ask::Answer(r) => r,
            };
            let what = transform::print::expr_text(self.program, e);
            match r.status() {
                Status::Unsat => return Err(Halt::Lower(values, None)),
                Status::Sat if !last => {
                    let k = match r.model.get("lowered") {
                        Some(smt::Value::Int(v)) => *v,
                        Some(smt::Value::Bv { value, width }) if ty.is_signed() => smt::term::bv_signed(*value, *width),
                        Some(smt::Value::Bv { value, .. }) => *value as i128,
                        _ => {
                            let why = format!("lowering the address `{what}`: the solver gave no value for it");
                            return Err(Halt::Lower(values, Some(why)));
                        }
                    };
                    values.push(ty.convert(k, self.model()));
                }
                _ => {
                    let why = if last {
                        format!("the address `{what}` may have more than {MAX_LOWERED_VALUES} values; only {MAX_LOWERED_VALUES} were explored")
                    } else {
                        format!("lowering the address `{what}`: the solver answered unknown")
                    };
                    return Err(Halt::Lower(values, Some(why)));
                }
            }
        }
    }

    /// A concrete expression; abstract if some operand turns out abstract.
    fn concrete(&self, s: &mut XState, e: &Expr) -> Result<Val, Halt> {
        let vars = e.variables();
        self.materialize(s, &vars)?;
        if vars.iter().any(|v| matches!(s.get(self.program, *v), Some(Val::A(_)))) {
            let set: std::collections::BTreeSet<VarId> =
                vars.iter().copied().filter(|v| matches!(s.get(self.program, *v), Some(Val::A(_)))).collect();
            let a = match transform::program::operand(self.program, &set, e) {
                Operand::Abstract(a) => a,
                _ => AExpr::Lift(e.clone()),
            };
            return Ok(Val::A(self.abstract_value(s, &a)?));
        }
        let mut lookup = |v: VarId| match s.get(self.program, v) {
            Some(Val::C(c)) => Some(c),
            _ => None,
        };
        match e.eval(self.model(), &mut lookup) {
            Ok(Some(v)) => Ok(Val::C(v)),
            Ok(None) => Err(Halt::Undefined("a variable without value".into())),
            Err(err) => Err(Halt::Undefined(err.to_string())),
        }
    }

    fn abstract_value(&self, s: &mut XState, a: &AExpr) -> Result<AbsValue, Halt> {
        self.materialize(s, &a.variables())?;
        self.eval_abstract(s, a)
    }

    fn eval_abstract(&self, s: &mut XState, a: &AExpr) -> Result<AbsValue, Halt> {
        Ok(match a {
            AExpr::Lift(e) => match self.concrete(s, e)? {
                Val::C(c) => self.ops.lift(c, e.ty()),
                Val::A(x) => x,
            },
            AExpr::Var { var, ty, .. } => match s.get(self.program, *var) {
                Some(Val::C(c)) => self.ops.lift(c, *ty),
                Some(Val::A(x)) => x,
                None => self.ops.input(*ty, &mut s.path),
            },
            AExpr::Unary { op, ty, arg } => {
                let x = self.eval_abstract(s, arg)?;
                self.ops.unary(*op, *ty, &x, &mut s.path)
            }
            AExpr::Binary { op, ty, lhs, rhs } => {
                let x = self.eval_abstract(s, lhs)?;
                let y = self.eval_abstract(s, rhs)?;
                self.ops.binary(*op, *ty, rhs.ty(), &x, &y, &mut s.path)
            }
            AExpr::Cast { from, ty, arg } => {
                let x = self.eval_abstract(s, arg)?;
                self.ops.cast(*from, *ty, &x, &mut s.path)
            }
        })
    }

    fn assume(&self, s: &mut XState, cond: &Operand, positive: bool) -> Result<Option<NoSuccessor>, Halt> {
        let value = self.operand(s, cond)?;
        let a = match value {
            Val::C(c) => return Ok(((c != 0) != positive).then_some(NoSuccessor::False)),
            Val::A(a) => a,
        };
        let ty = match cond {
            Operand::Concrete(e) => e.ty(),
            Operand::Abstract(x) => x.ty(),
            Operand::Input { ty, .. } | Operand::Load { ty, .. } => *ty,
            Operand::Alloc { .. } => cfa::POINTER_TYPE,
        };
        let domain = self.ops.domain;
        let boolean = matches!(cond, Operand::Abstract(x) if x.is_boolean());
        match self.ops.truth(&a, boolean) {
            Some((may_nonzero, may_zero)) => {
                if (positive && !may_nonzero) || (!positive && !may_zero) {
                    return Ok(Some(NoSuccessor::Pruned(format!(
                        "the {domain} domain says the condition is {} ({a})",
                        if positive { "always 0" } else { "never 0" }
                    ))));
                }
                if let Operand::Abstract(x) = cond {
                    if let Some(why) = self.refine(s, x, positive) {
                        return Ok(Some(why));
                    }
                }
                Ok(None)
            }
            None => {
                let AbsValue::Term(TermValue(t)) = &a else { return Ok(None) };
                let enc = self.ops.term_encoding();
                let truth = enc.truth(t, ty);
                let c = if positive { truth } else { smt::Term::not(truth) };
                if c == smt::Term::bool(true) {
                    return Ok(None);
                }
                let q = enc.feasibility(&s.path, Some(&c), "is the branch feasible?");
                match self.oracle.ask_query(&q) {
                    Ask::Pending => Err(Halt::Pending),
                    Ask::Answer(r) if r.status() == Status::Unsat => {
                        Ok(Some(NoSuccessor::Pruned("the solver: the path condition with it is unsatisfiable".into())))
                    }
                    Ask::Answer(_) => {
                        s.path.condition.push(c);
                        debug_assert_eq!(domain, Domain::Term);
                        Ok(None)
                    }
                }
            }
        }
    }

    /// Parity and sign: narrows the variable a simple condition tests
    /// (`x < 5`, `x == c`, `x`, `!x`); `Some` when nothing is left.
    fn refine(&self, s: &mut XState, cond: &AExpr, positive: bool) -> Option<NoSuccessor> {
        let (var, rel, c) = simple_condition(cond)?;
        let rel = if positive { rel } else { negate(rel) };
        let Some(Val::A(a)) = s.get(self.program, var) else { return None };
        let narrowed = self.ops.refine(&a, rel, c);
        if self.ops.is_bottom(&narrowed) {
            let name = &self.program.variable(var).name;
            return Some(NoSuccessor::Pruned(format!("no {} value of {name} ({a}) satisfies it", self.ops.domain)));
        }
        s.set(self.program, self.model(), var, Val::A(narrowed));
        None
    }
}

fn constant(a: &AExpr) -> Option<i128> {
    match a {
        AExpr::Lift(Expr::Const { value, .. }) => Some(*value),
        _ => None,
    }
}

/// `x rel c` (or `c rel x`, `x`, `!x`) with `x` an abstract variable of the
/// comparison's own type.
fn simple_condition(cond: &AExpr) -> Option<(VarId, Rel, i128)> {
    match cond {
        AExpr::Var { var, .. } => Some((*var, Rel::Ne, 0)),
        AExpr::Unary { op: cfa::UnOp::LogNot, arg, .. } => match &**arg {
            AExpr::Var { var, .. } => Some((*var, Rel::Eq, 0)),
            _ => None,
        },
        AExpr::Binary { op, ty, lhs, rhs } => {
            let r = rel(*op)?;
            match (&**lhs, &**rhs) {
                (AExpr::Var { var, ty: vt, .. }, other) if vt == ty => Some((*var, r, constant(other)?)),
                (other, AExpr::Var { var, ty: vt, .. }) if vt == ty => Some((*var, swap(r), constant(other)?)),
                _ => None,
            }
        }
        _ => None,
    }
}

fn negate(r: Rel) -> Rel {
    match r {
        Rel::Lt => Rel::Ge,
        Rel::Le => Rel::Gt,
        Rel::Gt => Rel::Le,
        Rel::Ge => Rel::Lt,
        Rel::Eq => Rel::Ne,
        Rel::Ne => Rel::Eq,
    }
}

fn swap(r: Rel) -> Rel {
    match r {
        Rel::Lt => Rel::Gt,
        Rel::Le => Rel::Ge,
        Rel::Gt => Rel::Lt,
        Rel::Ge => Rel::Le,
        other => other,
    }
}
