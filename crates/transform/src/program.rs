//! The transformed program: every CFA edge rewritten to compute on abstract
//! values where value propagation ([`crate::propagate`]) says they may be.
//!
//! Per edge ([`TEdge`]) one operation ([`TOp`]) whose values are
//! [`Operand`]s: a concrete expression (unchanged), an input (`*`, or
//! `lift(*)` when inputs are lifted), or an abstract expression
//! ([`AExpr`]) — the domain's operations `a_add`, `a_lt`, … over abstract
//! variables, with a *lifter* `lift(e)` where an operand is concrete (the
//! paper's `lifter_add`: `x + 1` with `x` abstract is
//! `a_add(x, lift(1))`). Globals are memory: an abstract value stored to a
//! global is *frozen* into the global's shadow slot (`freeze(&g, v)`, the
//! global's concrete slot keeps its place) and *thawed* when read
//! (`thaw(&g)`). An `assume` on an abstract condition is a nondeterministic
//! choice constrained by the assumption: the explorer takes the edge when
//! the domain says the condition may hold. Where a location joins paths on
//! which a variable is concrete and others on which it is abstract, the
//! edges into it end with `lift(x)` ([`TEdge::lifts`]).
//!
//! *Lowering* (an abstract value made concrete, by enumerating or
//! constraining its concretizations) is needed where a concrete value is
//! required: a call to an external function, an array index or a pointer
//! offset. mini-C has none of them yet (its only external functions are
//! the verifier's, which the CFA already turned into inputs and
//! assumptions), and the explorer branches on abstract conditions by
//! choice, so no transformed edge lowers; the text says so.

use crate::options::Options;
use crate::propagate::{after_edge, propagate, Abstractness};
use cfa::{BinOp, EdgeId, EdgeKind, Expr, FuncId, Program, Rhs, UnOp, VarId};
use minic::IntType;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// An expression over abstract values: what the domain computes.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AExpr {
    /// `lift(e)`: a concrete (sub)expression made abstract.
    Lift(Expr),
    /// An abstract variable's value; `thaw` for a global (read from its
    /// shadow slot).
    Var {
        /// The variable.
        var: VarId,
        /// Its type.
        ty: IntType,
        /// Whether it is a global (`thaw(&g)`).
        thaw: bool,
    },
    /// `a_neg`, `a_bitnot`, `a_not` of an abstract value.
    Unary {
        /// The operator.
        op: UnOp,
        /// The operation's type.
        ty: IntType,
        /// The operand.
        arg: Box<AExpr>,
    },
    /// `a_add`, `a_lt`, … of two abstract values.
    Binary {
        /// The operator.
        op: BinOp,
        /// The operation's type.
        ty: IntType,
        /// The left operand.
        lhs: Box<AExpr>,
        /// The right operand.
        rhs: Box<AExpr>,
    },
    /// `a_cast`: conversion of an abstract value to type `ty`.
    Cast {
        /// The operand's type.
        from: IntType,
        /// The target type.
        ty: IntType,
        /// The operand.
        arg: Box<AExpr>,
    },
}

impl AExpr {
    /// The C type of the value.
    pub fn ty(&self) -> IntType {
        match self {
            AExpr::Lift(e) => e.ty(),
            AExpr::Var { ty, .. } | AExpr::Cast { ty, .. } => *ty,
            AExpr::Unary { op: UnOp::LogNot, .. } => IntType::Int,
            AExpr::Unary { ty, .. } => *ty,
            AExpr::Binary { op, ty, .. } => {
                if op.is_comparison() {
                    IntType::Int
                } else {
                    *ty
                }
            }
        }
    }

    /// Every variable the expression reads (abstract ones and those inside
    /// lifted subexpressions), in order of first occurrence — the order in
    /// which the interpreter takes inputs for unset ones.
    pub fn variables(&self) -> Vec<VarId> {
        let mut out = Vec::new();
        self.collect(&mut out);
        out
    }

    fn collect(&self, out: &mut Vec<VarId>) {
        match self {
            AExpr::Lift(e) => {
                for v in e.variables() {
                    if !out.contains(&v) {
                        out.push(v)
                    }
                }
            }
            AExpr::Var { var, .. } => {
                if !out.contains(var) {
                    out.push(*var)
                }
            }
            AExpr::Unary { arg, .. } | AExpr::Cast { arg, .. } => arg.collect(out),
            AExpr::Binary { lhs, rhs, .. } => {
                lhs.collect(out);
                rhs.collect(out);
            }
        }
    }

    /// Whether the value is 0 or 1 by construction (a comparison, `!`, a
    /// conversion to `_Bool`): then an even parity means 0 and an odd one 1.
    pub fn is_boolean(&self) -> bool {
        match self {
            AExpr::Binary { op, .. } => op.is_comparison(),
            AExpr::Unary { op: UnOp::LogNot, .. } => true,
            AExpr::Cast { ty, .. } => *ty == IntType::Bool,
            AExpr::Var { ty, .. } => *ty == IntType::Bool,
            AExpr::Lift(e) => e.ty() == IntType::Bool,
            AExpr::Unary { .. } => false,
        }
    }

    /// How many domain operations (`a_op`, `lift`, `thaw`) it performs.
    pub fn operations(&self) -> usize {
        match self {
            AExpr::Lift(_) | AExpr::Var { .. } => 1,
            AExpr::Unary { arg, .. } | AExpr::Cast { arg, .. } => 1 + arg.operations(),
            AExpr::Binary { lhs, rhs, .. } => 1 + lhs.operations() + rhs.operations(),
        }
    }
}

/// A value a transformed edge computes.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Operand {
    /// An unchanged concrete expression.
    Concrete(Expr),
    /// An abstract expression.
    Abstract(AExpr),
    /// A nondeterministic input of type `ty`: `*` read from the input list,
    /// or, when `lifted`, `lift(*)` — any value of the type, abstractly.
    Input {
        /// The input's type.
        ty: IntType,
        /// Whether it is lifted.
        lifted: bool,
    },
}

impl Operand {
    /// Whether the value is abstract.
    pub fn is_abstract(&self) -> bool {
        matches!(self, Operand::Abstract(_) | Operand::Input { lifted: true, .. })
    }
}

/// The operation of one transformed edge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TOp {
    /// No operation.
    Blank,
    /// `var = value` (a declaration when `declare`); a global receiving an
    /// abstract value is frozen (`freeze(&g, value)`).
    Store {
        /// The variable.
        var: VarId,
        /// The value.
        value: Operand,
        /// Whether this is a declaration with initializer.
        declare: bool,
        /// Whether the store freezes an abstract value into a global.
        freeze: bool,
    },
    /// A declaration without initializer: the variable holds no value; its
    /// first read takes an input (lifted when `lifted`).
    Unset {
        /// The variable.
        var: VarId,
        /// Whether that input is lifted.
        lifted: bool,
    },
    /// `assume(cond)` (`positive`) or `assume(!cond)`; on an abstract
    /// condition a nondeterministic choice constrained by the assumption.
    Assume {
        /// The condition.
        cond: Operand,
        /// Which branch.
        positive: bool,
    },
    /// A call: the parameters receive the arguments.
    Call {
        /// The function called.
        callee: FuncId,
        /// The arguments, one per parameter.
        args: Vec<Operand>,
    },
    /// `return e;` into the function's return slot (`slot`, when it has one).
    ReturnValue {
        /// The return slot.
        slot: Option<VarId>,
        /// The value.
        value: Option<Operand>,
    },
    /// The return to the caller; `result` receives the callee's return slot
    /// (an input when the callee never set it: lifted when `lifted`).
    Return {
        /// The function returning.
        callee: FuncId,
        /// The caller's variable receiving the result.
        result: Option<VarId>,
        /// Whether a missing result is a lifted input.
        lifted: bool,
        /// Whether the result is frozen into a global.
        freeze: bool,
    },
    /// `abort()` / `exit()`.
    Terminate,
    /// `reach_error()`.
    ReachError,
}

/// One transformed CFA edge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TEdge {
    /// The original edge (same source and target).
    pub edge: EdgeId,
    /// What it does.
    pub op: TOp,
    /// Variables lifted after the operation because the target location
    /// joins paths where they are abstract (`x = lift(x)`).
    pub lifts: Vec<VarId>,
}

/// A whole transformed program (see the module docs).
#[derive(Clone, Debug)]
pub struct Transformed {
    /// One transformed edge per CFA edge, indexed by edge id.
    pub edges: Vec<TEdge>,
    /// What value propagation found.
    pub abstractness: Abstractness,
    /// The options it was made with.
    pub options: Options,
}

impl Transformed {
    /// The transformed edge of `id`.
    pub fn edge(&self, id: EdgeId) -> &TEdge {
        &self.edges[id.0 as usize]
    }

    /// Whether a read of `var` while it holds no value is a lifted input.
    pub fn lifted_input(&self, var: VarId) -> bool {
        self.options.lifts_inputs() || self.abstractness.lifted().contains(&var)
    }
}

/// The operand computing `e` in a state where the variables of `set` may be
/// abstract.
pub fn operand(program: &Program, set: &BTreeSet<VarId>, e: &Expr) -> Operand {
    if Abstractness::reads_abstract(set, e) {
        Operand::Abstract(abstract_expr(program, set, e))
    } else {
        Operand::Concrete(e.clone())
    }
}

fn abstract_expr(program: &Program, set: &BTreeSet<VarId>, e: &Expr) -> AExpr {
    if !Abstractness::reads_abstract(set, e) {
        return AExpr::Lift(e.clone());
    }
    match e {
        Expr::Var { var, ty } => AExpr::Var { var: *var, ty: *ty, thaw: program.variable(*var).is_global() },
        Expr::Unary { op, ty, arg } => AExpr::Unary { op: *op, ty: *ty, arg: Box::new(abstract_expr(program, set, arg)) },
        Expr::Binary { op, ty, lhs, rhs } => AExpr::Binary {
            op: *op,
            ty: *ty,
            lhs: Box::new(abstract_expr(program, set, lhs)),
            rhs: Box::new(abstract_expr(program, set, rhs)),
        },
        Expr::Cast { ty, arg } => AExpr::Cast { from: arg.ty(), ty: *ty, arg: Box::new(abstract_expr(program, set, arg)) },
        Expr::Const { .. } => AExpr::Lift(e.clone()),
    }
}

/// A value stored into `var`: lifted when `var` must be abstract afterwards.
fn stored(program: &Program, a: &Abstractness, set: &BTreeSet<VarId>, var: VarId, rhs: &Rhs) -> Operand {
    let must_be_abstract = a.rhs_is_abstract(set, var, Some(rhs));
    match rhs {
        Rhs::Nondet(ty) => Operand::Input { ty: *ty, lifted: must_be_abstract },
        // Memory is not modelled yet: whatever it holds is a lifted input.
        Rhs::Load { ty, .. } => Operand::Input { ty: *ty, lifted: true },
        Rhs::Alloc { .. } => Operand::Input { ty: cfa::POINTER_TYPE, lifted: true },
        Rhs::Expr(e) => match operand(program, set, e) {
            Operand::Concrete(e) if must_be_abstract => Operand::Abstract(AExpr::Lift(e)),
            other => other,
        },
    }
}

/// Transforms `program` (see the module docs); an error only for a
/// `--lift` variable the program does not have. Memory (pointers, arrays,
/// structs) is not frozen and thawed yet: a value read from memory or a
/// fresh allocation is a lifted input (any value), and a store or `free`
/// changes nothing the explorer tracks — an over-approximation, as in the
/// analyses without a memory model.
pub fn transform(program: &Program, options: &Options) -> Result<Transformed, String> {
    let a = propagate(program, options)?;
    let mut edges = Vec::with_capacity(program.edges.len());
    for e in &program.edges {
        let set = a.at(e.source);
        let global = |v: VarId| program.variable(v).is_global();
        let op = match &e.kind {
            EdgeKind::Blank | EdgeKind::Store { .. } | EdgeKind::Free { .. } => TOp::Blank,
            EdgeKind::Terminate => TOp::Terminate,
            EdgeKind::ReachError => TOp::ReachError,
            EdgeKind::Declare { var, init: None } => {
                TOp::Unset { var: *var, lifted: options.lifts_inputs() || a.lifted().contains(var) }
            }
            EdgeKind::Declare { var, init: Some(rhs) } | EdgeKind::Assign { var, rhs } => {
                let value = stored(program, &a, set, *var, rhs);
                let freeze = global(*var) && value.is_abstract();
                TOp::Store { var: *var, value, declare: matches!(e.kind, EdgeKind::Declare { .. }), freeze }
            }
            EdgeKind::Assume { cond, positive } => TOp::Assume { cond: operand(program, set, cond), positive: *positive },
            EdgeKind::Call { callee, args, .. } => {
                let params = &program.function(*callee).params;
                let args = args
                    .iter()
                    .zip(params.iter().map(Some).chain(std::iter::repeat(None)))
                    .map(|(arg, p)| match operand(program, set, arg) {
                        Operand::Concrete(x) if p.is_some_and(|p| a.lifted().contains(p)) => Operand::Abstract(AExpr::Lift(x)),
                        other => other,
                    })
                    .collect();
                TOp::Call { callee: *callee, args }
            }
            EdgeKind::ReturnStatement { value } => {
                let slot = program.return_slot_at(e.source);
                let value = value.as_ref().map(|v| match operand(program, set, v) {
                    Operand::Concrete(x) if slot.is_some_and(|s| a.lifted().contains(&s)) => Operand::Abstract(AExpr::Lift(x)),
                    other => other,
                });
                TOp::ReturnValue { slot, value }
            }
            EdgeKind::Return { callee, result, .. } => {
                let ret_abstract = program.function(*callee).ret.is_some_and(|r| set.contains(&r));
                TOp::Return {
                    callee: *callee,
                    result: *result,
                    lifted: options.lifts_inputs() || result.is_some_and(|r| a.lifted().contains(&r)),
                    freeze: result.is_some_and(|r| global(r) && ret_abstract),
                }
            }
        };
        let after = after_edge(&a, program, e);
        let lifts = a.at(e.target).iter().copied().filter(|v| !after.contains(v)).collect();
        edges.push(TEdge { edge: e.id, op, lifts });
    }
    Ok(Transformed { edges, abstractness: a, options: options.clone() })
}
