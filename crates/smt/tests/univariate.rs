//! `smt::univariate::decide` answers exactly what a solver would:
//!
//! * on random constraint sets over one 8-bit or 5-bit variable (small
//!   enough that constraints beyond intervals are evaluated value by
//!   value, so nearly every set is decided), against
//!   evaluating every constraint for every value of the variable (so an
//!   `unsat` is checked to be truly empty, a `sat` model to satisfy all);
//! * on random constraint sets over one integer variable (sort `Int`),
//!   against evaluating every value of a range that holds every boundary
//!   the constraints' constants can make;
//! * on the recorded corpus (`tests/corpus`, every script it applies to)
//!   against the recorded answers;
//! * on the queries symbolic execution asks about an unrolled loop over one
//!   32-bit input (`x = x + y; y++` while `x < 0`), against Debian's z3.

use smt::univariate::{decide, Decision};
use smt::{Op, Sort, Term, Value};
use std::collections::BTreeMap;
use std::path::PathBuf;
use xorshift::XorShift;

const Y: &str = "y!1";

/// A random bit-vector term over `y` of `width` bits.
fn bv_term(r: &mut XorShift, width: u32, depth: u32) -> Term {
    let y = Term::var(Y, Sort::Bv(width));
    let k = |r: &mut XorShift| Term::bv(r.next_u64() as i128, width);
    if depth == 0 {
        return if r.below(3) == 0 { k(r) } else { y };
    }
    match r.below(9) {
        0 => Term::bv1(Op::BvNeg, bv_term(r, width, depth - 1)),
        1 | 2 => Term::bv2(Op::BvAdd, bv_term(r, width, depth - 1), bv_term(r, width, depth - 1)),
        3 => Term::bv2(Op::BvSub, bv_term(r, width, depth - 1), bv_term(r, width, depth - 1)),
        4 | 5 => {
            // Mostly a constant factor; sometimes y·y (which `decide` must refuse).
            let f = if r.below(6) == 0 { bv_term(r, width, 0) } else { k(r) };
            Term::bv2(Op::BvMul, f, bv_term(r, width, depth - 1))
        }
        6 => Term::ite(bool_term(r, width, depth - 1), bv_term(r, width, depth - 1), bv_term(r, width, depth - 1)),
        7 if r.below(4) == 0 => Term::bv2(Op::BvAnd, bv_term(r, width, depth - 1), k(r)), // unsupported
        _ => bv_term(r, width, 0),
    }
}

/// A random Boolean term over `y`.
fn bool_term(r: &mut XorShift, width: u32, depth: u32) -> Term {
    let cmp = [Op::Eq, Op::BvUlt, Op::BvUle, Op::BvSlt, Op::BvSle];
    if depth == 0 || r.below(3) > 0 {
        let op = cmp[r.index(cmp.len())];
        // Mostly against a constant (what `decide` handles); sometimes not.
        let b = if r.below(4) > 0 { Term::bv(r.next_u64() as i128, width) } else { bv_term(r, width, depth.min(1)) };
        let a = bv_term(r, width, depth);
        let (a, b) = if r.below(2) == 0 { (a, b) } else { (b, a) };
        let t = Term::app(op, vec![a, b]);
        return if r.below(3) == 0 { Term::not(t) } else { t };
    }
    let (a, b) = (bool_term(r, width, depth - 1), bool_term(r, width, depth - 1));
    match r.below(4) {
        0 => Term::and(vec![a, b]),
        1 => Term::or(vec![a, b]),
        2 => Term::eq(a, b),
        _ => Term::not(a),
    }
}

fn holds(t: &Term, width: u32, v: u128) -> Option<bool> {
    let val = Value::Bv { value: v, width };
    match t.eval(&|n: &str| (n == Y).then_some(val)) {
        Some(Value::Bool(b)) => Some(b),
        _ => None,
    }
}

#[test]
fn decide_agrees_with_evaluating_every_value() {
    let mut r = XorShift::new(0x756e_6976);
    let (mut unsat, mut sat, mut refused) = (0, 0, 0);
    for case in 0..6000 {
        let width = if case % 2 == 0 { 8 } else { 5 };
        let n = 1 + r.index(5);
        let terms: Vec<Term> = (0..n).map(|_| bool_term(&mut r, width, 2)).collect();
        let Some(d) = decide(&terms) else {
            refused += 1;
            continue;
        };
        let satisfiable = (0..1u128 << width).any(|v| terms.iter().all(|t| holds(t, width, v) == Some(true)));
        match d {
            Decision::Unsat => {
                assert!(!satisfiable, "case {case}: decide says unsat, but a value satisfies {terms:?}");
                unsat += 1;
            }
            Decision::Sat(model) => {
                let v = match model.get(Y) {
                    Some(Value::Bv { value, width: w }) if *w == width => *value,
                    other => panic!("case {case}: model {other:?}"),
                };
                assert!(terms.iter().all(|t| holds(t, width, v) == Some(true)), "case {case}: model {v} fails {terms:?}");
                sat += 1;
            }
        }
    }
    println!("{unsat} unsat, {sat} sat, {refused} refused");
    // The generator reaches both answers.
    assert!(unsat > 1000 && sat > 1000, "{unsat} unsat, {sat} sat, {refused} refused");
}

/// A random integer term over `y`, constants in `[-6, 6]`.
fn int_term(r: &mut XorShift, depth: u32) -> Term {
    let y = Term::var(Y, Sort::Int);
    let k = |r: &mut XorShift| Term::int(r.below(13) as i128 - 6);
    if depth == 0 {
        return if r.below(3) == 0 { k(r) } else { y };
    }
    let sub = |r: &mut XorShift| int_term(r, depth - 1);
    match r.below(10) {
        0 => Term::app(Op::Neg, vec![sub(r)]),
        1 | 2 => Term::app(Op::Add, vec![sub(r), sub(r)]),
        3 => Term::app(Op::Sub, vec![sub(r), sub(r)]),
        4 | 5 => {
            // Mostly a constant factor; sometimes y·y (evaluated value by
            // value on a finite set, refused otherwise).
            let f = if r.below(6) == 0 { int_term(r, 0) } else { k(r) };
            Term::app(Op::Mul, vec![f, sub(r)])
        }
        6 => Term::ite(int_bool_term(r, depth - 1), sub(r), sub(r)),
        7 if r.below(3) == 0 => Term::app(Op::Mod, vec![sub(r), Term::int(3)]), // beyond intervals
        _ => int_term(r, 0),
    }
}

/// A random Boolean term over the integer `y`.
fn int_bool_term(r: &mut XorShift, depth: u32) -> Term {
    if depth == 0 || r.below(3) > 0 {
        let op = [Op::Eq, Op::Lt, Op::Le][r.index(3)];
        let b = if r.below(4) > 0 { Term::int(r.below(25) as i128 - 12) } else { int_term(r, depth.min(1)) };
        let a = int_term(r, depth);
        let (a, b) = if r.below(2) == 0 { (a, b) } else { (b, a) };
        let t = Term::app(op, vec![a, b]);
        return if r.below(3) == 0 { Term::not(t) } else { t };
    }
    let (a, b) = (int_bool_term(r, depth - 1), int_bool_term(r, depth - 1));
    match r.below(4) {
        0 => Term::and(vec![a, b]),
        1 => Term::or(vec![a, b]),
        2 => Term::eq(a, b),
        _ => Term::not(a),
    }
}

#[test]
fn decide_agrees_with_evaluating_every_integer_of_a_wide_range() {
    // Constants are within ±12 and terms have depth ≤ 2 (at most two
    // constant factors of ≤ 6 on a path), so every linear piece a·y + b has
    // |a| ≤ 36 and |b| a few hundred, and every boundary of a constraint's
    // value set lies far within ±R: a satisfiable set holds a value of
    // [-R, R].
    const R: i128 = 2_500;
    let holds_int = |t: &Term, v: i128| t.eval(&|n: &str| (n == Y).then_some(Value::Int(v))) == Some(Value::Bool(true));
    let mut r = XorShift::new(0x696e_7465);
    let (mut unsat, mut sat, mut refused) = (0, 0, 0);
    for case in 0..3000 {
        let n = 1 + r.index(4);
        let terms: Vec<Term> = (0..n).map(|_| int_bool_term(&mut r, 2)).collect();
        match decide(&terms) {
            None => refused += 1,
            Some(Decision::Unsat) => {
                let witness = (-R..=R).find(|&v| terms.iter().all(|t| holds_int(t, v)));
                assert_eq!(witness, None, "case {case}: decide says unsat, but y = {witness:?} satisfies {terms:?}");
                unsat += 1;
            }
            Some(Decision::Sat(model)) => {
                let Some(Value::Int(v)) = model.get(Y) else { panic!("case {case}: model {model:?}") };
                assert!(terms.iter().all(|t| holds_int(t, *v)), "case {case}: model {v} fails {terms:?}");
                sat += 1;
            }
        }
    }
    println!("{unsat} unsat, {sat} sat, {refused} refused");
    assert!(unsat > 500 && sat > 500, "{unsat} unsat, {sat} sat, {refused} refused");
}

#[test]
fn decide_refuses_what_it_cannot_do_exactly() {
    let y = Term::var("y", Sort::Bv(32));
    let z = Term::var("z", Sort::Bv(32));
    let i = Term::var("i", Sort::Int);
    // Two variables (of two sorts in one constraint set), i·i over ℤ
    // unbounded, y·y, a bit-wise operator.
    assert_eq!(decide(&[Term::bv2(Op::BvSlt, y.clone(), z)]), None);
    assert_eq!(decide(&[Term::lt(i.clone(), Term::int(3)), Term::lt(y.clone(), Term::bv(3, 32))]), None);
    assert_eq!(decide(&[Term::lt(i.clone(), Term::app(Op::Mul, vec![i.clone(), i]))]), None);
    assert_eq!(decide(&[Term::eq(Term::bv2(Op::BvMul, y.clone(), y.clone()), Term::bv(4, 32))]), None);
    assert_eq!(decide(&[Term::eq(Term::bv2(Op::BvAnd, y.clone(), Term::bv(1, 32)), Term::bv(1, 32))]), None);
    // y on both sides at different slopes is not an interval question.
    assert_eq!(decide(&[Term::bv2(Op::BvSlt, y.clone(), Term::bv2(Op::BvMul, y.clone(), Term::bv(3, 32)))]), None);
}

#[test]
fn decide_compares_the_variable_with_itself_at_the_same_slope() {
    // C's overflow check: y + 1 < y (signed) holds only for y = INT_MAX;
    // with y ≥ 0 excluded it is unsat (Listing 1's second branch).
    let y = Term::var("y", Sort::Bv(32));
    let plus1 = Term::bv2(Op::BvAdd, y.clone(), Term::bv(1, 32));
    let wraps = Term::bv2(Op::BvSlt, plus1, y.clone());
    assert_eq!(
        decide(std::slice::from_ref(&wraps)),
        Some(Decision::Sat(BTreeMap::from([("y".to_string(), Value::Bv { value: 0x7fff_ffff, width: 32 })])))
    );
    let negative = Term::not(Term::bv2(Op::BvSle, Term::bv(0, 32), y.clone()));
    assert_eq!(decide(&[negative, wraps]), Some(Decision::Unsat));
    // y < y never holds.
    assert_eq!(decide(&[Term::bv2(Op::BvSlt, y.clone(), y.clone())]), Some(Decision::Unsat));
}

#[test]
fn decide_evaluates_other_constraints_on_the_few_values_left() {
    // n ≥ 332 ∧ ¬(n ≥ 333) leaves n = 332, and 332·333 = 110556.
    let n = Term::var("n!1", Sort::Bv(32));
    let square = Term::bv2(Op::BvMul, n.clone(), Term::bv2(Op::BvAdd, n.clone(), Term::bv(1, 32)));
    let range =
        [Term::bv2(Op::BvSle, Term::bv(332, 32), n.clone()), Term::not(Term::bv2(Op::BvSle, Term::bv(333, 32), n.clone()))];
    let mut unsat = range.to_vec();
    unsat.push(Term::ne(square.clone(), Term::bv(110556, 32)));
    assert_eq!(decide(&unsat), Some(Decision::Unsat));
    let mut sat = range.to_vec();
    sat.push(Term::eq(square.clone(), Term::bv(110556, 32)));
    assert_eq!(decide(&sat), Some(Decision::Sat(BTreeMap::from([("n!1".to_string(), Value::Bv { value: 332, width: 32 })]))));
    // 1000 values left: too many to try one by one.
    let wide = [
        Term::bv2(Op::BvSle, Term::bv(0, 32), n.clone()),
        Term::bv2(Op::BvSlt, n, Term::bv(1000, 32)),
        Term::ne(square, Term::bv(6, 32)),
    ];
    assert_eq!(decide(&wide), None);
}

/// The constraints symbolic execution keeps for `x = -50; while (x < 0)
/// { x = x + y; y++; }` after `k` iterations, as the Constraints CPA's
/// window asks them (`-1000 < y < 1000000`, the first two and the last
/// `newest` iteration guards, then `exit` or not), and the assertion
/// `y > 0` failing after the exit.
fn loop_query(k: u128, newest: u128, exit: bool, assertion: bool) -> Vec<Term> {
    let y = Term::var(Y, Sort::Bv(32));
    let x = |j: u128| {
        let c = -50 + (j * (j.saturating_sub(1)) / 2) as i128;
        Term::bv2(Op::BvAdd, Term::bv2(Op::BvMul, Term::bv(j as i128, 32), y.clone()), Term::bv(c, 32))
    };
    let neg = |j: u128| Term::bv2(Op::BvSlt, x(j), Term::bv(0, 32));
    let mut out =
        vec![Term::bv2(Op::BvSlt, Term::bv(-1000, 32), y.clone()), Term::bv2(Op::BvSlt, y.clone(), Term::bv(1_000_000, 32))];
    out.extend([1, 2].into_iter().filter(|j| *j < k).map(neg));
    out.extend((k.saturating_sub(newest).max(3)..k).map(neg));
    out.push(if exit { Term::not(neg(k)) } else { neg(k) });
    if assertion {
        let y_now = Term::bv2(Op::BvAdd, y.clone(), Term::bv(k as i128, 32));
        out.push(Term::eq(
            Term::ite(Term::bv2(Op::BvSlt, Term::bv(0, 32), y_now), Term::bv(1, 32), Term::bv(0, 32)),
            Term::bv(0, 32),
        ));
    }
    out
}

/// The native z3 (the tests that compare with it need it installed).
fn native_z3() -> smt::Z3Process {
    let mut z3 = smt::Z3Process::system(std::time::Duration::from_secs(60));
    if let Err(e) = z3.version() {
        panic!("the native z3 is needed (scripts/setup.sh installs it): {e}");
    }
    z3
}

/// `decide`'s answer on `terms` (which it must decide) after checking it
/// is z3's; `what` names the case in a failure.
fn decided_as_z3_does(z3: &mut smt::Z3Process, terms: &[Term], what: &str) -> smt::Status {
    use smt::{parse_response, Query, SolverBackend, Status};
    let d = decide(terms).unwrap_or_else(|| panic!("{what}: not decided"));
    let out = z3.solve(&Query::new(terms.to_vec()).to_smtlib()).expect("z3 answers");
    let z = parse_response(&out).status();
    let ours = match d {
        Decision::Unsat => Status::Unsat,
        Decision::Sat(_) => Status::Sat,
    };
    assert_eq!(ours, z, "{what}: decide {ours:?}, z3 {z:?}");
    ours
}

#[test]
fn decide_agrees_with_z3_on_an_unrolled_loop_over_one_input() {
    let mut z3 = native_z3();
    let mut answers = BTreeMap::new();
    for k in [1u128, 2, 3, 7, 20, 45, 46, 47, 100, 333, 998, 999, 1000, 1400, 2146, 2147, 2148, 3000] {
        for (exit, assertion) in [(false, false), (true, false), (true, true)] {
            let terms = loop_query(k, 15, exit, assertion);
            let ours = decided_as_z3_does(&mut z3, &terms, &format!("k = {k}, exit {exit}, assertion {assertion}"));
            *answers.entry(ours.as_str()).or_insert(0) += 1;
        }
    }
    // Both answers occur (the loop runs on for a negative y, the
    // assertion's violation is infeasible).
    assert!(answers.get("sat").is_some_and(|n| *n > 5) && answers.get("unsat").is_some_and(|n| *n > 5), "{answers:?}");
}

#[test]
fn decide_agrees_with_the_recorded_corpus() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let table = std::fs::read_to_string(dir.join("answers.tsv")).expect("answers.tsv");
    let mut decided = 0;
    for row in table.lines().skip(1) {
        let mut cols = row.split('\t');
        let (Some(file), Some(answer)) = (cols.next(), cols.next()) else { continue };
        let text = std::fs::read_to_string(dir.join(file)).expect("corpus file");
        let mut sorts: BTreeMap<String, Sort> = BTreeMap::new();
        let mut asserts = Vec::new();
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("(declare-fun ") {
                let name = rest.split_whitespace().next().unwrap_or_default().to_string();
                let sort = if rest.contains("BitVec 32") {
                    Sort::Bv(32)
                } else if rest.contains("BitVec 8") {
                    Sort::Bv(8)
                } else if rest.contains("Bool") {
                    Sort::Bool
                } else if rest.contains("BitVec") {
                    asserts.clear();
                    break; // another width: not needed here
                } else {
                    Sort::Int
                };
                sorts.insert(name, sort);
            } else if let Some(body) = line.strip_prefix("(assert ").and_then(|b| b.strip_suffix(')')) {
                asserts.push(smt::parse_term(body, &|n: &str| sorts.get(n).copied()).expect("corpus term parses"));
            }
        }
        if asserts.is_empty() {
            continue;
        }
        match decide(&asserts) {
            Some(Decision::Unsat) => assert_eq!(answer, "unsat", "{file}"),
            Some(Decision::Sat(_)) => assert_eq!(answer, "sat", "{file}"),
            None => continue,
        }
        decided += 1;
    }
    println!("{decided} corpus queries decided without the solver");
    assert!(decided >= 5, "only {decided} corpus queries have one bit-vector variable");
}

/// `t` with the variable `Y` renamed to `to`.
fn renamed(t: &Term, to: &str) -> Term {
    t.rename(&|n: &str| (n == Y).then(|| std::sync::Arc::from(to)))
}

#[test]
fn decide_cancels_common_terms_and_splits_by_variable() {
    // Two 5-bit variables y and z: constraints over one of them, and
    // equalities whose sides share a term in the other (`z + f(y) = z +
    // g(y)`, at any depth) — exactly what cancelling turns into
    // one-variable constraints — against evaluating all 32·32 pairs.
    const Z: &str = "z!2";
    let width = 5;
    let mut r = XorShift::new(0x6361_6e63);
    let (mut unsat, mut sat, mut refused) = (0, 0, 0);
    for case in 0..3000 {
        let n = 1 + r.index(5);
        let mut terms = Vec::new();
        for _ in 0..n {
            let t = match r.below(5) {
                0 => renamed(&bool_term(&mut r, width, 1), Z),
                1 => {
                    // z·k + f(y) = z·k + g(y), with y and z swapped at times.
                    let z = Term::bv2(Op::BvMul, Term::var(Z, Sort::Bv(width)), Term::bv(r.next_u64() as i128, width));
                    let (f, g) = (bv_term(&mut r, width, 1), bv_term(&mut r, width, 1));
                    let e = Term::eq(Term::bv2(Op::BvAdd, z.clone(), f), Term::bv2(Op::BvAdd, g, z));
                    let e = if r.below(2) == 0 { e } else { Term::not(e) };
                    if r.below(3) == 0 {
                        Term::eq(Term::ite(e, Term::bv(1, width), Term::bv(0, width)), Term::bv(0, width))
                    } else {
                        e
                    }
                }
                // Rarely a constraint tying both (which must be refused).
                2 if r.below(8) == 0 => Term::bv2(Op::BvUlt, Term::var(Z, Sort::Bv(width)), bv_term(&mut r, width, 1)),
                _ => bool_term(&mut r, width, 1),
            };
            terms.push(t);
        }
        let Some(d) = decide(&terms) else {
            refused += 1;
            continue;
        };
        let eval = |y: u128, z: u128| {
            let env = |n: &str| match n {
                Y => Some(Value::Bv { value: y, width }),
                Z => Some(Value::Bv { value: z, width }),
                _ => None,
            };
            terms.iter().all(|t| t.eval(&env) == Some(Value::Bool(true)))
        };
        let satisfiable = (0..32u128).any(|y| (0..32u128).any(|z| eval(y, z)));
        match d {
            Decision::Unsat => {
                assert!(!satisfiable, "case {case}: decide says unsat, but a pair satisfies {terms:?}");
                unsat += 1;
            }
            Decision::Sat(model) => {
                let get = |n: &str| match model.get(n) {
                    Some(Value::Bv { value, .. }) => *value,
                    None => 0, // a variable none of the terms has
                    other => panic!("case {case}: model {other:?}"),
                };
                assert!(eval(get(Y), get(Z)), "case {case}: model {model:?} fails {terms:?}");
                sat += 1;
            }
        }
    }
    println!("{unsat} unsat, {sat} sat, {refused} refused");
    assert!(unsat > 300 && sat > 300, "{unsat} unsat, {sat} sat, {refused} refused");
}

#[test]
fn decide_agrees_with_z3_on_a_counting_loop_over_two_inputs() {
    // `res = a; cnt = b; while (cnt > 0) { cnt--; res++; } assert(res == a + b)`
    // with `a ≤ 1000000`, `0 ≤ b ≤ 1000000`: after `k` iterations the
    // exit asks `a + k = a + b` (or its negation) with guards over `b`.
    let mut z3 = native_z3();
    let a = Term::var("a!1", Sort::Bv(32));
    let b = Term::var("b!2", Sort::Bv(32));
    let c = |v: i128| Term::bv(v, 32);
    let mut answers = BTreeMap::new();
    for k in [0i128, 1, 2, 5, 331, 999_999, 1_000_000, 1_000_001] {
        for (exit, holds) in [(false, false), (true, false), (true, true)] {
            let left = |j: i128| Term::bv2(Op::BvSub, b.clone(), c(j));
            let mut terms = vec![
                Term::bv2(Op::BvSle, a.clone(), c(1_000_000)),
                Term::bv2(Op::BvSle, c(0), b.clone()),
                Term::bv2(Op::BvSle, b.clone(), c(1_000_000)),
            ];
            terms.extend((0..k.min(3)).map(|j| Term::bv2(Op::BvSlt, c(0), left(j))));
            let guard = Term::bv2(Op::BvSlt, c(0), left(k));
            terms.push(if exit { Term::not(guard) } else { guard });
            if exit {
                let same = Term::eq(Term::bv2(Op::BvAdd, a.clone(), c(k)), Term::bv2(Op::BvAdd, a.clone(), b.clone()));
                let flag = Term::eq(Term::ite(same, c(1), c(0)), c(0));
                terms.push(if holds { Term::not(flag) } else { flag });
            }
            let ours = decided_as_z3_does(&mut z3, &terms, &format!("k = {k}, exit {exit}, holds {holds}"));
            *answers.entry(ours.as_str()).or_insert(0) += 1;
        }
    }
    assert!(answers.get("sat").is_some_and(|n| *n > 3) && answers.get("unsat").is_some_and(|n| *n > 3), "{answers:?}");
}

#[test]
fn decide_takes_a_variable_that_occurs_only_zero_extended() {
    // Random constraints over an 8-bit term in which the variable is a
    // 5-bit `y` zero-extended by 3 bits (an `unsigned short` compared as an
    // `unsigned int`, scaled down), against evaluating all 32 values of `y`.
    let mut r = XorShift::new(0x7a65_7874);
    let y5 = Term::var(Y, Sort::Bv(5));
    let widen = |t: &Term| t.substitute(&|n: &str| (n == Y).then(|| Term::bv1(Op::ZeroExt(3), y5.clone())));
    let (mut unsat, mut sat, mut refused) = (0, 0, 0);
    for case in 0..3000 {
        let n = 1 + r.index(4);
        let terms: Vec<Term> = (0..n).map(|_| widen(&bool_term(&mut r, 8, 2))).collect();
        let Some(d) = decide(&terms) else {
            refused += 1;
            continue;
        };
        let holds5 = |v: u128| {
            let env = |n: &str| (n == Y).then_some(Value::Bv { value: v, width: 5 });
            terms.iter().all(|t| t.eval(&env) == Some(Value::Bool(true)))
        };
        match d {
            Decision::Unsat => {
                assert!(!(0..32).any(holds5), "case {case}: decide says unsat, but a value satisfies {terms:?}");
                unsat += 1;
            }
            Decision::Sat(model) => {
                let v = match model.get(Y) {
                    Some(Value::Bv { value, width: 5 }) => *value,
                    other => panic!("case {case}: model {other:?}"),
                };
                assert!(holds5(v), "case {case}: model {v} fails {terms:?}");
                sat += 1;
            }
        }
    }
    println!("{unsat} unsat, {sat} sat, {refused} refused");
    assert!(unsat > 500 && sat > 500, "{unsat} unsat, {sat} sat, {refused} refused");
}

#[test]
fn decide_agrees_with_z3_on_a_loop_bounded_by_an_unsigned_short() {
    // `x = 0; N = nondet_ushort(); while (x < N) x += 2; assert(!(x % 2))`:
    // after `k` iterations the guards compare `2k` with `N` zero-extended.
    let mut z3 = native_z3();
    let n = Term::bv1(Op::ZeroExt(16), Term::var("N!1", Sort::Bv(16)));
    let lt = |k: i128| Term::bv2(Op::BvUlt, Term::bv(2 * k, 32), n.clone());
    let mut answers = BTreeMap::new();
    for k in [0i128, 1, 5, 100, 32767, 32768, 40000] {
        for exit in [false, true] {
            let mut terms: Vec<Term> = (0..k.min(4)).map(lt).collect();
            terms.extend((k.saturating_sub(12).max(4)..k).map(lt));
            terms.push(if exit { Term::not(lt(k)) } else { lt(k) });
            let ours = decided_as_z3_does(&mut z3, &terms, &format!("k = {k}, exit {exit}"));
            *answers.entry(ours.as_str()).or_insert(0) += 1;
        }
    }
    assert!(answers.get("sat").is_some_and(|n| *n > 3) && answers.get("unsat").is_some_and(|n| *n > 1), "{answers:?}");
}
