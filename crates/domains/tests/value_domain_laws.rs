//! Laws of the parity and sign domains, property-tested against the
//! concrete semantics of mini-C (`cfa::eval_binary` / `eval_unary` and
//! `IntType::convert`) under both integer models: every abstract operation
//! contains every concrete result of values in its operands'
//! concretizations; ⊑ is inclusion of concretizations on sample values; ⊔
//! is an upper bound of both.

use cfa::expr::{eval_binary, eval_unary};
use cfa::{BinOp, UnOp};
use domains::{Arith, Parity, Rel, Sign};
use minic::{IntModel, IntType};
use proptest::prelude::*;

const TYPES: [IntType; 9] = [
    IntType::Bool,
    IntType::Char,
    IntType::UChar,
    IntType::Short,
    IntType::UShort,
    IntType::Int,
    IntType::UInt,
    IntType::Long,
    IntType::ULongLong,
];

const BINOPS: [BinOp; 16] = [
    BinOp::Add,
    BinOp::Sub,
    BinOp::Mul,
    BinOp::Div,
    BinOp::Rem,
    BinOp::Shl,
    BinOp::Shr,
    BinOp::BitAnd,
    BinOp::BitOr,
    BinOp::BitXor,
    BinOp::Lt,
    BinOp::Le,
    BinOp::Gt,
    BinOp::Ge,
    BinOp::Eq,
    BinOp::Ne,
];

fn arith(ty: IntType, model: IntModel) -> Arith {
    Arith { bits: ty.bits(), signed: ty.is_signed(), wraps: model == IntModel::C }
}

fn rel(op: BinOp) -> Option<Rel> {
    Some(match op {
        BinOp::Lt => Rel::Lt,
        BinOp::Le => Rel::Le,
        BinOp::Gt => Rel::Gt,
        BinOp::Ge => Rel::Ge,
        BinOp::Eq => Rel::Eq,
        BinOp::Ne => Rel::Ne,
        _ => return None,
    })
}

/// The abstract operation the transformation calls for `op` (as `a_op`).
fn parity_bin(op: BinOp, a: Parity, b: Parity, t: Arith) -> Parity {
    match op {
        BinOp::Add => a.add(b, t),
        BinOp::Sub => a.sub(b, t),
        BinOp::Mul => a.mul(b, t),
        BinOp::Div => a.div(b, t),
        BinOp::Rem => a.rem(b, t),
        BinOp::Shl => a.shl(b, t),
        BinOp::Shr => a.shr(b, t),
        BinOp::BitAnd => a.bitand(b, t),
        BinOp::BitOr => a.bitor(b, t),
        BinOp::BitXor => a.bitxor(b, t),
        cmp => a.compare(rel(cmp).unwrap(), b),
    }
}

fn sign_bin(op: BinOp, a: Sign, b: Sign, t: Arith) -> Sign {
    match op {
        BinOp::Add => a.add(b, t),
        BinOp::Sub => a.sub(b, t),
        BinOp::Mul => a.mul(b, t),
        BinOp::Div => a.div(b, t),
        BinOp::Rem => a.rem(b, t),
        BinOp::Shl => a.shl(b, t),
        BinOp::Shr => a.shr(b, t),
        BinOp::BitAnd => a.bitand(b, t),
        BinOp::BitOr => a.bitor(b, t),
        BinOp::BitXor => a.bitxor(b, t),
        cmp => a.compare(rel(cmp).unwrap(), b),
    }
}

/// A value of `ty`: near zero, near the type's ends, or anywhere in range
/// (under `math` also beyond the C range).
fn value(ty: IntType, model: IntModel, pick: u8, raw: i64) -> i128 {
    let v = match pick % 4 {
        0 => (raw % 9) as i128,
        1 => ty.min_value() + (raw.rem_euclid(3)) as i128,
        2 => ty.max_value() - (raw.rem_euclid(3)) as i128,
        _ => raw as i128,
    };
    ty.convert(v, model)
}

fn models() -> impl Strategy<Value = IntModel> {
    prop_oneof![Just(IntModel::C), Just(IntModel::Math)]
}

fn parity_extra() -> impl Strategy<Value = Parity> {
    prop_oneof![Just(Parity::BOTTOM), Just(Parity::EVEN), Just(Parity::ODD), Just(Parity::TOP)]
}

fn sign_extra() -> impl Strategy<Value = Sign> {
    prop_oneof![Just(Sign::BOTTOM), Just(Sign::NEG), Just(Sign::ZERO), Just(Sign::POS), Just(Sign::TOP)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn binary_operations_are_sound(
        ti in 0usize..TYPES.len(), oi in 0usize..BINOPS.len(), model in models(),
        pa in any::<u8>(), ra in any::<i64>(), pb in any::<u8>(), rb in any::<i64>(),
        xp in parity_extra(), yp in parity_extra(), xs in sign_extra(), ys in sign_extra(),
    ) {
        let (ty, op) = (TYPES[ti], BINOPS[oi]);
        // Shifts take their right operand in its own type; use int.
        let rty = if matches!(op, BinOp::Shl | BinOp::Shr) { IntType::Int } else { ty };
        let (a, b) = (value(ty, model, pa, ra), value(rty, model, pb, rb));
        if let Ok(r) = eval_binary(op, ty, a, b, model) {
            let t = arith(ty, model);
            let p = parity_bin(op, Parity::constant(a).join(xp), Parity::constant(b).join(yp), t);
            prop_assert!(p.contains(r), "parity: {a} {} {b} = {r} not in {p} ({ty:?}, {model:?})", op.symbol());
            let s = sign_bin(op, Sign::constant(a).join(xs), Sign::constant(b).join(ys), t);
            prop_assert!(s.contains(r), "sign: {a} {} {b} = {r} not in {s} ({ty:?}, {model:?})", op.symbol());
        }
    }

    #[test]
    fn unary_operations_and_casts_are_sound(
        ti in 0usize..TYPES.len(), tj in 0usize..TYPES.len(), model in models(),
        pa in any::<u8>(), ra in any::<i64>(), xp in parity_extra(), xs in sign_extra(),
    ) {
        let (ty, to) = (TYPES[ti], TYPES[tj]);
        let a = value(ty, model, pa, ra);
        let t = arith(ty, model);
        let (pa_, sa) = (Parity::constant(a).join(xp), Sign::constant(a).join(xs));
        for op in [UnOp::Neg, UnOp::BitNot, UnOp::LogNot] {
            if let Ok(r) = eval_unary(op, ty, a, model) {
                let (p, s) = match op {
                    UnOp::Neg => (pa_.neg(t), sa.neg(t)),
                    UnOp::BitNot => (pa_.bitnot(t), sa.bitnot(t)),
                    UnOp::LogNot => (pa_.lognot(), sa.lognot()),
                };
                prop_assert!(p.contains(r), "parity: {}{a} = {r} not in {p} ({ty:?}, {model:?})", op.symbol());
                prop_assert!(s.contains(r), "sign: {}{a} = {r} not in {s} ({ty:?}, {model:?})", op.symbol());
            }
        }
        let r = to.convert(a, model);
        let u = arith(to, model);
        prop_assert!(pa_.cast(t, u).contains(r), "parity: ({to:?}){a} = {r}");
        prop_assert!(sa.cast(t, u).contains(r), "sign: ({to:?}){a} = {r} not in {}", sa.cast(t, u));
    }

    #[test]
    fn refinement_keeps_every_value_that_satisfies_the_condition(
        a in -20i128..20, c in -20i128..20, ri in 0usize..6, xp in parity_extra(), xs in sign_extra(),
    ) {
        let rel = [Rel::Lt, Rel::Le, Rel::Gt, Rel::Ge, Rel::Eq, Rel::Ne][ri];
        if rel.holds(a, c) {
            prop_assert!(Parity::constant(a).join(xp).refine(rel, c).contains(a));
            prop_assert!(Sign::constant(a).join(xs).refine(rel, c).contains(a));
        }
    }

    #[test]
    fn order_and_join_match_concretization(xp in parity_extra(), yp in parity_extra(), xs in sign_extra(), ys in sign_extra(), v in -50i128..50) {
        // ⊑ is inclusion of γ (on the sample value), ⊔ an upper bound, ⊓ a lower one.
        if xp.leq(yp) && xp.contains(v) { prop_assert!(yp.contains(v)); }
        if xs.leq(ys) && xs.contains(v) { prop_assert!(ys.contains(v)); }
        prop_assert!(xp.leq(xp.join(yp)) && yp.leq(xp.join(yp)));
        prop_assert!(xs.leq(xs.join(ys)) && ys.leq(xs.join(ys)));
        prop_assert!(xp.meet(yp).leq(xp) && xs.meet(ys).leq(xs));
        prop_assert_eq!(xp.join(yp).contains(v), xp.contains(v) || yp.contains(v));
        prop_assert_eq!(xs.join(ys).contains(v), xs.contains(v) || ys.contains(v));
        // Truth: a value that may be non-zero / zero says so.
        if xp.contains(v) { let ok = if v == 0 { xp.may_be_zero() } else { xp.may_be_nonzero() }; prop_assert!(ok); }
        if xs.contains(v) { let ok = if v == 0 { xs.may_be_zero() } else { xs.may_be_nonzero() }; prop_assert!(ok); }
    }
}

#[test]
fn parity_tables_of_the_paper() {
    let t = arith(IntType::UInt, IntModel::C);
    assert_eq!(Parity::EVEN.add(Parity::EVEN, t), Parity::EVEN);
    assert_eq!(Parity::ODD.add(Parity::ODD, t), Parity::EVEN);
    assert_eq!(Parity::EVEN.add(Parity::ODD, t), Parity::ODD);
    assert_eq!(Parity::ODD.mul(Parity::ODD, t), Parity::ODD);
    assert_eq!(Parity::EVEN.mul(Parity::TOP, t), Parity::EVEN);
    assert_eq!(Parity::ODD.rem(Parity::EVEN, t), Parity::ODD);
    assert_eq!(Parity::EVEN.compare(Rel::Eq, Parity::ODD), Parity::EVEN);
    assert!(!Parity::ODD.may_be_zero());
}

#[test]
fn sign_knows_wrap_around() {
    let c = arith(IntType::Int, IntModel::C);
    let m = arith(IntType::Int, IntModel::Math);
    assert_eq!(Sign::POS.add(Sign::POS, m), Sign::POS);
    assert_eq!(Sign::POS.add(Sign::POS, c), Sign::TOP, "INT_MAX + 1 is negative in C");
    assert_eq!(Sign::POS.add(Sign::ZERO, c), Sign::POS);
    assert_eq!(Sign::NEG.compare(Rel::Lt, Sign::POS), Sign::POS);
    assert_eq!(Sign::TOP.refine(Rel::Lt, 0), Sign::NEG);
}
