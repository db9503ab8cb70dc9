//! The solver oracle's canonical cache against the real z3: an answer the
//! oracle gives without the solver (the same query as an earlier one up to
//! renaming its symbols) is the answer z3 gives to that very script, and
//! its renamed model satisfies the script's assertions. Queries are random
//! small constraint sets over bit-vectors and integers, asked once with
//! one naming and again with another (and with constants changed, which
//! must not hit).

#![cfg(not(target_arch = "wasm32"))]

use engine::solver::{Ask, SolverOracle, CACHED_NOTE};
use proptest::prelude::*;
use smt::{parse_response, Op, Query, SolverBackend, Sort, Status, Term, Value, Z3Process};
use std::time::Duration;

/// One atom over variables `v[a]`, `v[b]` and a constant.
#[derive(Clone, Debug)]
struct Atom {
    a: usize,
    b: usize,
    k: i64,
    kind: u8,
}

fn atom(t: &Atom, v: &[Term], bv: bool) -> Term {
    let (x, y) = (v[t.a].clone(), v[t.b].clone());
    if bv {
        let k = Term::bv(i128::from(t.k), 8);
        let app = Term::app;
        match t.kind % 4 {
            0 => app(Op::BvUlt, vec![app(Op::BvAdd, vec![x, k]), y]),
            1 => Term::eq(app(Op::BvAdd, vec![x, y]), k),
            2 => Term::not(app(Op::BvUle, vec![x, app(Op::BvSub, vec![y, k])])),
            _ => app(Op::BvSlt, vec![app(Op::BvMul, vec![x, k]), y]),
        }
    } else {
        let k = Term::int(i128::from(t.k));
        match t.kind % 4 {
            0 => Term::lt(Term::add(x, k), y),
            1 => Term::eq(Term::add(x, y), k),
            2 => Term::not(Term::le(x, Term::sub(y, k))),
            _ => Term::le(Term::mul(Term::int(3), x), Term::add(y, k)),
        }
    }
}

fn query(atoms: &[Atom], names: &[String], bv: bool) -> Query {
    let sort = if bv { Sort::Bv(8) } else { Sort::Int };
    let v: Vec<Term> = names.iter().map(|n| Term::var(n, sort)).collect();
    let mut q = Query::new(atoms.iter().map(|a| atom(a, &v, bv)).collect());
    q.want_model = true;
    q
}

fn atoms() -> impl Strategy<Value = Vec<Atom>> {
    prop::collection::vec((0usize..3, 0usize..3, -6i64..6, 0u8..4).prop_map(|(a, b, k, kind)| Atom { a, b, k, kind }), 1..5)
}

fn z3() -> Z3Process {
    Z3Process::system(Duration::from_secs(10))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn a_cached_answer_is_the_solvers_answer(atoms in atoms(), bv in any::<bool>(), shift in 1u32..50) {
        let mut solver = z3();
        let oracle = SolverOracle::new();
        let first: Vec<String> = (0..3).map(|i| format!("x!{}", i + 1)).collect();
        // Another naming, whose text order differs from the first's.
        let second: Vec<String> = (0..3).map(|i| format!("y!{}", 3 * shift + 2 - i as u32)).collect();
        let q1 = query(&atoms, &first, bv).to_smtlib();
        prop_assert_eq!(oracle.ask(&q1), Ask::Pending);
        prop_assert_eq!(oracle.take_pending(), Some(q1.clone()));
        let out = solver.solve_text(&q1);
        oracle.record(&q1, parse_response(&out));
        let q2 = query(&atoms, &second, bv);
        let script = q2.to_smtlib();
        let real = parse_response(&solver.solve_text(&script));
        match oracle.ask(&script) {
            Ask::Answer(cached) => {
                prop_assert!(real.status() != Status::Unknown);
                prop_assert_eq!(cached.status(), real.status(), "{}", script);
                prop_assert!(!oracle.has_pending());
                if cached.status() == Status::Sat {
                    // The renamed model is a model of this script.
                    let env = |n: &str| cached.model.get(n).copied();
                    for a in &q2.assertions {
                        prop_assert_eq!(a.eval(&env), Some(Value::Bool(true)), "{} under {:?}", a, cached.model);
                    }
                }
                let cached_events = oracle.take_cached();
                prop_assert_eq!(cached_events.len(), 1);
                prop_assert!(cached_events[0].0.starts_with(CACHED_NOTE));
                prop_assert_eq!(&cached_events[0].1, cached.status().as_str());
            }
            // Only an unknown first answer is not reused.
            Ask::Pending => prop_assert_eq!(parse_response(&out).status(), Status::Unknown),
        }
    }

    #[test]
    fn a_different_constant_is_never_a_hit(atoms in atoms(), bv in any::<bool>()) {
        let oracle = SolverOracle::new();
        let names: Vec<String> = (0..3).map(|i| format!("x!{}", i + 1)).collect();
        let q1 = query(&atoms, &names, bv).to_smtlib();
        oracle.record(&q1, parse_response("sat\n"));
        let mut changed = atoms.clone();
        changed[0].k += 7;
        let q2 = query(&changed, &names, bv).to_smtlib();
        if q2 != q1 {
            prop_assert_eq!(oracle.ask(&q2), Ask::Pending);
        }
    }
}
