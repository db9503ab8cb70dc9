//! Sequence interpolants of predicate refinement
//! (`predicate_refinement::InterpolationJob`, WEAKEST and STRONGEST) on the
//! infeasible error paths the analysis really refutes — a lockstep loop, a
//! flag guard, a call in a loop, nested loops — with the native z3 doing
//! the quantifier eliminations, then checked with the solver: B₁ ⇒ I₁,
//! Iᵢ ∧ Bᵢ₊₁ ⇒ Iᵢ₊₁, Iₘ₋₁ ∧ Bₘ unsatisfiable, each Iᵢ over the cut's
//! shared SSA names, the predicates over program variables only and the
//! same for the same path.

mod predicate_support;

use cfa::{EdgeId, Program};
use engine::cegar::build_verifier;
use engine::cpas::predicate::pathformula::parse_var_name;
use engine::predicate_refinement::{Direction, InterpolationJob};
use engine::trace::Event;
use engine::{Config, Stepper};
use minic::IntModel;
use predicate_support::*;
use smt::{Encoding, Status, Term};
use std::sync::Arc;

const LOCKSTEP: &str = include_str!("programs/predicate/lockstep.c");
const FLAG: &str = include_str!("programs/predicate/flag.c");
const CALL: &str = include_str!("programs/predicate/callloop.c");
const NESTED: &str = include_str!("programs/predicate/nested.c");

fn model_name(m: IntModel) -> &'static str {
    if m == IntModel::C {
        "C"
    } else {
        "MATH"
    }
}

/// The error paths the `predicate` preset refuted on `p` under `model`.
fn refuted_paths(p: &Arc<Program>, model: IntModel) -> Vec<Vec<EdgeId>> {
    let mut c = Config::preset("predicate").unwrap();
    c.set("analysis.intModel", model_name(model)).unwrap();
    c.set("limits.steps", "5000").unwrap();
    let mut v = build_verifier(p.clone(), &c, false).unwrap();
    let events = v.run();
    events
        .into_iter()
        .filter_map(|e| match e {
            Event::Refinement { path, .. } => Some(path),
            _ => None,
        })
        .collect()
}

fn job(p: &Arc<Program>, path: &[EdgeId], model: IntModel, direction: Direction) -> InterpolationJob {
    let c = Config::preset("predicate").unwrap();
    let blocks = engine::build::predicate_options(&c).blocks;
    let mut j = InterpolationJob::new(p.clone(), path, blocks, Encoding::wrapped(model), direction);
    interpolate(&mut j, &mut z3());
    j
}

/// Checks the sequence-interpolant conditions of a finished job.
fn check_sequence(p: &Program, j: &InterpolationJob, model: IntModel, what: &str) {
    let enc = Encoding::wrapped(model);
    let bp = j.block_path();
    let m = bp.blocks.len();
    assert!(m >= 2, "{what}: a refuted path has a cut");
    assert_eq!(bp.cuts.len(), m - 1, "{what}");
    assert!(j.failures().is_empty(), "{what}: {:?}", j.failures());
    let its: Vec<Term> = j.interpolants().iter().map(|i| i.clone().expect("every cut has an interpolant")).collect();
    assert_eq!(its.len(), m - 1);
    let mut z3 = z3();
    // The path itself is infeasible.
    let all: Vec<Term> = bp.blocks.iter().flatten().cloned().collect();
    let mut path = all.clone();
    path.extend(ranges(p, enc, &all));
    assert_eq!(status(path, &mut z3), Status::Unsat, "{what}: the refuted path is infeasible");
    // B₁ ⇒ I₁
    assert!(entails(p, enc, &bp.blocks[0], &its[0], &mut z3), "{what}: B1 ⇏ I1 = {}", its[0].pretty());
    // Iᵢ ∧ Bᵢ₊₁ ⇒ Iᵢ₊₁
    for i in 1..m - 1 {
        let mut premises = vec![its[i - 1].clone()];
        premises.extend(bp.blocks[i].iter().cloned());
        assert!(entails(p, enc, &premises, &its[i], &mut z3), "{what}: I{i} ∧ B{} ⇏ I{}", i + 1, i + 1);
    }
    // Iₘ₋₁ ∧ Bₘ unsat
    let mut last = vec![its[m - 2].clone()];
    last.extend(bp.blocks[m - 1].iter().cloned());
    assert!(entails(p, enc, &last, &Term::bool(false), &mut z3), "{what}: I{} ∧ B{m} is satisfiable", m - 1);
    // Each interpolant speaks about the cut's shared SSA names only.
    for (i, (it, cut)) in its.iter().zip(&bp.cuts).enumerate() {
        for name in it.vars().keys() {
            assert!(cut.shared.contains(name), "{what}: I{} mentions {name}, not shared at the cut", i + 1);
        }
    }
    // The predicates: program variables without versions.
    for (cut, preds) in j.predicates() {
        for q in preds {
            for name in q.vars().keys() {
                let v = parse_var_name(name).unwrap_or_else(|| panic!("{what}: predicate variable {name} at {}", cut.location));
                assert!((v.0 as usize) < p.variables.len(), "{what}: {name}");
            }
        }
    }
}

fn check_program(src: &str, model: IntModel, min_paths: usize) {
    let p = program(src);
    let paths = refuted_paths(&p, model);
    assert!(paths.len() >= min_paths, "{model:?}: only {} refinements", paths.len());
    for (k, path) in paths.iter().enumerate() {
        for direction in [Direction::Weakest, Direction::Strongest] {
            let what = format!("{model:?} path {k} {}", direction.name());
            let j = job(&p, path, model, direction);
            check_sequence(&p, &j, model, &what);
            // Determinism: the same path gives the same interpolants and
            // predicates (a fresh z3, a fresh job).
            let again = job(&p, path, model, direction);
            assert_eq!(j.interpolants(), again.interpolants(), "{what}");
            assert_eq!(j.predicates(), again.predicates(), "{what}");
        }
    }
}

#[test]
fn lockstep_loop_interpolants_are_sequence_interpolants() {
    check_program(LOCKSTEP, IntModel::Math, 1);
    check_program(LOCKSTEP, IntModel::C, 1);
}

#[test]
fn flag_guard_interpolants_are_sequence_interpolants() {
    check_program(FLAG, IntModel::Math, 1);
    check_program(FLAG, IntModel::C, 1);
}

#[test]
fn call_in_a_loop_interpolants_are_sequence_interpolants() {
    check_program(CALL, IntModel::Math, 1);
    check_program(CALL, IntModel::C, 1);
}

#[test]
fn nested_loop_interpolants_are_sequence_interpolants() {
    check_program(NESTED, IntModel::Math, 2);
}

#[test]
fn weakest_generalizes_the_lockstep_loop_to_x_equals_y() {
    // The first refuted path leaves the loop at once (x = y = 0): WEAKEST
    // gives the loop head x == y, which holds for every iteration.
    let p = program(LOCKSTEP);
    let path = refuted_paths(&p, IntModel::Math).remove(0);
    let weakest = job(&p, &path, IntModel::Math, Direction::Weakest);
    let shown: Vec<String> = weakest
        .predicates()
        .iter()
        .flat_map(|(_, ps)| ps.iter().map(|q| engine::cpas::predicate::show_predicate(&p, q)))
        .collect();
    assert!(shown.iter().any(|s| s == "main::x == main::y" || s == "main::y == main::x"), "{shown:?}");
    // STRONGEST describes the one prefix: x and y are both 0 there.
    let strongest = job(&p, &path, IntModel::Math, Direction::Strongest);
    let first = strongest.interpolants()[0].clone().expect("an interpolant");
    let mut z3 = z3();
    let x_is_0 = Term::eq(Term::var(&bp_name(&p, &strongest, "x"), smt::Sort::Int), Term::int(0));
    assert!(entails(&p, Encoding::wrapped(IntModel::Math), &[first], &x_is_0, &mut z3));
}

/// The SSA name of `name` shared at the first cut of the job.
fn bp_name(p: &Program, j: &InterpolationJob, name: &str) -> String {
    let v = var(p, name);
    let prefix = format!("v{}@", v.0);
    j.block_path().cuts[0].shared.iter().find(|n| n.starts_with(&prefix)).expect("x is shared").to_string()
}

#[test]
fn a_refinement_without_new_predicates_tries_c_then_the_other_direction() {
    use engine::predicate_refinement::next_attempt;
    let math = Encoding::wrapped(IntModel::Math);
    let c = Encoding::wrapped(IntModel::C);
    let w = Direction::Weakest;
    let s = Direction::Strongest;
    assert_eq!(next_attempt(w, c, (math, w)), Some((c, w)));
    assert_eq!(next_attempt(w, c, (c, w)), Some((math, s)));
    assert_eq!(next_attempt(w, c, (math, s)), Some((c, s)));
    assert_eq!(next_attempt(w, c, (c, s)), None);
    // Under math there is no second encoding.
    assert_eq!(next_attempt(s, math, (math, s)), Some((math, w)));
    assert_eq!(next_attempt(s, math, (math, w)), None);
}

#[test]
fn atoms_with_shifted_divisions_give_one_predicate() {
    // The parity atoms of a loop unrolled once more differ only in the
    // constant inside `div` (`(-x - 2) div 2`, `(-x - 4) div 2`, …); reduced
    // (`(-x) div 2 - 1`) and normalised they are one predicate.
    use engine::cpas::predicate::pathformula::ssa_name;
    use engine::predicate_refinement::predicates_of;
    let p = program("int main() { int x = 0; int y = 0; return x + y; }");
    let x = Term::var(&ssa_name(var(&p, "x"), 1), smt::Sort::Int);
    let y = Term::var(&ssa_name(var(&p, "y"), 1), smt::Sort::Int);
    let shifted = |k: i128| {
        // (x + 2 * ((-x - k) div 2)) - y + 2 * (y div 2) <= -(k + 1)
        let d = Term::div(Term::sub(Term::neg(x.clone()), Term::int(k)), Term::int(2));
        let lhs = Term::add(
            Term::sub(Term::add(x.clone(), Term::mul(Term::int(2), d)), y.clone()),
            Term::mul(Term::int(2), Term::div(y.clone(), Term::int(2))),
        );
        Term::le(lhs, Term::int(-(k + 1)))
    };
    let shared = [x.clone(), y.clone()].iter().map(|t| std::sync::Arc::from(t.as_var().unwrap())).collect();
    let found = predicates_of(&p, &Term::and(vec![shifted(2), shifted(4), shifted(6)]), &shared);
    assert_eq!(found.len(), 1, "{found:?}");
    // An atom without a shifted division keeps the solver's form.
    let plain = Term::eq(Term::sub(x.clone(), Term::mul(Term::int(2), Term::div(x.clone(), Term::int(2)))), Term::int(0));
    let kept = predicates_of(&p, &plain, &shared);
    assert_eq!(kept.len(), 1);
    assert!(kept[0].to_string().contains("div"), "{}", kept[0]);
}

#[test]
fn atoms_constant_over_the_box_of_type_ranges_are_no_predicates() {
    // Interpolants over C's integers keep remnants of the wrap-around cases
    // (`-15032385537 <= x + 2 * y` for `int`s: true for every value of
    // their types); such atoms are dropped, a relation that can go either
    // way is kept.
    use engine::cpas::predicate::pathformula::ssa_name;
    use engine::predicate_refinement::predicates_of;
    let p = program("int main() { int x = 0; int y = 0; unsigned char c = 0; return x + y + c; }");
    let x = Term::var(&ssa_name(var(&p, "x"), 1), smt::Sort::Int);
    let y = Term::var(&ssa_name(var(&p, "y"), 1), smt::Sort::Int);
    let c = Term::var(&ssa_name(var(&p, "c"), 1), smt::Sort::Int);
    let shared = [&x, &y, &c].iter().map(|t| std::sync::Arc::from(t.as_var().unwrap())).collect();
    let x2y = Term::add(x.clone(), Term::mul(Term::int(2), y.clone()));
    let always = Term::le(Term::int(-15_032_385_537), x2y.clone());
    let never = Term::le(Term::int(4_294_967_296), Term::add(x.clone(), y.clone()));
    let never_eq = Term::eq(Term::add(c.clone(), x.clone()), Term::int(3_000_000_000));
    assert!(predicates_of(&p, &Term::and(vec![always, never.clone(), never_eq]), &shared).is_empty());
    assert!(predicates_of(&p, &Term::not(never), &shared).is_empty());
    let either = Term::le(Term::int(2_147_483_647), x2y);
    assert_eq!(predicates_of(&p, &either, &shared).len(), 1);
    let small = Term::le(Term::add(c.clone(), y.clone()), Term::int(300));
    assert_eq!(predicates_of(&p, &small, &shared).len(), 1);
}

#[test]
fn an_elimination_budget_wraps_the_tactic_in_try_for() {
    // `cpa.predicate.refinement.eliminationTimeMs`: every elimination of the
    // job is limited; 0 leaves the script as it was.
    let p = program(LOCKSTEP);
    let paths = refuted_paths(&p, IntModel::C);
    let path = paths.first().expect("lockstep is refined once");
    let blocks = engine::build::predicate_options(&Config::preset("predicate").unwrap()).blocks;
    let make = || InterpolationJob::new(p.clone(), path, blocks, Encoding::wrapped(IntModel::C), Direction::Weakest);
    let limited = make().with_elimination_budget(250).next_query().unwrap();
    assert!(limited.contains("(apply (try-for (or-else") && limited.trim_end().ends_with(" 250))"), "{limited}");
    let unlimited = make().with_elimination_budget(0).next_query().unwrap();
    assert!(!unlimited.contains("try-for"), "{unlimited}");
    assert_eq!(unlimited, make().next_query().unwrap());
    // The limited job still computes the lockstep's interpolants.
    let mut j = make().with_elimination_budget(5000);
    interpolate(&mut j, &mut z3());
    assert!(j.failures().is_empty(), "{:?}", j.failures());
    check_sequence(&p, &j, IntModel::C, "lockstep with a budget");
}

#[test]
fn z3s_own_interpolants_are_sequence_interpolants_and_prove_the_lockstep_loop() {
    // `cpa.predicate.refinement.interpolation = Z3`: each cut asks the native
    // z3's `(get-interpolant A B)` — the same conditions hold.
    for (name, src, min_paths) in [("lockstep", LOCKSTEP, 1), ("flag", FLAG, 1), ("call", CALL, 1), ("nested", NESTED, 2)] {
        let p = program(src);
        let paths = refuted_paths(&p, IntModel::Math);
        assert!(paths.len() >= min_paths, "{name}");
        for (k, path) in paths.iter().enumerate() {
            let j = job(&p, path, IntModel::Math, Direction::Z3);
            check_sequence(&p, &j, IntModel::Math, &format!("{name} path {k} Z3"));
        }
    }
    let mut c = Config::preset("predicate").unwrap();
    c.set("analysis.intModel", "MATH").unwrap();
    c.set("cpa.predicate.refinement.interpolation", "Z3").unwrap();
    let mut v = build_verifier(program(LOCKSTEP), &c, false).unwrap();
    let events = v.run();
    assert_eq!(v.outcome().map(|o| o.0), Some(engine::Verdict::True));
    assert!(events.iter().any(|e| matches!(e, Event::Refinement { refiner, .. } if refiner == "predicate interpolation (Z3)")));
}

#[test]
fn where_z3_has_no_interpolation_every_cut_fails_soundly() {
    // The page's Z3 answers `unsupported`: no interpolant, no predicate, a
    // failure that names the answer (the refinement then tries WEAKEST).
    let p = program(LOCKSTEP);
    let path = refuted_paths(&p, IntModel::Math).remove(0);
    let c = Config::preset("predicate").unwrap();
    let blocks = engine::build::predicate_options(&c).blocks;
    let mut j = InterpolationJob::new(p.clone(), &path, blocks, Encoding::wrapped(IntModel::Math), Direction::Z3);
    assert!(j.next_query().unwrap().contains("(get-interpolant "));
    while j.next_query().is_some() {
        assert!(j.answer("unsupported\n").starts_with("failed: the solver answered `unsupported`"));
    }
    assert!(j.interpolants().iter().all(Option::is_none));
    assert!(j.predicates().iter().all(|(_, ps)| ps.is_empty()));
    assert_eq!(
        engine::predicate_refinement::next_attempt(
            Direction::Z3,
            Encoding::wrapped(IntModel::Math),
            (Encoding::wrapped(IntModel::Math), Direction::Z3)
        ),
        Some((Encoding::wrapped(IntModel::Math), Direction::Weakest))
    );
}

/// An error path through many blocks is refined with one query per cut,
/// each answered by the attached z3 as soon as it is asked; the verifier
/// acts on those answers in a loop, not one stack frame per query (it
/// overflowed the main thread's stack on `loop-simple/deep-nested.c`).
/// The run gets a small stack that a frame per query would exhaust.
#[test]
fn a_refinement_along_a_long_path_runs_in_bounded_stack() {
    let loops = "  while (x < 0) { x = x - 1; }\n".repeat(150);
    let src = format!("int main() {{\n  int x = 0;\n{loops}  if (x != 0) {{ reach_error(); }}\n  return 0;\n}}\n");
    let p = Arc::new(cfa::from_source(&src).expect("the program parses"));
    let run = std::thread::Builder::new()
        .stack_size(512 * 1024)
        .spawn(move || {
            let mut c = Config::preset("predicate").unwrap();
            c.set("limits.steps", "20000").unwrap();
            let mut v = build_verifier(p, &c, false).unwrap();
            let events = v.run();
            let asked = events.iter().filter(|e| matches!(e, Event::SolverQuery { .. })).count();
            (v.outcome().map(|(verdict, _)| verdict), asked)
        })
        .unwrap()
        .join()
        .expect("the run finished without overflowing its stack");
    assert_eq!(run.0, Some(engine::Verdict::True));
    assert!(run.1 > 150, "one refinement query per loop head at least: {} queries", run.1);
}
