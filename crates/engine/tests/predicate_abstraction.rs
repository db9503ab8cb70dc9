//! Predicate abstraction against hand-computed results: the Boolean and the
//! Cartesian abstraction of ψ ∧ φ over small predicate sets, computed by
//! `abstraction::Problem::compute` with the native z3 answering the oracle's
//! queries — including a disjunction (from the ABE merge of two branches)
//! that only the Boolean abstraction can express, and the wrap-around of
//! the `c` model — and `Region::implies`, the propositional coverage check,
//! against its definition.

mod predicate_support;

use engine::cpas::predicate::abstraction::{
    base_constraints, instantiate, instantiate_at, AbstractionKind, Literal, Problem, Region,
};
use engine::cpas::predicate::pathformula::{ssa_name, PathFormula};
use engine::solver::SolverOracle;
use minic::IntModel;
use predicate_support::*;
use proptest::prelude::*;
use smt::{Encoding, Sort, Term};
use std::collections::BTreeSet;

const XY: &str = r#"
extern int __VERIFIER_nondet_int(void);
int main() {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  if (__VERIFIER_nondet_int()) { x = 0; } else { y = 0; }
  return 0;
}
"#;

/// `x >= 0` is assumed, then incremented: `x >= 1` holds over the
/// integers, not in C (INT_MAX + 1 wraps to INT_MIN).
const INCREMENT: &str = r#"
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int main() {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x >= 0);
  x = x + 1;
  return 0;
}
"#;

/// The encoding of predicate analysis under the math model.
fn math() -> Encoding {
    Encoding::wrapped(IntModel::Math)
}

fn cube_set(r: &Region) -> BTreeSet<BTreeSet<Literal>> {
    r.cubes.iter().map(|c| c.iter().cloned().collect()).collect()
}

fn set(cubes: &[&[(Term, bool)]]) -> BTreeSet<BTreeSet<Literal>> {
    cubes.iter().map(|c| c.iter().cloned().collect()).collect()
}

/// The abstraction of `base` over `predicates` (unindexed, instantiated by
/// `version`), of both kinds, with a fresh oracle each.
fn abstract_both(
    p: &cfa::Program,
    enc: Encoding,
    base: Vec<Term>,
    predicates: &[Term],
    version: &dyn Fn(cfa::VarId) -> u32,
) -> (engine::cpas::predicate::abstraction::Computed, engine::cpas::predicate::abstraction::Computed) {
    let mut z3 = z3();
    let mut run = |kind| {
        let oracle = SolverOracle::new();
        let problem = Problem {
            program: p,
            encoding: enc,
            base: base.clone(),
            predicates: predicates.iter().map(|q| (q.clone(), instantiate(q, version))).collect(),
            oracle: &oracle,
            comment: "test".into(),
        };
        compute(&problem, kind, &mut z3)
    };
    (run(AbstractionKind::Boolean), run(AbstractionKind::Cartesian))
}

/// The term of `var` at SSA version `k`.
fn at(p: &cfa::Program, name: &str, k: u32) -> Term {
    Term::var(&ssa_name(var(p, name), k), Sort::Int)
}

#[test]
fn the_merge_of_two_branches_is_a_disjunction_only_the_boolean_abstraction_keeps() {
    let p = program(XY);
    let paths = main_paths(&p);
    assert_eq!(paths.len(), 2, "one path per branch");
    let (left, right) = (path_formula(&p, math(), &paths[0]), path_formula(&p, math(), &paths[1]));
    let phi = left.merge(&right, math(), &p).expect("same call stack");
    assert_eq!(phi.conjuncts.len(), 1, "ABE merge: one disjunction");
    let (x, y) = (pvar(&p, "x"), pvar(&p, "y"));
    let (x0, y0) = (Term::eq(x.clone(), Term::int(0)), Term::eq(y.clone(), Term::int(0)));
    let base = base_constraints(&p, math(), &Region::top(), &phi);
    let preds = [x0.clone(), y0.clone()];
    let (boolean, cartesian) = abstract_both(&p, math(), base, &preds, &|v| phi.current.get(&v).copied().unwrap_or(0));
    // By hand: φ ≡ (x == 0 ∨ y == 0) at the current versions, so the models'
    // cubes are {x==0, y==0}, {x==0, !y==0}, {!x==0, y==0} — never both false.
    assert_eq!(boolean.kind, AbstractionKind::Boolean);
    assert_eq!(
        cube_set(&boolean.region),
        set(&[
            &[(x0.clone(), true), (y0.clone(), true)],
            &[(x0.clone(), true), (y0.clone(), false)],
            &[(x0.clone(), false), (y0.clone(), true)]
        ]),
        "{:?}",
        boolean.region
    );
    // Cartesian: neither predicate nor its negation is implied: true.
    assert_eq!(cartesian.kind, AbstractionKind::Cartesian);
    assert!(cartesian.region.is_true(), "{:?}", cartesian.region);
    // Strictly weaker: the Boolean result implies the Cartesian one, not back.
    assert!(boolean.region.implies(&cartesian.region));
    assert!(!cartesian.region.implies(&boolean.region));
    // And the Boolean region means exactly x == 0 || y == 0.
    let mut z3 = z3();
    let disj = Term::or(vec![x0.clone(), y0.clone()]);
    let r = boolean.region.to_term();
    assert!(entails(&p, math(), std::slice::from_ref(&r), &disj, &mut z3) && entails(&p, math(), &[disj], &r, &mut z3));
}

#[test]
fn implied_predicates_and_negations_by_hand() {
    let p = program(INCREMENT);
    let x = pvar(&p, "x");
    let (x0, x1) = (at(&p, "x", 0), at(&p, "x", 1));
    let ge = |k: i128| Term::le(Term::int(k), x.clone());
    let eq5 = Term::eq(x.clone(), Term::int(5));
    // φ: x₁ = x₀ + 1 ∧ x₀ >= 0, predicates x >= 1, x >= 0, x == 5 at version 1.
    let base = vec![Term::eq(x1.clone(), Term::add(x0.clone(), Term::int(1))), Term::le(Term::int(0), x0.clone())];
    let preds = [ge(1), ge(0), eq5.clone()];
    let (boolean, cartesian) = abstract_both(&p, math(), base, &preds, &|_| 1);
    // Boolean: x >= 1 and x >= 0 always; x == 5 either way: two cubes.
    assert_eq!(
        cube_set(&boolean.region),
        set(&[&[(ge(1), true), (ge(0), true), (eq5.clone(), true)], &[(ge(1), true), (ge(0), true), (eq5.clone(), false)]])
    );
    // Cartesian: one cube of the implied literals; x == 5 is left out.
    assert_eq!(cube_set(&cartesian.region), set(&[&[(ge(1), true), (ge(0), true)]]));
    // Here they are equivalent: the Boolean cubes differ only in x == 5.
    assert!(boolean.region.implies(&cartesian.region) && cartesian.region.implies(&boolean.region));

    // A negation: x₁ < 0 implies !(x >= 0) in both.
    let base = vec![Term::lt(x1.clone(), Term::int(0))];
    let (boolean, cartesian) = abstract_both(&p, math(), base, &[ge(0)], &|_| 1);
    assert_eq!(cube_set(&boolean.region), set(&[&[(ge(0), false)]]));
    assert_eq!(cube_set(&cartesian.region), set(&[&[(ge(0), false)]]));
}

#[test]
fn an_infeasible_block_is_false_after_one_query_and_no_predicates_give_true() {
    let p = program(INCREMENT);
    let x1 = at(&p, "x", 1);
    let x = pvar(&p, "x");
    let contradiction = vec![Term::lt(Term::int(0), x1.clone()), Term::lt(x1.clone(), Term::int(0))];
    let (boolean, cartesian) = abstract_both(&p, math(), contradiction, &[Term::eq(x.clone(), Term::int(0))], &|_| 1);
    for c in [&boolean, &cartesian] {
        assert!(c.region.is_false(), "{:?}", c.region);
        assert_eq!(c.queries, 1, "only the satisfiability query");
    }
    let (boolean, cartesian) = abstract_both(&p, math(), vec![Term::lt(Term::int(0), x1)], &[], &|_| 1);
    assert!(boolean.region.is_true() && cartesian.region.is_true());
    assert_eq!((boolean.queries, cartesian.queries), (1, 1));
}

#[test]
fn the_abstraction_respects_psi_and_the_c_model_wraps() {
    let p = program(INCREMENT);
    let path = &main_paths(&p)[0];
    let x = pvar(&p, "x");
    let ge1 = Term::le(Term::int(1), x.clone());
    for (model, wraps) in [(IntModel::Math, false), (IntModel::C, true)] {
        let enc = Encoding::wrapped(model);
        let phi = path_formula(&p, enc, path);
        let base = base_constraints(&p, enc, &Region::top(), &phi);
        let (boolean, cartesian) =
            abstract_both(&p, enc, base, std::slice::from_ref(&ge1), &|v| phi.current.get(&v).copied().unwrap_or(0));
        if wraps {
            // INT_MAX + 1 = INT_MIN: both polarities are possible.
            assert_eq!(cube_set(&boolean.region), set(&[&[(ge1.clone(), true)], &[(ge1.clone(), false)]]), "{model:?}");
            assert!(cartesian.region.is_true(), "{model:?}: {:?}", cartesian.region);
        } else {
            assert_eq!(cube_set(&boolean.region), set(&[&[(ge1.clone(), true)]]), "{model:?}");
            assert_eq!(cube_set(&cartesian.region), set(&[&[(ge1.clone(), true)]]), "{model:?}");
        }
    }
    // ψ is the previous block's abstraction, instantiated at version 0.
    // After `x = x + 1` alone: from ψ = (0 <= x && x < 5), x >= 1 holds in
    // both models; from ψ = (x >= 5) only over the integers (x = INT_MAX).
    let increment = p.edges.iter().find(|e| e.label == "x = x + 1;").expect("the increment edge").id;
    let bounded =
        Region { cubes: vec![vec![(Term::le(Term::int(0), x.clone()), true), (Term::lt(x.clone(), Term::int(5)), true)]] };
    let at_least_5 = Region { cubes: vec![vec![(Term::le(Term::int(5), x.clone()), true)]] };
    for model in [IntModel::Math, IntModel::C] {
        let enc = Encoding::wrapped(model);
        let phi = path_formula(&p, enc, &[increment]);
        for (psi, exact) in [(&bounded, true), (&at_least_5, model == IntModel::Math)] {
            let base = base_constraints(&p, enc, psi, &phi);
            let psi_at_0 = instantiate_at(&psi.to_term(), &PathFormula::default());
            assert!(base.contains(&psi_at_0), "ψ at version 0 in {base:?}");
            let (boolean, cartesian) =
                abstract_both(&p, enc, base, std::slice::from_ref(&ge1), &|v| phi.current.get(&v).copied().unwrap_or(0));
            if exact {
                assert_eq!(cube_set(&boolean.region), set(&[&[(ge1.clone(), true)]]), "{model:?} {psi:?}");
                assert_eq!(cube_set(&cartesian.region), set(&[&[(ge1.clone(), true)]]), "{model:?} {psi:?}");
            } else {
                assert_eq!(cube_set(&boolean.region), set(&[&[(ge1.clone(), true)], &[(ge1.clone(), false)]]));
                assert!(cartesian.region.is_true());
            }
        }
    }
}

// --- Region::implies: propositional implication over predicate atoms ---

fn atom(i: usize) -> Term {
    Term::var(&format!("b{i}"), Sort::Bool)
}

fn region(cubes: &[&[(usize, bool)]]) -> Region {
    let mut cubes: Vec<Vec<Literal>> = cubes
        .iter()
        .map(|c| {
            let mut c: Vec<Literal> = c.iter().map(|(i, b)| (atom(*i), *b)).collect();
            c.sort();
            c.dedup();
            c
        })
        .collect();
    cubes.sort();
    Region { cubes }
}

/// The definition: every assignment of the atoms that satisfies `a`
/// satisfies `b`.
fn brute_implies(a: &Region, b: &Region, atoms: usize) -> bool {
    let holds = |r: &Region, bits: u32| {
        r.cubes.iter().any(|c| c.iter().all(|(t, pos)| (0..atoms).any(|i| atom(i) == *t && ((bits >> i) & 1 == 1) == *pos)))
    };
    (0..1u32 << atoms).all(|bits| !holds(a, bits) || holds(b, bits))
}

#[test]
fn implies_true_cases() {
    let (a, b) = ((0, true), (1, true));
    let (na, nb) = ((0, false), (1, false));
    let cases: Vec<(Region, Region)> = vec![
        (region(&[&[a]]), region(&[&[a]])),
        (region(&[&[a]]), Region::top()),
        (Region::bottom(), region(&[&[a]])),
        (Region::bottom(), Region::bottom()),
        (region(&[&[a, b]]), region(&[&[a]])),
        (region(&[&[a]]), region(&[&[a], &[b]])),
        // Needs case splitting on b: a ⇒ (a ∧ b) ∨ (a ∧ ¬b).
        (region(&[&[a]]), region(&[&[a, b], &[a, nb]])),
        (region(&[&[a, b], &[a, nb]]), region(&[&[a]])),
        // (a ∨ ¬a) is true: top implies it.
        (Region::top(), region(&[&[a], &[na]])),
        (region(&[&[a], &[b]]), region(&[&[b], &[a]])),
    ];
    for (x, y) in cases {
        assert!(x.implies(&y), "{:?} ⇒ {:?}", x, y);
        assert!(brute_implies(&x, &y, 2));
    }
}

#[test]
fn implies_false_cases() {
    let (a, b) = ((0, true), (1, true));
    let na = (0, false);
    let cases: Vec<(Region, Region)> = vec![
        (region(&[&[a]]), region(&[&[b]])),
        (Region::top(), region(&[&[a]])),
        (region(&[&[a]]), Region::bottom()),
        (region(&[&[a], &[b]]), region(&[&[a]])),
        (region(&[&[a], &[b]]), region(&[&[a, b]])),
        (region(&[&[a]]), region(&[&[na]])),
        (region(&[&[na]]), region(&[&[a, b]])),
    ];
    for (x, y) in cases {
        assert!(!x.implies(&y), "{:?} ⇏ {:?}", x, y);
        assert!(!brute_implies(&x, &y, 2));
    }
}

#[test]
fn a_contradictory_cube_implies_anything() {
    let contradiction = region(&[&[(0, true), (0, false)]]);
    assert!(contradiction.implies(&region(&[&[(1, true)]])));
    assert!(contradiction.implies(&Region::bottom()));
    // Only that cube is vacuous; the other one still has to imply.
    let mixed = region(&[&[(0, true), (0, false)], &[(1, true)]]);
    assert!(mixed.implies(&region(&[&[(1, true)]])));
    assert!(!mixed.implies(&region(&[&[(2, true)]])));
}

#[test]
fn implication_is_propositional_not_arithmetic() {
    // x > 5 ⇒ x > 0 holds over the integers, but the atoms are different:
    // the coverage check does not see it (sound: it may only miss coverage).
    let x = Term::var("v0", Sort::Int);
    let gt = |k| Term::lt(Term::int(k), x.clone());
    let a = Region { cubes: vec![vec![(gt(5), true)]] };
    let b = Region { cubes: vec![vec![(gt(0), true)]] };
    assert!(!a.implies(&b));
    assert!(a.implies(&a.clone()));
}

fn arb_region() -> impl Strategy<Value = Region> {
    prop::collection::vec(prop::collection::vec((0usize..3, any::<bool>()), 0..4), 0..4).prop_map(|cubes| {
        let cubes: Vec<&[(usize, bool)]> = cubes.iter().map(Vec::as_slice).collect();
        region(&cubes)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]
    /// Over three atoms (no budget cut-off), `implies` is exactly the
    /// propositional implication.
    #[test]
    fn implies_agrees_with_truth_tables(a in arb_region(), b in arb_region()) {
        prop_assert_eq!(a.implies(&b), brute_implies(&a, &b, 3), "{:?} ⇒ {:?}", a, b);
    }
}

// --- coverage_check: what a covering Stop event says decided ⊑ ---

fn abstraction_state(r: Region) -> engine::cpas::predicate::PredicateState {
    engine::cpas::predicate::PredicateState {
        abstraction: std::sync::Arc::new(r),
        ..engine::cpas::predicate::PredicateState::initial()
    }
}

#[test]
fn coverage_check_names_equality_implication_or_nothing() {
    use engine::cpas::predicate::coverage_check;
    let (a, b) = ((0, true), (1, true));
    let ab = abstraction_state(region(&[&[a, b]]));
    let just_a = abstraction_state(region(&[&[a]]));
    let equal = coverage_check(&just_a, &abstraction_state(region(&[&[a]]))).expect("a ⊑ a");
    assert!(equal.starts_with("syntactic equality"), "{equal}");
    let implied = coverage_check(&ab, &just_a).expect("a ∧ b ⊑ a");
    assert!(implied.starts_with("propositional implication over the predicates"), "{implied}");
    // Not covered: nothing to say (the other direction does not hold).
    assert_eq!(coverage_check(&just_a, &ab), None);
    // An abstraction state is never covered by a state inside a block.
    let mut inside = abstraction_state(region(&[&[a]]));
    inside.is_abstraction = false;
    assert_eq!(coverage_check(&just_a, &inside), None);
    let same_block = coverage_check(&inside, &inside.clone()).expect("equal states inside a block");
    assert!(same_block.starts_with("syntactic equality"), "{same_block}");
}

#[test]
fn a_predicate_the_block_states_needs_no_query() {
    let p = program(XY);
    let (x, y) = (pvar(&p, "x"), pvar(&p, "y"));
    let (x0, y1) = (at(&p, "x", 0), at(&p, "y", 1));
    let x_pos = Term::lt(Term::int(0), x.clone());
    let y_pos = Term::lt(Term::int(0), y.clone());
    let y_eq = Term::eq(y.clone(), Term::int(-7));
    // ψ says 0 < x (x untouched by the block: still version 0) and the
    // block assumes ¬(0 < y₁) and sets nothing else.
    let psi = Region { cubes: vec![vec![(x_pos.clone(), true)]] };
    let base = vec![instantiate(&psi.to_term(), &|_| 0), Term::not(Term::lt(Term::int(0), y1.clone()))];
    assert!(base[0] == Term::lt(Term::int(0), x0.clone()));
    let (boolean, cartesian) = abstract_both(&p, math(), base, &[x_pos.clone(), y_pos.clone(), y_eq.clone()], &|v| {
        if v == var(&p, "y") {
            1
        } else {
            0
        }
    });
    // Both stated predicates are decided without a query; only y == -7 is
    // asked: Cartesian asks whether ¬(y₁ = -7) and y₁ = -7 are possible (the
    // first model may already show one), Boolean enumerates its two cubes.
    assert_eq!(cube_set(&cartesian.region), set(&[&[(x_pos.clone(), true), (y_pos.clone(), false)]]));
    assert!(cartesian.queries <= 3, "the satisfiability query and at most two for y == -7: {}", cartesian.queries);
    assert_eq!(
        cube_set(&boolean.region),
        set(&[
            &[(x_pos.clone(), true), (y_pos.clone(), false), (y_eq.clone(), false)],
            &[(x_pos.clone(), true), (y_pos.clone(), false), (y_eq.clone(), true)]
        ])
    );
    assert_eq!(boolean.queries, 4, "the satisfiability query, two cubes, the final unsat");
    // With only stated predicates, the satisfiability query is all.
    let base = vec![Term::lt(Term::int(0), x0), Term::not(Term::lt(Term::int(0), y1))];
    let (boolean, cartesian) = abstract_both(&p, math(), base, &[x_pos, y_pos], &|v| if v == var(&p, "y") { 1 } else { 0 });
    assert_eq!((boolean.queries, cartesian.queries), (1, 1));
    assert_eq!(boolean.region, cartesian.region);
}
