//! The integer-model caveat of a TRUE under mathematical integers.
//!
//! `analysis.intModel = MATH` is a teaching option: the analysis proves the
//! program over unbounded integers, which is *not* C. When such a run
//! answers TRUE, this module looks for the first operation the analysis
//! reached whose C result can differ from its mathematical one — an
//! arithmetic result outside its type's range (overflow or unsigned
//! wrap-around), a conversion to a type that cannot hold the value (narrowing,
//! signed ↔ unsigned), a shift, `~` on an unsigned type — and names it, so the
//! verdict can say "TRUE, but only over mathematical integers".
//!
//! "Reached" and "can differ" are judged with what the analysis itself knows:
//! only edges leaving a location that holds a reached state are looked at, and
//! an operation is passed over only when the reached states there bound its
//! operands so tightly that the C and the mathematical results agree (e.g.
//! `i + 1` under a loop guard `i < 10` in an octagon or value analysis). Where
//! the analysis knows no bounds (a symbolic value, an untracked variable), the
//! operation is named: the caveat errs on the side of warning.
//!
//! Why "no caveat" means "C agrees": every operation is judged with its
//! variables inside their types' ranges (as in C). If no reached operation
//! can leave its type's range from in-range operands, then by induction along
//! any execution every value stays in range, where the two models coincide.

use cfa::{BinOp, Expr, NodeId, Program, UnOp, VarId};
use minic::types::IntType;
use serde::{Deserialize, Serialize};

/// An interval of mathematical integers; `None` is an infinite end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    /// The least value, if bounded below.
    pub lo: Option<i128>,
    /// The greatest value, if bounded above.
    pub hi: Option<i128>,
}

impl Range {
    /// Every integer (nothing known).
    pub const TOP: Range = Range { lo: None, hi: None };

    /// Exactly `v`.
    pub fn exact(v: i128) -> Range {
        Range { lo: Some(v), hi: Some(v) }
    }

    /// The range of C type `ty`.
    pub fn of_type(ty: IntType) -> Range {
        Range { lo: Some(ty.min_value()), hi: Some(ty.max_value()) }
    }

    /// The smallest range containing both (the interval join `a ⊔ b`).
    pub fn hull(self, other: Range) -> Range {
        Range { lo: self.lo.and_then(|a| other.lo.map(|b| a.min(b))), hi: self.hi.and_then(|a| other.hi.map(|b| a.max(b))) }
    }

    /// The intersection (the interval meet `a ⊓ b`); components that know
    /// bounds of the same variable each narrow it.
    pub fn meet(self, other: Range) -> Range {
        let pick = |a: Option<i128>, b: Option<i128>, f: fn(i128, i128) -> i128| match (a, b) {
            (Some(x), Some(y)) => Some(f(x, y)),
            (x, None) => x,
            (None, y) => y,
        };
        Range { lo: pick(self.lo, other.lo, i128::max), hi: pick(self.hi, other.hi, i128::min) }
    }

    /// Whether every value of `self` is a value of type `ty`.
    pub fn fits(self, ty: IntType) -> bool {
        matches!((self.lo, self.hi), (Some(lo), Some(hi)) if lo >= ty.min_value() && hi <= ty.max_value())
    }

    fn bounded(self) -> Option<(i128, i128)> {
        Some((self.lo?, self.hi?))
    }

    /// The range of `f(a, b)` for a monotone-in-each-argument `f`, from the
    /// four corners (exact for `+`, `-`, `*` on bounded ranges).
    fn corners(a: Range, b: Range, f: fn(i128, i128) -> Option<i128>) -> Range {
        let (Some((a0, a1)), Some((b0, b1))) = (a.bounded(), b.bounded()) else { return Range::TOP };
        let vals: Option<Vec<i128>> = [(a0, b0), (a0, b1), (a1, b0), (a1, b1)].iter().map(|&(x, y)| f(x, y)).collect();
        match vals {
            Some(v) => Range { lo: v.iter().min().copied(), hi: v.iter().max().copied() },
            None => Range::TOP,
        }
    }
}

/// What a TRUE under `math` leaves open: the first reached operation whose C
/// result can differ from the mathematical one (JSON `int_model_caveat`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IntModelCaveat {
    /// 1-based source line of the statement.
    pub line: u32,
    /// 1-based source column of the statement.
    pub column: u32,
    /// The operation, as C text (`x + 1`, `(char) c`).
    pub operation: String,
    /// Why its C result can differ, in words.
    pub why: String,
}

impl IntModelCaveat {
    /// The sentence a verdict carries.
    pub fn message(&self) -> String {
        format!(
            "proved over mathematical integers only: under C's integers the result could differ — line {}, column {}: `{}` {}",
            self.line, self.column, self.operation, self.why
        )
    }
}

/// The first operation (in source order) on an edge leaving a location in
/// `reached` whose C result can differ from its mathematical result, given
/// `bounds(node, var)`: what the reached states at `node` know of `var` (the
/// hull over those states; [`Range::TOP`] when nothing is known).
pub fn find(
    program: &Program,
    reached: &dyn Fn(NodeId) -> bool,
    bounds: &dyn Fn(NodeId, VarId) -> Range,
) -> Option<IntModelCaveat> {
    let mut edges: Vec<_> = program.edges.iter().filter(|e| reached(e.source)).collect();
    edges.sort_by_key(|e| (e.span.line, e.span.col, e.id));
    for edge in edges {
        let look = |var: VarId| bounds(edge.source, var);
        for e in edge.kind.expressions() {
            if let Some((operation, why)) = first_difference(program, e, &look) {
                return Some(IntModelCaveat { line: edge.span.line, column: edge.span.col, operation, why });
            }
        }
    }
    None
}

/// The range of `e` under mathematical integers (conversions change nothing
/// there, except to `_Bool`).
fn range(e: &Expr, look: &dyn Fn(VarId) -> Range) -> Range {
    match e {
        Expr::Const { value, .. } => Range::exact(*value),
        // In C a variable always holds a value of its type. Under `math` it
        // can hold more only after an operation that left the type's range
        // — and that operation is named first — so judging every operation
        // with in-range variables finds a difference if there is one.
        Expr::Var { var, ty } => look(*var).meet(Range::of_type(*ty)),
        Expr::Cast { ty: IntType::Bool, .. } => Range { lo: Some(0), hi: Some(1) },
        Expr::Cast { arg, .. } => range(arg, look),
        Expr::Unary { op: UnOp::Neg, arg, .. } => {
            let r = range(arg, look);
            Range { lo: r.hi.and_then(i128::checked_neg), hi: r.lo.and_then(i128::checked_neg) }
        }
        Expr::Unary { op: UnOp::LogNot, .. } => Range { lo: Some(0), hi: Some(1) },
        Expr::Unary { op: UnOp::BitNot, arg, .. } => {
            // ~v = -v - 1 over mathematical integers.
            let r = range(arg, look);
            Range {
                lo: r.hi.and_then(|h| h.checked_neg()?.checked_sub(1)),
                hi: r.lo.and_then(|l| l.checked_neg()?.checked_sub(1)),
            }
        }
        Expr::Binary { op, lhs, rhs, .. } => {
            if op.is_comparison() {
                return Range { lo: Some(0), hi: Some(1) };
            }
            let (a, b) = (range(lhs, look), range(rhs, look));
            match op {
                BinOp::Add => Range::corners(a, b, i128::checked_add),
                BinOp::Sub => Range::corners(a, b, i128::checked_sub),
                BinOp::Mul => Range::corners(a, b, i128::checked_mul),
                _ => match (a.bounded(), b.bounded()) {
                    (Some((x, y)), Some((u, v))) if x == y && u == v => {
                        cfa::expr::eval_binary(*op, e.ty(), x, u, minic::IntModel::Math).map_or(Range::TOP, Range::exact)
                    }
                    _ => Range::TOP,
                },
            }
        }
    }
}

/// The first sub-expression of `e` (operands before the operation) whose C
/// result can differ from the mathematical one: its text and why.
fn first_difference(program: &Program, e: &Expr, look: &dyn Fn(VarId) -> Range) -> Option<(String, String)> {
    let text = || c_text(program, e);
    match e {
        Expr::Const { .. } | Expr::Var { .. } => None,
        Expr::Cast { ty, arg } => {
            if let Some(d) = first_difference(program, arg, look) {
                return Some(d);
            }
            let r = range(arg, look);
            if *ty == IntType::Bool || r.fits(*ty) {
                None
            } else {
                Some((text(), format!("converts a value that may not fit `{}` (C wraps it around)", ty.c_name())))
            }
        }
        Expr::Unary { op, ty, arg } => {
            if let Some(d) = first_difference(program, arg, look) {
                return Some(d);
            }
            match op {
                UnOp::LogNot => None,
                UnOp::BitNot if !ty.is_signed() => {
                    Some((text(), format!("flips the bits of an `{}`: C's result is not -x - 1", ty.c_name())))
                }
                _ => overflow(range(e, look), *ty, text),
            }
        }
        Expr::Binary { op, ty, lhs, rhs } => {
            if let Some(d) = first_difference(program, lhs, look).or_else(|| first_difference(program, rhs, look)) {
                return Some(d);
            }
            match op {
                _ if op.is_comparison() => None,
                BinOp::Shl | BinOp::Shr => {
                    let amount = range(rhs, look);
                    let in_width = amount.lo.is_some_and(|l| l >= 0) && amount.hi.is_some_and(|h| h < ty.bits() as i128);
                    if !in_width {
                        Some((text(), format!("shifts by an amount that may be negative or ≥ {} bits", ty.bits())))
                    } else if *op == BinOp::Shl {
                        let (a, k) = (range(lhs, look), amount.hi.unwrap_or(0));
                        let grown = Range::corners(a, Range { lo: Some(1), hi: Some(1i128 << k) }, i128::checked_mul);
                        overflow(grown, *ty, text)
                    } else {
                        None
                    }
                }
                BinOp::Add | BinOp::Sub | BinOp::Mul => overflow(range(e, look), *ty, text),
                // |a / b| <= |a| for in-range operands, except min / -1.
                BinOp::Div => {
                    let (a, b) = (range(lhs, look), range(rhs, look));
                    let may_be = |r: Range, v: i128| r.lo.is_none_or(|l| l <= v) && r.hi.is_none_or(|h| h >= v);
                    (ty.is_signed() && may_be(a, ty.min_value()) && may_be(b, -1))
                        .then(|| (text(), format!("may overflow `{}` (its minimum divided by -1)", ty.c_name())))
                }
                // |a % b| <= |a|: the remainder of in-range operands is in range.
                BinOp::Rem => None,
                // &, |, ^ of in-range operands stay in range (two's complement).
                _ => None,
            }
        }
    }
}

fn overflow(r: Range, ty: IntType, text: impl Fn() -> String) -> Option<(String, String)> {
    if r.fits(ty) {
        None
    } else if ty.is_signed() {
        Some((text(), format!("may overflow `{}` (its range is {}..{})", ty.c_name(), ty.min_value(), ty.max_value())))
    } else {
        Some((text(), format!("may leave the range of `{}` (C wraps it modulo 2^{})", ty.c_name(), ty.bits())))
    }
}

/// `e` as C text, with the program's variable names.
fn c_text(program: &Program, e: &Expr) -> String {
    match e {
        Expr::Const { value, .. } => value.to_string(),
        Expr::Var { var, .. } => program.variables.get(var.0 as usize).map_or_else(|| format!("v{}", var.0), |v| v.name.clone()),
        Expr::Cast { ty, arg } => format!("({}) {}", ty.c_name(), operand(program, arg)),
        Expr::Unary { op, arg, .. } => format!("{}{}", op.symbol(), operand(program, arg)),
        Expr::Binary { op, lhs, rhs, .. } => {
            format!("{} {} {}", operand(program, lhs), op.symbol(), operand(program, rhs))
        }
    }
}

fn operand(program: &Program, e: &Expr) -> String {
    match e {
        Expr::Const { .. } | Expr::Var { .. } => c_text(program, e),
        _ => format!("({})", c_text(program, e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caveat(src: &str, bounds: &dyn Fn(NodeId, VarId) -> Range) -> Option<IntModelCaveat> {
        let p = cfa::from_source(src).expect("program");
        find(&p, &|_| true, bounds)
    }

    #[test]
    fn unknown_operands_of_signed_arithmetic_may_overflow() {
        let c = caveat("int main() { int x = __VERIFIER_nondet_int(); int y = x + 1; return 0; }", &|_, _| Range::TOP)
            .expect("caveat");
        assert_eq!((c.line, c.operation.as_str()), (1, "x + 1"));
        assert!(c.why.contains("may overflow `int`"), "{}", c.why);
    }

    #[test]
    fn bounded_operands_raise_no_caveat() {
        let tight = |_: NodeId, _: VarId| Range { lo: Some(0), hi: Some(10) };
        assert_eq!(caveat("int main() { int x = __VERIFIER_nondet_int(); int y = x + 1; return 0; }", &tight), None);
    }

    #[test]
    fn narrowing_unsigned_and_shift_operations_are_named() {
        let small = |_: NodeId, _: VarId| Range { lo: Some(0), hi: Some(1000) };
        let c = caveat("int main() { int x = 1000; char c = x; return 0; }", &small).expect("narrowing");
        assert!(c.why.contains("`char`"), "{c:?}");
        let c = caveat("int main() { unsigned x = 0; x = x - 1; return 0; }", &|_, _| Range::exact(0)).expect("wrap");
        assert!(c.why.contains("unsigned"), "{c:?}");
        let c = caveat("int main() { int x = 3; int y = x << 30; return 0; }", &|_, _| Range::exact(3)).expect("shift");
        assert_eq!(c.operation, "x << 30");
        assert!(caveat("int main() { int x = 3; int y = x << 2; return 0; }", &|_, _| Range::exact(3)).is_none());
    }

    #[test]
    fn division_differs_only_for_the_minimum_by_minus_one() {
        let src = "int main() { int x = __VERIFIER_nondet_int(); int y = __VERIFIER_nondet_int(); int q = x / 2; int r = x % y; return 0; }";
        assert_eq!(caveat(src, &|_, _| Range::TOP), None);
        let c = caveat(
            "int main() { int x = __VERIFIER_nondet_int(); int y = __VERIFIER_nondet_int(); int q = x / y; return 0; }",
            &|_, _| Range::TOP,
        )
        .expect("min / -1");
        assert_eq!(c.operation, "x / y");
        let positive = |_: NodeId, _: VarId| Range { lo: Some(1), hi: None };
        assert_eq!(
            caveat(
                "int main() { int x = __VERIFIER_nondet_int(); int y = __VERIFIER_nondet_int(); int q = x / y; return 0; }",
                &positive
            ),
            None
        );
    }

    #[test]
    fn only_reached_edges_are_looked_at() {
        let p = cfa::from_source("int main() { int x = __VERIFIER_nondet_int(); x = x * 2; return 0; }").expect("program");
        assert_eq!(find(&p, &|_| false, &|_, _| Range::TOP), None);
    }

    #[test]
    fn range_laws() {
        let a = Range { lo: Some(-2), hi: Some(3) };
        let b = Range { lo: Some(1), hi: None };
        assert_eq!(a.hull(b), Range { lo: Some(-2), hi: None });
        assert_eq!(a.meet(b), Range { lo: Some(1), hi: Some(3) });
        assert!(a.fits(IntType::Char) && !b.fits(IntType::Int));
        assert!(!a.fits(IntType::UInt));
    }
}
