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
//! (`thaw(&g)`); memory cells likewise (below). An `assume` on an abstract condition is a nondeterministic
//! choice constrained by the assumption: the explorer takes the edge when
//! the domain says the condition may hold. Where a location joins paths on
//! which a variable is concrete and others on which it is abstract, the
//! edges into it end with `lift(x)` ([`TEdge::lifts`]).
//!
//! Memory (arrays, struct fields, the heap) is kept concrete, as the
//! interpreter keeps it: objects and cells at concrete addresses, so the
//! layout never changes. A store of an abstract value writes a placeholder
//! to the cell and *freezes* the value into the shadow map entry of that
//! cell (`freeze(addr, v)`); a load *thaws* it back (`thaw(addr)`), and a
//! load of a cell without shadow entry is its concrete value. A concrete
//! store clears the cell's shadow entry.
//!
//! *Lowering* (an abstract value made concrete) is needed where a concrete
//! value is required: the address of a load, store or `free` (an array
//! index, a pointer offset) and an allocation's size. Such an address is
//! computed abstractly and lowered: `lower(a_add(a, a_mul(i, lift(4))))`
//! ([`Address::Lower`]). The explorer lowers by enumerating the
//! concretizations the domain allows: terms ask the solver for a value `k`
//! under the path condition, continue with `assume(v == k)`, and ask again
//! with `v != k` (a bounded number of times); parity and sign have infinite
//! concretizations, so a lowered address ends the path and the run can at
//! best be UNKNOWN. The verifier's external functions are already inputs
//! and assumptions in the CFA, and the explorer branches on abstract
//! conditions by choice, so nothing else lowers.

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

    /// The concrete expression the abstract one computes (lifts and thaws
    /// removed): what the explorer evaluates, abstractly where a value
    /// turns out abstract at run time.
    pub fn to_expr(&self) -> Expr {
        match self {
            AExpr::Lift(e) => e.clone(),
            AExpr::Var { var, ty, .. } => Expr::Var { var: *var, ty: *ty },
            AExpr::Unary { op, ty, arg } => Expr::Unary { op: *op, ty: *ty, arg: Box::new(arg.to_expr()) },
            AExpr::Binary { op, ty, lhs, rhs } => {
                Expr::Binary { op: *op, ty: *ty, lhs: Box::new(lhs.to_expr()), rhs: Box::new(rhs.to_expr()) }
            }
            AExpr::Cast { ty, arg, .. } => Expr::Cast { ty: *ty, arg: Box::new(arg.to_expr()) },
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

/// An address (or allocation size) a memory operation needs as a concrete
/// value.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Address {
    /// A concrete expression (unchanged).
    Concrete(Expr),
    /// `lower(a)`: the value reads abstract variables, so it is computed
    /// abstractly and lowered to the concrete values the domain allows
    /// (see the module docs).
    Lower(AExpr),
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
    /// The value of type `ty` (`bytes` wide) in the memory cell at `addr`:
    /// `thaw(addr)` when the cell's shadow entry holds a frozen abstract
    /// value, else the cell's concrete value; a cell nobody wrote (in an
    /// object not zeroed) gives an input, lifted when `lifted`.
    Load {
        /// The cell's address.
        addr: Address,
        /// The value's type.
        ty: IntType,
        /// The cell's size in bytes.
        bytes: u64,
        /// Whether an unwritten cell gives a lifted input.
        lifted: bool,
        /// Whether value propagation says the value may be abstract (some
        /// cell may hold a frozen value): the text says `thaw`.
        thaw: bool,
    },
    /// The address of a fresh object of `size` bytes (always concrete).
    Alloc {
        /// Its size in bytes.
        size: Address,
        /// Whether its bytes start at 0.
        zeroed: bool,
        /// Whether it is a heap block (`free` may end it).
        heap: bool,
    },
}

impl Operand {
    /// Whether the value is (may be, for a load) abstract.
    pub fn is_abstract(&self) -> bool {
        matches!(self, Operand::Abstract(_) | Operand::Input { lifted: true, .. } | Operand::Load { thaw: true, .. })
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
    /// `*addr = value` into memory (`a[i] = v`, `p->f = v`): a concrete
    /// value is written to the cell and clears its shadow entry; an
    /// abstract one is frozen (`freeze(addr, v)`: a placeholder in the
    /// cell, the value in its shadow entry).
    MemStore {
        /// The cell's address.
        addr: Address,
        /// The value.
        value: Operand,
        /// The cell's size in bytes.
        bytes: u64,
        /// Whether value propagation says the value may be abstract.
        freeze: bool,
    },
    /// `free(addr)`: the object's cells and shadow entries end.
    Free {
        /// The heap block's address.
        addr: Address,
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

/// The address (or size) `e` in a state where the variables of `set` may be
/// abstract: lowered when it reads one.
pub fn address(program: &Program, set: &BTreeSet<VarId>, e: &Expr) -> Address {
    if Abstractness::reads_abstract(set, e) {
        Address::Lower(abstract_expr(program, set, e))
    } else {
        Address::Concrete(e.clone())
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
        Rhs::Load { addr, ty, bytes, .. } => Operand::Load {
            addr: address(program, set, addr),
            ty: *ty,
            bytes: *bytes,
            lifted: a.lifts_inputs() || a.lifted().contains(&var),
            thaw: must_be_abstract,
        },
        Rhs::Alloc { size, zeroed, heap } => Operand::Alloc { size: address(program, set, size), zeroed: *zeroed, heap: *heap },
        Rhs::Expr(e) => match operand(program, set, e) {
            Operand::Concrete(e) if must_be_abstract => Operand::Abstract(AExpr::Lift(e)),
            other => other,
        },
    }
}

/// Transforms `program` (see the module docs); an error only for a
/// `--lift` variable the program does not have.
pub fn transform(program: &Program, options: &Options) -> Result<Transformed, String> {
    let a = propagate(program, options)?;
    let mut edges = Vec::with_capacity(program.edges.len());
    for e in &program.edges {
        let set = a.at(e.source);
        let global = |v: VarId| program.variable(v).is_global();
        let op = match &e.kind {
            EdgeKind::Blank => TOp::Blank,
            EdgeKind::Store { addr, value, bytes, .. } => {
                let value = operand(program, set, value);
                TOp::MemStore { addr: address(program, set, addr), freeze: value.is_abstract(), value, bytes: *bytes }
            }
            EdgeKind::Free { addr } => TOp::Free { addr: address(program, set, addr) },
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
