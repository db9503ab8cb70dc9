//! Symbolic execution (SymbolicValue × Constraints, preset `symbolic`):
//! the paper's Listing 1, the integer/bit-vector trade-off, ⊑ up to alias
//! renaming, path explosion under merge^sep, and the parked-query API
//! (the page's way of answering the solver) against the native z3.

use engine::cpa::AbstractDomain;
use engine::cpas::constraints::{constraints_leq, ConstraintsState};
use engine::cpas::symbolic::{SymState, SymbolicDomain};
use engine::view::Statistics;
use engine::Stepper;
use engine::{build_analysis, Config, Event, Verdict};
use proptest::prelude::*;
use smt::{Op, Sort, Term};
use std::collections::BTreeMap;
use std::sync::Arc;

const LISTING_1: &str = include_str!("../../../static/examples/symexec-listing1.c");

/// Safe over the integers, unsafe in C: `x + 1` wraps to INT_MIN for
/// `x = INT_MAX` (the gallery's theory example).
const OVERFLOW: &str = include_str!("../../../static/examples/symbolic-theory.c");

fn config(preset: &str, sets: &[&str]) -> Config {
    let mut c = Config::preset(preset).unwrap();
    for s in sets {
        c.set_pair(s).unwrap();
    }
    c
}

fn run(src: &str, c: &Config) -> (Verdict, String, Vec<Event>) {
    let program = Arc::new(cfa::from_source(src).unwrap_or_else(|d| panic!("{d:?}")));
    let mut a = build_analysis(program, c, true).unwrap();
    let events = a.run();
    let (v, r) = a.outcome().expect("the run finished");
    (v, r.to_string(), events)
}

fn queries(events: &[Event]) -> Vec<(String, String)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::SolverQuery { smtlib, answer, .. } => Some((smtlib.clone(), answer.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn listing_1_value_analysis_reports_an_unconfirmed_violation() {
    for model in ["MATH", "C"] {
        let (v, reason, _) = run(LISTING_1, &config("value", &[&format!("analysis.intModel={model}")]));
        assert_eq!(v, Verdict::False, "{model}: {reason}");
    }
}

#[test]
fn listing_1_symbolic_execution_proves_it_with_solver_queries() {
    for model in ["MATH", "C"] {
        let (v, reason, events) = run(LISTING_1, &config("symbolic", &[&format!("analysis.intModel={model}")]));
        assert_eq!(v, Verdict::True, "{model}: {reason}");
        let qs = queries(&events);
        assert!(!qs.is_empty(), "no solver query in the trace");
        // Both `b < a` branches are refuted by the solver.
        assert_eq!(qs.iter().filter(|(_, a)| a == "unsat").count(), 2, "{qs:#?}");
        let logic = if model == "C" { "(set-logic QF_BV)" } else { "(set-logic QF_LIA)" };
        assert!(qs.iter().all(|(s, _)| s.contains(logic) && s.contains("(check-sat)\n")), "{qs:#?}");
        // Query ids count up from 0 in trace order.
        let ids: Vec<u32> =
            events.iter().filter_map(|e| if let Event::SolverQuery { id, .. } = e { Some(*id) } else { None }).collect();
        assert_eq!(ids, (0..ids.len() as u32).collect::<Vec<_>>());
    }
}

#[test]
fn overflow_is_safe_over_integers_and_unsafe_over_bitvectors() {
    let (v, reason, _) = run(OVERFLOW, &config("symbolic", &["analysis.intModel=C", "solver.theory=INTEGER"]));
    assert_eq!(v, Verdict::True, "{reason}");
    assert!(reason.contains("ignores arithmetic overflow"), "the reason must say that overflow is ignored: {reason}");
    let (v, reason, _) = run(OVERFLOW, &config("symbolic", &["analysis.intModel=C", "solver.theory=BITVECTOR"]));
    assert_eq!(v, Verdict::False, "{reason}");
    // AUTO picks bit-vectors for the c model, integers for math.
    assert_eq!(run(OVERFLOW, &config("symbolic", &["analysis.intModel=C"])).0, Verdict::False);
    let (v, reason, _) = run(OVERFLOW, &config("symbolic", &["analysis.intModel=MATH"]));
    assert_eq!(v, Verdict::True);
    // Over mathematical integers the theory is exact: no theory note, but the
    // integer-model caveat names the increment whose C result could differ.
    assert!(!reason.contains("ignores arithmetic overflow"), "{reason}");
    assert!(reason.contains("mathematical integers only") && reason.contains("`x + 1` may overflow `int`"), "{reason}");
}

/// `k` sequential nondeterministic branches, branch `i` adding `2^i`, so
/// every path ends with a different `x`.
fn branches(k: u32) -> String {
    let mut s = String::from("extern int __VERIFIER_nondet_int(void);\nint main() {\n  int x = 0;\n");
    for i in 0..k {
        s.push_str(&format!("  if (__VERIFIER_nondet_int()) {{ x = x + {}; }}\n", 1 << i));
    }
    s.push_str("  return x;\n}\n");
    s
}

#[test]
fn path_explosion_two_to_the_k_states_with_merge_sep() {
    for k in 1..=5u32 {
        let src = branches(k);
        let program = Arc::new(cfa::from_source(&src).unwrap());
        let exit = program.main_function().exit;
        let mut a = build_analysis(program, &config("symbolic", &[]), false).unwrap();
        let mut stats = Statistics::default();
        a.run_with(|e| stats.observe(e));
        assert_eq!(a.outcome().unwrap().0, Verdict::True);
        let at_exit = a.reached().filter(|(id, _)| a.record(*id).and_then(|r| r.location) == Some(exit)).count();
        assert_eq!(at_exit, 1 << k, "k = {k}: states at the exit");
        // The final values of x are exactly 0 .. 2^k - 1.
        let mut xs: Vec<i128> = a
            .reached()
            .filter(|(id, _)| a.record(*id).and_then(|r| r.location) == Some(exit))
            .filter_map(|(_, s)| {
                s.parts
                    .iter()
                    .find_map(|p| p.as_any().downcast_ref::<SymState>())
                    .and_then(|m| m.values.values().filter_map(|t| t.as_signed()).max())
            })
            .collect();
        xs.sort();
        assert_eq!(xs, (0..1i128 << k).collect::<Vec<_>>(), "k = {k}");
    }
}

// ---------------------------------------------------------------------------
// ⊑ up to alias renaming
// ---------------------------------------------------------------------------

fn ident(k: u32) -> Term {
    Term::var(&format!("a!{k}"), Sort::Int)
}

/// A random term over identifiers 1..=4.
fn term() -> impl Strategy<Value = Term> {
    let leaf = prop_oneof![(1u32..=4).prop_map(ident), (-3i128..4).prop_map(Term::int)];
    leaf.prop_recursive(3, 12, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Term::app(Op::Add, vec![a, b])),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Term::app(Op::Mul, vec![a, b])),
            inner.prop_map(|a| Term::app(Op::Neg, vec![a])),
        ]
    })
}

fn constraint() -> impl Strategy<Value = Term> {
    (term(), term(), any::<bool>()).prop_map(|(a, b, lt)| Term::app(if lt { Op::Lt } else { Op::Le }, vec![a, b]))
}

fn sym_state() -> impl Strategy<Value = SymState> {
    proptest::collection::btree_map(0u32..5, term(), 0..5).prop_map(|m| SymState {
        values: m.into_iter().map(|(k, v)| (cfa::VarId(k), v)).collect::<BTreeMap<_, _>>(),
        frames: vec![],
        next_id: 4,
    })
}

/// Renames identifier `k` to `perm[k - 1] + offset`.
fn rename(t: &Term, perm: &[u32], offset: u32) -> Term {
    t.rename(&|n| {
        let k: usize = n.strip_prefix("a!")?.parse().ok()?;
        Some(Arc::from(format!("a!{}", perm[k - 1] + offset).as_str()))
    })
}

fn rename_state(s: &SymState, perm: &[u32], offset: u32) -> SymState {
    SymState {
        values: s.values.iter().map(|(v, t)| (*v, rename(t, perm, offset))).collect(),
        frames: vec![],
        next_id: s.next_id + offset + 7,
    }
}

proptest! {
    #[test]
    fn states_equal_up_to_renaming_are_mutually_below(
        s in sym_state(),
        cs in proptest::collection::vec(constraint(), 0..4),
        perm in Just(vec![1u32, 2, 3, 4]).prop_shuffle(),
        offset in 0u32..20,
    ) {
        let r = rename_state(&s, &perm, offset);
        let d = SymbolicDomain;
        prop_assert!(d.is_less_or_equal(&s, &r));
        prop_assert!(d.is_less_or_equal(&r, &s));
        // Jointly with constraints renamed by the same renaming.
        let a = ConstraintsState { constraints: cs.clone(), memory: Arc::new(s.clone()), model: None, ..Default::default() };
        let b = ConstraintsState { constraints: cs.iter().map(|c| rename(c, &perm, offset)).collect(), memory: Arc::new(r.clone()), model: None, ..Default::default() };
        prop_assert!(constraints_leq(&a, &b));
        prop_assert!(constraints_leq(&b, &a));
        // Fewer constraints is more general, never the other way round
        // when a constraint really is lost.
        if let Some((_, rest)) = cs.split_last() {
            let c = ConstraintsState { constraints: rest.to_vec(), memory: Arc::new(s.clone()), model: None, ..Default::default() };
            prop_assert!(constraints_leq(&a, &c));
        }
    }

    #[test]
    fn a_renaming_that_is_not_a_bijection_does_not_cover(x in 1u32..=4, y in 1u32..=4) {
        prop_assume!(x != y);
        // e: v0 = α_x, v1 = α_y   e': v0 = α_1, v1 = α_1 (v0 and v1 equal)
        let e = SymState { values: BTreeMap::from([(cfa::VarId(0), ident(x)), (cfa::VarId(1), ident(y))]), frames: vec![], next_id: 4 };
        let e2 = SymState { values: BTreeMap::from([(cfa::VarId(0), ident(1)), (cfa::VarId(1), ident(1))]), frames: vec![], next_id: 4 };
        let d = SymbolicDomain;
        // e' says v0 = v1; e does not: e ⋢ e'. The other way holds (map α_x, α_y ↦ α_1 is not injective): also not.
        prop_assert!(!d.is_less_or_equal(&e, &e2));
        prop_assert!(!d.is_less_or_equal(&e2, &e));
    }
}

#[test]
fn one_renaming_for_memory_and_constraints() {
    // e: x = α1, y = α2, α1 > 0      e': x = α2, y = α1, α1 > 0
    // Memory alone matches with α2 ↦ α1, α1 ↦ α2; then e' says y > 0,
    // e says x > 0: e ⋢ e'.
    let gt0 = |t: Term| Term::app(Op::Lt, vec![Term::int(0), t]);
    let m = |a: u32, b: u32| SymState {
        values: BTreeMap::from([(cfa::VarId(0), ident(a)), (cfa::VarId(1), ident(b))]),
        frames: vec![],
        next_id: 2,
    };
    let e = ConstraintsState { constraints: vec![gt0(ident(1))], memory: Arc::new(m(1, 2)), model: None, ..Default::default() };
    let e2 = ConstraintsState { constraints: vec![gt0(ident(1))], memory: Arc::new(m(2, 1)), model: None, ..Default::default() };
    assert!(SymbolicDomain.is_less_or_equal(&m(1, 2), &m(2, 1)));
    assert!(!constraints_leq(&e, &e2));
    assert!(!constraints_leq(&e2, &e));
    // With the constraint renamed along, it is covered.
    let e3 = ConstraintsState { constraints: vec![gt0(ident(2))], memory: Arc::new(m(2, 1)), model: None, ..Default::default() };
    assert!(constraints_leq(&e, &e3) && constraints_leq(&e3, &e));
}

// ---------------------------------------------------------------------------
// The parked-query API
// ---------------------------------------------------------------------------

/// Drives a run the way the page does: no back end attached, each parked
/// query answered from outside.
fn run_parked(src: &str, c: &Config, mut answer: impl FnMut(&str) -> String) -> (Vec<Event>, u32) {
    let program = Arc::new(cfa::from_source(src).unwrap());
    let mut a = build_analysis(program, c, true).unwrap();
    a.set_solver(None);
    let mut events = Vec::new();
    let mut parks = 0;
    loop {
        let chunk = a.step();
        let empty = chunk.is_empty();
        events.extend(chunk);
        if let Some(q) = a.pending_query() {
            assert!(!a.is_finished());
            parks += 1;
            let text = answer(&q.smtlib.clone());
            a.answer_query(&text);
        } else if empty && a.is_finished() {
            break;
        }
    }
    (events, parks)
}

#[test]
fn parked_queries_answered_from_outside_give_the_same_trace() {
    // Every query to the solver (no decision in the engine), natively
    // through the attached z3 and parked as in the page: one trace.
    let c = config("symbolic", &["analysis.intModel=C", "cpa.constraints.decideOneInput=false"]);
    let (_, _, native) = run(LISTING_1, &c);
    let mut z3 = smt::Z3Process::system(std::time::Duration::from_secs(10));
    let (parked, parks) = run_parked(LISTING_1, &c, |s| smt::SolverBackend::solve_text(&mut z3, s));
    assert!(
        queries(&parked).iter().all(|(s, _)| !s.starts_with(engine::solver::DECIDED_NOTE)),
        "decideOneInput = false: the engine decides nothing itself"
    );
    assert!(parks > 0);
    assert_eq!(parks as usize, queries(&native).len());
    assert_eq!(parked, native, "the page's way and the native way must give one trace");
    // With its own decisions (the default) the run reaches the same verdict.
    let (verdict, _, decided_run) = run(LISTING_1, &config("symbolic", &["analysis.intModel=C"]));
    let Some(Event::AnalysisFinished { verdict: parked_verdict, .. }) = parked.last() else { panic!("no end") };
    assert_eq!(verdict, *parked_verdict);
    assert!(
        queries(&decided_run).iter().any(|(s, _)| s.starts_with(engine::solver::DECIDED_NOTE)),
        "one-input queries are decided by default"
    );
}

#[test]
fn a_parked_run_decides_one_input_queries_itself_and_never_waits_for_the_solver() {
    // Listing 1 asks only about its one input: in the page (parked, no
    // back end) the engine answers every query, so the run never parks —
    // the verdict does not wait for Z3 to load — and the trace is the
    // native run's.
    let c = config("symbolic", &["analysis.intModel=C"]);
    let (verdict, _, native) = run(LISTING_1, &c);
    let (parked, parks) = run_parked(LISTING_1, &c, |s| panic!("no query should reach the solver: {s}"));
    assert_eq!(parks, 0);
    assert_eq!(parked, native);
    let asked = queries(&parked);
    assert!(!asked.is_empty() && asked.iter().all(|(s, _)| s.starts_with(engine::solver::DECIDED_NOTE)), "{asked:?}");
    assert_eq!(verdict, Verdict::True);
}

#[test]
fn an_unknown_or_garbage_answer_is_treated_as_satisfiable() {
    let c = config("symbolic", &["analysis.intModel=C", "cpa.constraints.decideOneInput=false"]);
    let (events, parks) = run_parked(LISTING_1, &c, |_| "segmentation fault".into());
    assert!(parks > 0);
    let Some(Event::AnalysisFinished { verdict, reason, .. }) = events.last() else { panic!("no end") };
    // Nothing refuted: the error location is reached (sound), and the
    // reason says why.
    assert_eq!(*verdict, Verdict::False);
    assert!(reason.contains("answered unknown"), "{reason}");
    // A parked run sends every query to its solver: each got `unknown`.
    assert!(queries(&events).iter().all(|(_, a)| a == "unknown"));
}

#[test]
fn a_missing_z3_gives_unknown_answers_not_a_panic() {
    let program = Arc::new(cfa::from_source(LISTING_1).unwrap());
    // Every query to the solver (the engine would decide Listing 1's).
    let mut a = build_analysis(program, &config("symbolic", &["cpa.constraints.decideOneInput=false"]), false).unwrap();
    a.set_solver(Some(Box::new(smt::Z3Process::new("/nonexistent/z3", std::time::Duration::from_secs(1)))));
    a.run_with(|_| {});
    let (v, reason) = a.outcome().unwrap();
    assert_eq!(v, Verdict::False);
    assert!(reason.contains("cannot start z3"), "{reason}");
}

#[test]
fn answer_query_without_a_pending_query_does_nothing() {
    let program = Arc::new(cfa::from_source(LISTING_1).unwrap());
    let mut a = build_analysis(program, &config("value", &[]), false).unwrap();
    a.answer_query("sat");
    assert!(a.pending_query().is_none());
    a.run_with(|_| {});
    assert_eq!(a.outcome().unwrap().0, Verdict::False);
}
