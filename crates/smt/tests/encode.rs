//! The encoding agrees with mini-C's semantics (`cfa::Expr::eval`, the
//! interpreter's) on random expressions over random variable values:
//! bit-vectors exactly under the `c` model, integers exactly under `math`
//! (wherever the result is defined and the theory has no fresh value).

use cfa::{BinOp, Expr, UnOp, VarId};
use minic::{IntModel, IntType};
use proptest::prelude::*;
use smt::{encode_condition, encode_expr, EncodeEnv, Encoding, Query, Term, Theory, Value};

const TYPES: &[IntType] = &[
    IntType::Int,
    IntType::UInt,
    IntType::Char,
    IntType::UChar,
    IntType::Short,
    IntType::UShort,
    IntType::LongLong,
    IntType::ULongLong,
    IntType::Bool,
];

/// Env: program variables become SMT variables `v{id}` (the test then
/// evaluates the term with their values); fresh values are variables the
/// evaluation does not know (the test then skips: nothing is determined).
struct VarEnv {
    enc: Encoding,
    fresh: bool,
    count: u32,
}

impl EncodeEnv for VarEnv {
    fn var(&mut self, var: VarId, ty: IntType) -> Term {
        Term::var(&format!("v{}", var.0), self.enc.sort(ty))
    }
    fn fresh(&mut self, ty: IntType, _why: &str) -> Term {
        self.fresh = true;
        self.count += 1;
        Term::var(&format!("fresh{}", self.count), self.enc.sort(ty))
    }
}

/// Variable ids carry their type: id = 16 * k + index of the type.
fn var_type(v: VarId) -> IntType {
    TYPES[(v.0 % 16) as usize]
}

fn leaf(ty: IntType) -> impl Strategy<Value = Expr> {
    prop_oneof![
        (-300i128..300).prop_map(move |v| Expr::Const { value: ty.wrap(v), ty }),
        prop_oneof![Just(ty.min_value()), Just(ty.max_value()), Just(0), Just(1)].prop_map(move |v| Expr::Const { value: v, ty }),
        (0u32..3)
            .prop_map(move |k| Expr::Var { var: VarId(16 * k + TYPES.iter().position(|t| *t == ty).unwrap_or(0) as u32), ty }),
    ]
}

fn expr(ty: IntType, depth: u32) -> BoxedStrategy<Expr> {
    if depth == 0 {
        return leaf(ty).boxed();
    }
    let sub = move || expr(ty, depth - 1);
    let ops = prop_oneof![
        Just(BinOp::Add),
        Just(BinOp::Sub),
        Just(BinOp::Mul),
        Just(BinOp::Div),
        Just(BinOp::Rem),
        Just(BinOp::Shl),
        Just(BinOp::Shr),
        Just(BinOp::BitAnd),
        Just(BinOp::BitOr),
        Just(BinOp::BitXor),
    ];
    let cmp = prop_oneof![Just(BinOp::Lt), Just(BinOp::Le), Just(BinOp::Gt), Just(BinOp::Ge), Just(BinOp::Eq), Just(BinOp::Ne)];
    let from = prop::sample::select(TYPES.to_vec());
    prop_oneof![
        leaf(ty).boxed(),
        (ops, sub(), sub()).prop_map(move |(op, l, r)| Expr::Binary { op, ty, lhs: Box::new(l), rhs: Box::new(r) }),
        (prop_oneof![Just(UnOp::Neg), Just(UnOp::BitNot)], sub()).prop_map(move |(op, a)| Expr::Unary {
            op,
            ty,
            arg: Box::new(a)
        }),
        // A comparison (or `!`) in type int, cast to `ty`.
        (cmp, sub(), sub()).prop_map(move |(op, l, r)| Expr::Cast {
            ty,
            arg: Box::new(Expr::Binary { op, ty, lhs: Box::new(l), rhs: Box::new(r) })
        }),
        sub().prop_map(move |a| Expr::Cast { ty, arg: Box::new(Expr::Unary { op: UnOp::LogNot, ty, arg: Box::new(a) }) }),
        // A conversion from another type.
        from.prop_flat_map(move |f| expr(f, depth - 1)).prop_map(move |a| Expr::Cast { ty, arg: Box::new(a) }),
    ]
    .boxed()
}

fn typed_expr() -> impl Strategy<Value = Expr> {
    prop::sample::select(TYPES.to_vec()).prop_flat_map(|ty| expr(ty, 3))
}

fn check(e: &Expr, vals: &[i128], enc: Encoding) -> Result<(), TestCaseError> {
    // A variable of type T holds vals[k] converted to T (what it can hold).
    let value_of = |v: VarId| var_type(v).convert(vals[(v.0 / 16) as usize % vals.len()], enc.model);
    let expected = match e.eval(enc.model, &mut |v| Some(value_of(v))) {
        Ok(Some(v)) => v,
        _ => return Ok(()), // undefined in C: the encoding may say anything
    };
    let env_fn = |name: &str| -> Option<Value> {
        let id: u32 = name.strip_prefix('v')?.parse().ok()?;
        let v = value_of(VarId(id));
        Some(match enc.theory {
            Theory::Integer => Value::Int(v),
            Theory::Bitvector => Term::bv(v, var_type(VarId(id)).bits()).as_value()?,
        })
    };
    let mut env = VarEnv { enc, fresh: false, count: 0 };
    let t = encode_expr(e, enc, &mut env);
    // A fresh value may only matter where C leaves the result undefined
    // (a guard then decides against it) — or, over the integers, where the
    // theory over-approximates (bitwise operations).
    if enc.wrap {
        // The wrapped encoding stays in linear integer arithmetic.
        let q = Query::new(vec![Term::eq(t.clone(), Term::int(0))]);
        prop_assert!(q.logic() != "QF_NIA", "{} is not linear: {}", q.logic(), t);
    }
    let value = t.eval(&env_fn);
    if env.fresh && value.is_none() {
        prop_assert!(enc.theory == Theory::Integer, "bit-vectors are exact but a fresh value decides {t}");
        return Ok(());
    }
    let got = match value {
        Some(Value::Int(i)) => i,
        Some(Value::Bv { value, width }) => {
            if e.ty().is_signed() {
                smt::term::bv_signed(value, width)
            } else {
                value as i128
            }
        }
        other => return Err(TestCaseError::fail(format!("{t} evaluates to {other:?}"))),
    };
    prop_assert_eq!(got, expected, "expr {:?}\nterm {}", e, t);
    // The condition form agrees with "non-zero".
    let mut env = VarEnv { enc, fresh: false, count: 0 };
    let c = encode_condition(e, enc, &mut env);
    if let Some(b) = c.eval(&env_fn) {
        prop_assert_eq!(b, Value::Bool(expected != 0), "condition {}", c);
    } else {
        prop_assert!(env.fresh && enc.theory == Theory::Integer, "condition {} undecided", c);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn bitvectors_are_exact_for_the_c_model(e in typed_expr(), vals in prop::collection::vec(-70000i128..70000, 3)) {
        check(&e, &vals, Encoding::new(Theory::Bitvector, IntModel::C))?;
    }

    #[test]
    fn wrapped_integers_are_exact_for_the_c_model(e in typed_expr(), vals in prop::collection::vec(-70000i128..70000, 3)) {
        check(&e, &vals, Encoding::wrapped(IntModel::C))?;
    }

    #[test]
    fn integers_are_exact_for_the_math_model(e in typed_expr(), vals in prop::collection::vec(-70000i128..70000, 3)) {
        check(&e, &vals, Encoding::new(Theory::Integer, IntModel::Math))?;
    }
}

#[test]
fn wrapping_is_exact_at_the_edges_and_only_wrapped_encodings_claim_it() {
    let enc = Encoding::wrapped(IntModel::C);
    assert_eq!(enc.caveat(), None);
    assert!(Encoding::new(Theory::Integer, IntModel::C).caveat().is_some());
    assert_eq!(Encoding::wrapped(IntModel::Math), Encoding::new(Theory::Integer, IntModel::Math));
    let x = || Box::new(Expr::Var { var: VarId(0), ty: IntType::Int });
    let max = IntType::Int.max_value();
    let cases = [
        (Expr::Binary { op: BinOp::Add, ty: IntType::Int, lhs: x(), rhs: Box::new(Expr::int(1)) }, max, IntType::Int.min_value()),
        (Expr::Unary { op: UnOp::Neg, ty: IntType::Int, arg: x() }, IntType::Int.min_value(), IntType::Int.min_value()),
        (Expr::Binary { op: BinOp::Mul, ty: IntType::Int, lhs: x(), rhs: Box::new(Expr::int(3)) }, max, max - 2),
        (Expr::Binary { op: BinOp::Shl, ty: IntType::Int, lhs: x(), rhs: Box::new(Expr::int(31)) }, 1, IntType::Int.min_value()),
    ];
    for (e, input, expected) in cases {
        let mut env = VarEnv { enc, fresh: false, count: 0 };
        let t = encode_expr(&e, enc, &mut env);
        let got = t.eval(&|n| (n == "v0").then_some(Value::Int(input)));
        assert_eq!(got, Some(Value::Int(expected)), "{t} at {input}");
        assert!(!env.fresh, "{t}");
    }
    // x * y is not linear: a fresh value.
    let e = Expr::Binary {
        op: BinOp::Mul,
        ty: IntType::Int,
        lhs: x(),
        rhs: Box::new(Expr::Var { var: VarId(16), ty: IntType::Int }),
    };
    let mut env = VarEnv { enc, fresh: false, count: 0 };
    assert_eq!(encode_expr(&e, enc, &mut env).to_string(), "fresh1");
}

#[test]
fn c_division_truncates_in_both_theories() {
    for theory in [Theory::Integer, Theory::Bitvector] {
        let enc = Encoding::new(theory, IntModel::C);
        for (a, b, q, r) in [(-7, 2, -3, -1), (7, -2, -3, 1), (-7, -2, 3, -1), (7, 2, 3, 1)] {
            let mk = |op| Expr::Binary { op, ty: IntType::Int, lhs: Box::new(Expr::int(a)), rhs: Box::new(Expr::int(b)) };
            let mut env = VarEnv { enc, fresh: false, count: 0 };
            assert_eq!(encode_expr(&mk(BinOp::Div), enc, &mut env).as_signed(), Some(q), "{theory} {a}/{b}");
            assert_eq!(encode_expr(&mk(BinOp::Rem), enc, &mut env).as_signed(), Some(r), "{theory} {a}%{b}");
        }
    }
}
