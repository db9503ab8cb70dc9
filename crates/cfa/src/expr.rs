//! The expression IR on CFA edges and its integer semantics.
//!
//! Lowering removes everything with side effects or control flow (calls,
//! assignments, `&&`, `||`, `?:`, comma) from expressions, so an [`Expr`]
//! here is pure. Implicit conversions are explicit: every operand of a
//! [`Expr::Binary`] already has the operation's type `ty` (a `Cast` was
//! inserted where C converts), so evaluating is "evaluate operands, apply the
//! operator, convert the result to `ty`". The same functions serve the
//! concrete interpreter and the value analysis, so they cannot disagree.

use crate::VarId;
use minic::ast::{BinaryOp, UnaryOp};
use minic::types::{IntModel, IntType};
use serde::{Deserialize, Serialize};

/// Unary operators of the IR. `+e` disappears in lowering.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum UnOp {
    /// `-e`
    Neg,
    /// `~e`
    BitNot,
    /// `!e` (result type `int`: 1 if `e == 0`, else 0)
    LogNot,
}

/// Binary operators of the IR (no `&&`/`||`: they became control flow).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    BitAnd,
    BitOr,
    BitXor,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

impl BinOp {
    /// Comparisons yield `int` 0/1 whatever their operand type.
    pub fn is_comparison(self) -> bool {
        matches!(self, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne)
    }

    /// The C spelling (the front end's, [`BinaryOp::symbol`]).
    pub fn symbol(self) -> &'static str {
        self.source().symbol()
    }

    /// The front end's operator this one lowers from.
    pub fn source(self) -> BinaryOp {
        OPERATORS.iter().find(|(_, ir)| *ir == self).map(|(op, _)| *op).expect("every IR operator has a source operator")
    }

    /// The IR operator of a front-end operator; `None` for `&&` and `||`,
    /// which lowering turns into control flow.
    pub fn lowered(op: BinaryOp) -> Option<BinOp> {
        OPERATORS.iter().find(|(source, _)| *source == op).map(|(_, ir)| *ir)
    }

    /// The comparison that holds exactly when `self` does not (`<` ↦ `>=`).
    pub fn negate_comparison(self) -> Option<BinOp> {
        use BinOp::*;
        Some(match self {
            Lt => Ge,
            Le => Gt,
            Gt => Le,
            Ge => Lt,
            Eq => Ne,
            Ne => Eq,
            _ => return None,
        })
    }

    /// The comparison with operands swapped (`a < b` ⇔ `b > a`).
    pub fn swap_comparison(self) -> Option<BinOp> {
        use BinOp::*;
        Some(match self {
            Lt => Gt,
            Le => Ge,
            Gt => Lt,
            Ge => Le,
            Eq => Eq,
            Ne => Ne,
            _ => return None,
        })
    }
}

/// The front end's binary operators and the IR operator each lowers to,
/// one row per IR operator (`&&` and `||` have none).
const OPERATORS: [(BinaryOp, BinOp); 16] = [
    (BinaryOp::Add, BinOp::Add),
    (BinaryOp::Sub, BinOp::Sub),
    (BinaryOp::Mul, BinOp::Mul),
    (BinaryOp::Div, BinOp::Div),
    (BinaryOp::Rem, BinOp::Rem),
    (BinaryOp::Shl, BinOp::Shl),
    (BinaryOp::Shr, BinOp::Shr),
    (BinaryOp::BitAnd, BinOp::BitAnd),
    (BinaryOp::BitOr, BinOp::BitOr),
    (BinaryOp::BitXor, BinOp::BitXor),
    (BinaryOp::Lt, BinOp::Lt),
    (BinaryOp::Le, BinOp::Le),
    (BinaryOp::Gt, BinOp::Gt),
    (BinaryOp::Ge, BinOp::Ge),
    (BinaryOp::Eq, BinOp::Eq),
    (BinaryOp::Ne, BinOp::Ne),
];

impl UnOp {
    /// The C spelling (the front end's, [`UnaryOp::symbol`]).
    pub fn symbol(self) -> &'static str {
        match self {
            UnOp::Neg => UnaryOp::Neg,
            UnOp::BitNot => UnaryOp::BitNot,
            UnOp::LogNot => UnaryOp::Not,
        }
        .symbol()
    }
}

/// A pure, typed expression over program variables.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Expr {
    /// A constant of type `ty` (already in range for `ty` under the C model).
    Const { value: i128, ty: IntType },
    /// The current value of a variable, of its declared type.
    Var { var: VarId, ty: IntType },
    /// `op arg`, computed in type `ty` (`arg` has type `ty`; for `LogNot` the
    /// result is `int`).
    Unary { op: UnOp, ty: IntType, arg: Box<Expr> },
    /// `lhs op rhs`, both operands of type `ty` (for shifts: `lhs` of type
    /// `ty`, `rhs` of its own promoted type); comparisons yield `int`.
    Binary { op: BinOp, ty: IntType, lhs: Box<Expr>, rhs: Box<Expr> },
    /// Conversion of `arg` to `ty`.
    Cast { ty: IntType, arg: Box<Expr> },
}

impl Expr {
    /// The C type of the expression's value.
    pub fn ty(&self) -> IntType {
        match self {
            Expr::Const { ty, .. } | Expr::Var { ty, .. } | Expr::Cast { ty, .. } => *ty,
            Expr::Unary { op: UnOp::LogNot, .. } => IntType::Int,
            Expr::Unary { ty, .. } => *ty,
            Expr::Binary { op, ty, .. } => {
                if op.is_comparison() {
                    IntType::Int
                } else {
                    *ty
                }
            }
        }
    }

    /// An `int` constant.
    pub fn int(value: i128) -> Expr {
        Expr::Const { value, ty: IntType::Int }
    }

    /// Every variable the expression reads, in order of first occurrence.
    pub fn variables(&self) -> Vec<VarId> {
        let mut out = Vec::new();
        self.collect_vars(&mut out);
        out
    }

    fn collect_vars(&self, out: &mut Vec<VarId>) {
        match self {
            Expr::Const { .. } => {}
            Expr::Var { var, .. } => {
                if !out.contains(var) {
                    out.push(*var)
                }
            }
            Expr::Unary { arg, .. } | Expr::Cast { arg, .. } => arg.collect_vars(out),
            Expr::Binary { lhs, rhs, .. } => {
                lhs.collect_vars(out);
                rhs.collect_vars(out);
            }
        }
    }

    /// Evaluates the expression with `lookup` giving variable values
    /// (`None`: unknown). `Ok(None)` means "some operand unknown";
    /// `Err` means the operation has no defined result (see [`EvalError`]).
    pub fn eval(&self, model: IntModel, lookup: &mut dyn FnMut(VarId) -> Option<i128>) -> Result<Option<i128>, EvalError> {
        Ok(match self {
            Expr::Const { value, .. } => Some(*value),
            Expr::Var { var, .. } => lookup(*var),
            Expr::Unary { op, ty, arg } => match arg.eval(model, lookup)? {
                None => None,
                Some(v) => Some(eval_unary(*op, *ty, v, model)?),
            },
            Expr::Cast { ty, arg } => arg.eval(model, lookup)?.map(|v| ty.convert(v, model)),
            Expr::Binary { op, ty, lhs, rhs } => {
                let l = lhs.eval(model, lookup)?;
                let r = rhs.eval(model, lookup)?;
                match (l, r) {
                    (Some(a), Some(b)) => Some(eval_binary(*op, *ty, a, b, model)?),
                    _ => None,
                }
            }
        })
    }
}

/// Why an operation has no defined value. Analyses treat such a result as an
/// arbitrary value of the type (`docs/minic.md`: division by zero is not a property).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EvalError {
    DivisionByZero,
    /// Shift by a negative amount or by at least the width of the type (C model),
    /// or by more than 127 bits (math model).
    BadShift,
    /// The mathematical result does not fit the interpreter's 128-bit integers.
    Overflow128,
}

impl std::fmt::Display for EvalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            EvalError::DivisionByZero => "division by zero",
            EvalError::BadShift => "shift amount out of range",
            EvalError::Overflow128 => "value exceeds 128-bit range",
        })
    }
}

/// `op v` in type `ty` under `model`.
pub fn eval_unary(op: UnOp, ty: IntType, v: i128, model: IntModel) -> Result<i128, EvalError> {
    Ok(match op {
        UnOp::Neg => ty.convert(v.checked_neg().ok_or(EvalError::Overflow128)?, model),
        UnOp::BitNot => ty.convert(!v, model),
        UnOp::LogNot => (v == 0) as i128,
    })
}

/// `a op b` with operands of type `ty`, under `model`. Division and remainder
/// truncate toward zero (C). Comparisons give 0/1. Under the C model the
/// result wraps into `ty`; under the math model only `_Bool` normalizes.
pub fn eval_binary(op: BinOp, ty: IntType, a: i128, b: i128, model: IntModel) -> Result<i128, EvalError> {
    use BinOp::*;
    let raw = match op {
        Add => a.checked_add(b).ok_or(EvalError::Overflow128)?,
        Sub => a.checked_sub(b).ok_or(EvalError::Overflow128)?,
        Mul => a.checked_mul(b).ok_or(EvalError::Overflow128)?,
        Div => {
            if b == 0 {
                return Err(EvalError::DivisionByZero);
            }
            a.checked_div(b).ok_or(EvalError::Overflow128)?
        }
        Rem => {
            if b == 0 {
                return Err(EvalError::DivisionByZero);
            }
            a.checked_rem(b).ok_or(EvalError::Overflow128)?
        }
        Shl | Shr => {
            let limit = match model {
                IntModel::C => ty.bits() as i128,
                IntModel::Math => 127,
            };
            if b < 0 || b >= limit {
                return Err(EvalError::BadShift);
            }
            if op == Shl {
                a.checked_mul(1i128 << b).ok_or(EvalError::Overflow128)?
            } else {
                a >> b
            }
        }
        BitAnd => a & b,
        BitOr => a | b,
        BitXor => a ^ b,
        Lt => return Ok((a < b) as i128),
        Le => return Ok((a <= b) as i128),
        Gt => return Ok((a > b) as i128),
        Ge => return Ok((a >= b) as i128),
        Eq => return Ok((a == b) as i128),
        Ne => return Ok((a != b) as i128),
    };
    Ok(ty.convert(raw, model))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ir_operator_lowers_from_one_source_operator_and_is_spelled_like_it() {
        for (source, ir) in OPERATORS {
            assert_eq!(ir.source(), source);
            assert_eq!(BinOp::lowered(source), Some(ir));
            assert_eq!(ir.symbol(), source.symbol());
        }
        assert_eq!(BinOp::Shl.symbol(), "<<");
        assert_eq!(BinOp::Ne.symbol(), "!=");
        assert_eq!(BinOp::lowered(BinaryOp::LogAnd), None);
        assert_eq!(BinOp::lowered(BinaryOp::LogOr), None);
        assert_eq!([UnOp::Neg, UnOp::BitNot, UnOp::LogNot].map(UnOp::symbol), ["-", "~", "!"]);
    }

    #[test]
    fn unsigned_wraps_only_under_c() {
        let r = eval_binary(BinOp::Sub, IntType::UInt, 0, 1, IntModel::C).unwrap();
        assert_eq!(r, 4294967295);
        let r = eval_binary(BinOp::Sub, IntType::UInt, 0, 1, IntModel::Math).unwrap();
        assert_eq!(r, -1);
    }

    #[test]
    fn division_truncates_toward_zero() {
        assert_eq!(eval_binary(BinOp::Div, IntType::Int, -7, 2, IntModel::C).unwrap(), -3);
        assert_eq!(eval_binary(BinOp::Rem, IntType::Int, -7, 2, IntModel::C).unwrap(), -1);
        assert_eq!(eval_binary(BinOp::Div, IntType::Int, 1, 0, IntModel::C), Err(EvalError::DivisionByZero));
    }

    #[test]
    fn comparisons_are_zero_one() {
        assert_eq!(eval_binary(BinOp::Lt, IntType::Int, 1, 2, IntModel::C).unwrap(), 1);
        assert_eq!(eval_binary(BinOp::Ge, IntType::Int, 1, 2, IntModel::C).unwrap(), 0);
    }
}
