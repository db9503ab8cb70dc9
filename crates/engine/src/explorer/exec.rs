//! Running one transformed edge on an explorer state: the transformed
//! program's semantics. Concrete operations are `cfa::Expr::eval` (the
//! interpreter's semantics); `lift`, `a_op`, `freeze`/`thaw` go to the
//! domain ([`transform::value::Ops`]); an assumption on an abstract
//! condition is a choice the domain must allow (parity, sign: the value may
//! be non-zero / zero; terms: the path condition with it is satisfiable —
//! asked through the run's [`SolverOracle`], so the page can answer later).
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
use transform::program::{AExpr, Operand, TOp};
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

/// The result of running one edge.
#[derive(Clone, Debug)]
pub enum EdgeResult {
    /// The successor.
    Next(Box<XState>),
    /// No successor, and why.
    None(NoSuccessor),
    /// A solver query is pending (asked through the oracle).
    Pending,
}

enum Halt {
    Undefined(String),
    Inputs,
    Pending,
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
        let mut s = state.clone();
        let e = self.program.edge(edge);
        let te = self.transformed.edge(edge);
        let r = self.apply(&mut s, &te.op, e);
        match r {
            Ok(None) => {}
            Ok(Some(why)) => return EdgeResult::None(why),
            Err(Halt::Pending) => return EdgeResult::Pending,
            Err(Halt::Undefined(what)) => return EdgeResult::None(NoSuccessor::Stuck(what)),
            Err(Halt::Inputs) => return EdgeResult::None(NoSuccessor::Stuck("the input list ran out".into())),
        }
        for v in &te.lifts {
            if let Some(Val::C(c)) = s.get(self.program, *v) {
                let ty = self.program.variable(*v).ty;
                s.set(self.program, self.model(), *v, Val::A(self.ops.lift(c, ty)));
            }
        }
        s.node = e.target;
        EdgeResult::Next(Box::new(s))
    }

    fn apply(&self, s: &mut XState, op: &TOp, e: &cfa::Edge) -> Result<Option<NoSuccessor>, Halt> {
        let p = self.program;
        match op {
            TOp::Blank | TOp::Terminate | TOp::ReachError => {}
            TOp::Unset { var, .. } => s.unset(p, *var),
            TOp::Store { var, value, .. } => {
                let v = self.operand(s, value)?;
                s.set(p, self.model(), *var, v);
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
            Operand::Input { ty, .. } => *ty,
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
                match self.oracle.ask(&q.to_smtlib()) {
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
