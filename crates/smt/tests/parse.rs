//! `smt::parse_term` reads back what `Term`'s SMT-LIB text says: for random
//! terms over every operator, `parse(print(t))` is `t` again (the same
//! constructors build it) and evaluates the same; and any text at all —
//! random strings, printed terms with random damage — gives `Ok` or `Err`,
//! never a panic.

use proptest::prelude::*;
use smt::{parse_term, Op, Sort, Term, Value};

fn sort_of(name: &str) -> Option<Sort> {
    Some(match name {
        "x" | "y" | "a b" => Sort::Int,
        "p" | "q" => Sort::Bool,
        "u" | "v" => Sort::Bv(32),
        "c" => Sort::Bv(8),
        _ => return None,
    })
}

fn int_term(depth: u32) -> BoxedStrategy<Term> {
    let leaf = prop_oneof![
        (-1000i128..1000).prop_map(Term::int),
        prop::sample::select(vec!["x", "y", "a b"]).prop_map(|n| Term::var(n, Sort::Int)),
    ];
    if depth == 0 {
        return leaf.boxed();
    }
    let sub = move || int_term(depth - 1);
    prop_oneof![
        leaf,
        (sub(), sub()).prop_map(|(a, b)| Term::add(a, b)),
        (sub(), sub()).prop_map(|(a, b)| Term::sub(a, b)),
        sub().prop_map(Term::neg),
        (-9i128..9, sub()).prop_map(|(k, a)| Term::mul(Term::int(k), a)),
        (sub(), sub()).prop_map(|(a, b)| Term::mul(a, b)),
        (sub(), sub()).prop_map(|(a, b)| Term::div(a, b)),
        (sub(), 1i128..9).prop_map(|(a, k)| Term::modulo(a, Term::int(k))),
        (bool_term(depth - 1), sub(), sub()).prop_map(|(c, a, b)| Term::ite(c, a, b)),
    ]
    .boxed()
}

fn bv_term(w: u32, depth: u32) -> BoxedStrategy<Term> {
    let name = if w == 8 { "c" } else { "u" };
    let leaf = prop_oneof![(-300i128..300).prop_map(move |v| Term::bv(v, w)), Just(Term::var(name, Sort::Bv(w)))];
    if depth == 0 {
        return leaf.boxed();
    }
    let sub = move || bv_term(w, depth - 1);
    let binary = prop::sample::select(vec![
        Op::BvAdd,
        Op::BvSub,
        Op::BvMul,
        Op::BvUdiv,
        Op::BvUrem,
        Op::BvSdiv,
        Op::BvSrem,
        Op::BvShl,
        Op::BvLshr,
        Op::BvAshr,
        Op::BvAnd,
        Op::BvOr,
        Op::BvXor,
    ]);
    let conversion = if w == 8 {
        bv_term(32, depth - 1).prop_map(|a| Term::bv1(Op::Extract(7, 0), a)).boxed()
    } else {
        (bv_term(8, depth - 1), any::<bool>())
            .prop_map(|(a, signed)| Term::bv1(if signed { Op::SignExt(24) } else { Op::ZeroExt(24) }, a))
            .boxed()
    };
    prop_oneof![
        leaf,
        (binary, sub(), sub()).prop_map(|(op, a, b)| Term::bv2(op, a, b)),
        (any::<bool>(), sub()).prop_map(|(neg, a)| Term::bv1(if neg { Op::BvNeg } else { Op::BvNot }, a)),
        conversion,
        (bool_term(depth - 1), sub(), sub()).prop_map(|(c, a, b)| Term::ite(c, a, b)),
    ]
    .boxed()
}

fn bool_term(depth: u32) -> BoxedStrategy<Term> {
    let leaf =
        prop_oneof![any::<bool>().prop_map(Term::bool), Just(Term::var("p", Sort::Bool)), Just(Term::var("q", Sort::Bool))];
    if depth == 0 {
        return leaf.boxed();
    }
    let sub = move || bool_term(depth - 1);
    let int = move || int_term(depth - 1);
    let bv = move || prop_oneof![bv_term(8, depth - 1), bv_term(32, depth - 1)];
    let bv_pair = move || {
        any::<bool>().prop_flat_map(move |wide| {
            let w = if wide { 32 } else { 8 };
            (bv_term(w, depth - 1), bv_term(w, depth - 1))
        })
    };
    let bv_cmp = prop::sample::select(vec![Op::BvUlt, Op::BvUle, Op::BvSlt, Op::BvSle]);
    prop_oneof![
        leaf,
        sub().prop_map(Term::not),
        prop::collection::vec(sub(), 0..4).prop_map(Term::and),
        prop::collection::vec(sub(), 0..4).prop_map(Term::or),
        (sub(), sub(), sub()).prop_map(|(c, a, b)| Term::ite(c, a, b)),
        (sub(), sub()).prop_map(|(a, b)| Term::eq(a, b)),
        (int(), int()).prop_map(|(a, b)| Term::le(a, b)),
        (int(), int()).prop_map(|(a, b)| Term::lt(a, b)),
        (int(), int()).prop_map(|(a, b)| Term::eq(a, b)),
        (bv_cmp, bv_pair()).prop_map(|(op, (a, b))| Term::bv2(op, a, b)),
        bv_pair().prop_map(|(a, b)| Term::eq(a, b)),
        bv().prop_map(|a| Term::ne(
            a.clone(),
            Term::bv(
                0,
                match a.sort() {
                    Sort::Bv(w) => w,
                    _ => 32,
                }
            )
        )),
    ]
    .boxed()
}

fn any_term() -> impl Strategy<Value = Term> {
    prop_oneof![bool_term(3), int_term(3), bv_term(32, 3), bv_term(8, 3)]
}

type Assignment = (i128, i128, i128, bool, bool, u32, u32, u8);

fn env(a: Assignment) -> impl Fn(&str) -> Option<Value> {
    let (x, y, ab, p, q, u, v, c) = a;
    move |n| {
        Some(match n {
            "x" => Value::Int(x),
            "y" => Value::Int(y),
            "a b" => Value::Int(ab),
            "p" => Value::Bool(p),
            "q" => Value::Bool(q),
            "u" => Value::Bv { value: u as u128, width: 32 },
            "v" => Value::Bv { value: v as u128, width: 32 },
            "c" => Value::Bv { value: c as u128, width: 8 },
            _ => return None,
        })
    }
}

fn assignment() -> impl Strategy<Value = Assignment> {
    (-50i128..50, -50i128..50, -50i128..50, any::<bool>(), any::<bool>(), any::<u32>(), any::<u32>(), any::<u8>())
}

const TOKENS: &[&str] = &[
    "(",
    ")",
    " ",
    "x",
    "p",
    "u",
    "c",
    "1",
    "-",
    "+",
    "*",
    "and",
    "or",
    "not",
    "=>",
    "xor",
    "=",
    "distinct",
    "ite",
    "<=",
    "<",
    ">=",
    ">",
    "div",
    "mod",
    "abs",
    "let",
    "((y 1))",
    "#xff",
    "#b1",
    "(_ bv3 8)",
    "bvadd",
    "bvsle",
    "bvuge",
    "(_ extract 7 0)",
    "(_ sign_extend 24)",
    "|a b|",
    "true",
    "false",
    "exists",
    "!",
    ":named",
    "\"s\"",
    ";c\n",
    "_",
    "99999999999999999999999999999999999999999",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn printed_terms_parse_back_to_themselves(t in any_term(), a in prop::collection::vec(assignment(), 4)) {
        let text = t.to_string();
        let back = parse_term(&text, &sort_of).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        prop_assert_eq!(back.sort(), t.sort());
        for a in a {
            let env = env(a);
            prop_assert_eq!(back.eval(&env), t.eval(&env), "{} read as {}", text, back);
        }
        prop_assert_eq!(&back, &t, "{} read as {}", text, back);
    }

    #[test]
    fn random_token_soup_never_panics(tokens in prop::collection::vec(prop::sample::select(TOKENS.to_vec()), 0..40)) {
        let _ = parse_term(&tokens.join(" "), &sort_of);
        let _ = parse_term(&tokens.concat(), &sort_of);
    }

    #[test]
    fn random_strings_never_panic(s in "\\PC{0,80}") {
        let _ = parse_term(&s, &sort_of);
        let _ = smt::parse_qe_answer(&s, &sort_of);
    }

    #[test]
    fn damaged_terms_never_panic(t in any_term(), cuts in prop::collection::vec((any::<prop::sample::Index>(), 0usize..3, prop::sample::select(TOKENS.to_vec())), 1..4)) {
        let mut text: Vec<char> = t.to_string().chars().collect();
        for (at, len, insert) in cuts {
            let i = at.index(text.len() + 1);
            let j = (i + len).min(text.len());
            text.splice(i..j, insert.chars());
        }
        let text: String = text.into_iter().collect();
        let _ = parse_term(&text, &sort_of);
        let _ = smt::parse_qe_answer(&format!("(goals (goal {text} :precision precise))"), &sort_of);
    }
}
