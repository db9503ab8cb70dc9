//! `smt::univariate::decide` answers exactly what a solver would:
//!
//! * on random constraint sets over one 8-bit or 5-bit variable (small
//!   enough that constraints beyond intervals are evaluated value by
//!   value, so nearly every set is decided), against
//!   evaluating every constraint for every value of the variable (so an
//!   `unsat` is checked to be truly empty, a `sat` model to satisfy all);
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

#[test]
fn decide_refuses_what_it_cannot_do_exactly() {
    let y = Term::var("y", Sort::Bv(32));
    let z = Term::var("z", Sort::Bv(32));
    let i = Term::var("i", Sort::Int);
    // Two variables, an integer, y·y, a bit-wise operator.
    assert_eq!(decide(&[Term::bv2(Op::BvSlt, y.clone(), z)]), None);
    assert_eq!(decide(&[Term::lt(i, Term::int(3))]), None);
    assert_eq!(decide(&[Term::eq(Term::bv2(Op::BvMul, y.clone(), y.clone()), Term::bv(4, 32))]), None);
    assert_eq!(decide(&[Term::eq(Term::bv2(Op::BvAnd, y.clone(), Term::bv(1, 32)), Term::bv(1, 32))]), None);
    // A comparison with y on both sides is not an interval question.
    assert_eq!(decide(&[Term::bv2(Op::BvSlt, y.clone(), Term::bv2(Op::BvAdd, y.clone(), Term::bv(1, 32)))]), None);
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

#[test]
fn decide_agrees_with_z3_on_an_unrolled_loop_over_one_input() {
    use smt::{parse_response, Query, SolverBackend, Status, Z3Process};
    let mut z3 = Z3Process::system(std::time::Duration::from_secs(60));
    if let Err(e) = z3.version() {
        panic!("the native z3 is needed (scripts/setup.sh installs it): {e}");
    }
    let mut answers = BTreeMap::new();
    for k in [1u128, 2, 3, 7, 20, 45, 46, 47, 100, 333, 998, 999, 1000, 1400, 2146, 2147, 2148, 3000] {
        for (exit, assertion) in [(false, false), (true, false), (true, true)] {
            let terms = loop_query(k, 15, exit, assertion);
            let d = decide(&terms).unwrap_or_else(|| panic!("k = {k}: not decided"));
            let out = z3.solve(&Query::new(terms.clone()).to_smtlib()).expect("z3 answers");
            let z = parse_response(&out).status();
            let ours = match d {
                Decision::Unsat => Status::Unsat,
                Decision::Sat(_) => Status::Sat,
            };
            assert_eq!(ours, z, "k = {k}, exit {exit}, assertion {assertion}: decide {ours:?}, z3 {z:?}");
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
