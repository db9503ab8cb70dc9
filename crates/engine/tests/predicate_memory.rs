//! Predicate analysis with a memory model (`cpa.predicate.memoryRegions`):
//! the retention disjuncts a store sequence creates under each region
//! setting, a load after a store reading the stored value (so a path that
//! contradicts it is infeasible), what the encoding must not know (an
//! address it has not seen, overlapping bytes of another type), distinct
//! allocations, and the verdicts of the gallery's memory-regions example
//! under each setting and both integer models.

mod predicate_support;

use cfa::{EdgeId, Program, RegionModel};
use engine::cegar::build_verifier;
use engine::cpas::predicate::pathformula::{PathFormula, PathFormulaBuilder};
use engine::view::Statistics;
use engine::{Config, Stepper, Verdict};
use minic::IntModel;
use predicate_support::{main_paths, program, ranges, status, z3};
use smt::{Encoding, Status};
use std::sync::Arc;

const SEED: &str = include_str!("../../../static/examples/predicate-memory-regions.c");
const MODELS: [RegionModel; 3] = [RegionModel::Single, RegionModel::Type, RegionModel::Bnb];

fn formula(p: &Program, regions: RegionModel, enc: Encoding, path: &[EdgeId]) -> PathFormula {
    let builder = PathFormulaBuilder { program: p, encoding: enc, memory: Some(regions) };
    let mut pf = PathFormula::default();
    for e in path {
        pf = builder.step(&pf, p.edge(*e)).expect("not syntactically infeasible");
    }
    pf
}

/// The paths of `main` that end in the error location.
fn error_paths(p: &Program) -> Vec<Vec<EdgeId>> {
    main_paths(p).into_iter().filter(|path| path.last().is_some_and(|e| p.node(p.edge(*e).target).error)).collect()
}

/// Whether some path to the error location is satisfiable.
fn error_reachable(src: &str, regions: RegionModel, model: IntModel) -> bool {
    let p = program(src);
    let enc = Encoding::wrapped(model);
    let mut z3 = z3();
    let paths = error_paths(&p);
    assert!(!paths.is_empty(), "the program has an error location");
    paths.iter().any(|path| {
        let pf = formula(&p, regions, enc, path);
        let mut all = pf.conjuncts.clone();
        all.extend(ranges(&p, enc, &pf.conjuncts));
        status(all, &mut z3) != Status::Unsat
    })
}

#[test]
fn a_store_sequence_creates_one_retention_disjunct_per_known_address_of_its_region() {
    let p = program(SEED);
    // SINGLE: q->g keeps p->f (1), p->h keeps p->f and q->g (2);
    // TYPE: only p->h keeps p->f (both int); BNB: every field is its own region.
    for (regions, expected) in [(RegionModel::Single, 3), (RegionModel::Type, 1), (RegionModel::Bnb, 0)] {
        for path in main_paths(&p) {
            let pf = formula(&p, regions, Encoding::wrapped(IntModel::Math), &path);
            assert_eq!(pf.memory.retention, expected, "{regions:?}");
        }
    }
}

#[test]
fn the_seed_example_is_safe_with_type_and_bnb_regions_but_not_provable_with_one_region() {
    for model in [IntModel::Math, IntModel::C] {
        assert!(error_reachable(SEED, RegionModel::Single, model), "SINGLE cannot exclude q->g overlapping p->f");
        assert!(!error_reachable(SEED, RegionModel::Type, model));
        assert!(!error_reachable(SEED, RegionModel::Bnb, model));
    }
}

#[test]
fn a_load_after_a_store_to_the_same_address_reads_the_stored_value() {
    let src = "extern void reach_error(void); extern int __VERIFIER_nondet_int(void);
        int main(void) { int *p = malloc(sizeof(int)); int v = __VERIFIER_nondet_int();
          *p = v; int *r = p; int x = *r; if (x != v) { reach_error(); } return 0; }";
    for regions in MODELS {
        for model in [IntModel::Math, IntModel::C] {
            assert!(!error_reachable(src, regions, model), "{regions:?} {model:?}");
        }
    }
}

#[test]
fn a_store_through_another_pointer_may_overwrite_unless_the_objects_differ() {
    // q may equal p: the load of *p after *q = 2 is 1 or 2.
    let maybe = "extern void reach_error(void); extern int __VERIFIER_nondet_int(void);
        int main(void) { int a; int b; int *p = __VERIFIER_nondet_int() ? &a : &b;
          int *q = __VERIFIER_nondet_int() ? &a : &b; *p = 1; *q = 2; if (*p == 2) { reach_error(); } return 0; }";
    // p and q point to different objects: *p stays 1.
    let never = "extern void reach_error(void);
        int main(void) { int a; int b; int *p = &a; int *q = &b; *p = 1; *q = 2; if (*p == 2) { reach_error(); } return 0; }";
    for regions in MODELS {
        assert!(error_reachable(maybe, regions, IntModel::Math), "{regions:?}");
        assert!(!error_reachable(never, regions, IntModel::Math), "{regions:?}");
    }
}

#[test]
fn memory_the_formula_has_not_seen_is_arbitrary() {
    // Nothing was stored at *p: any value, also 42.
    let unknown = "extern void reach_error(void);
        int main(void) { int *p = malloc(sizeof(int)); int x = *p; if (x == 42) { reach_error(); } return 0; }";
    // Two allocations are different non-null addresses.
    let distinct = "extern void reach_error(void);
        int main(void) { int *p = malloc(4); int *q = malloc(4); if (p == q || p == 0) { reach_error(); } return 0; }";
    for regions in MODELS {
        assert!(error_reachable(unknown, regions, IntModel::C), "{regions:?}");
        assert!(!error_reachable(distinct, regions, IntModel::C), "{regions:?}");
    }
}

#[test]
fn without_a_memory_model_a_load_is_a_fresh_value() {
    let p = program(SEED);
    let enc = Encoding::wrapped(IntModel::Math);
    let builder = PathFormulaBuilder { program: &p, encoding: enc, memory: None };
    let mut z3 = z3();
    let path = &error_paths(&p)[0];
    let mut pf = PathFormula::default();
    for e in path {
        pf = builder.step(&pf, p.edge(*e)).unwrap();
    }
    assert_eq!(pf.memory.retention, 0);
    assert_eq!(status(pf.conjuncts.clone(), &mut z3), Status::Sat);
}

fn verify(src: &str, regions: &str, model: IntModel) -> (Verdict, Statistics) {
    let p = Arc::new(cfa::from_source(src).expect("parses"));
    let mut c = Config::preset("predicate").unwrap();
    c.set("analysis.intModel", if model == IntModel::C { "C" } else { "MATH" }).unwrap();
    c.set("cpa.predicate.memoryRegions", regions).unwrap();
    c.set("limits.steps", "3000").unwrap();
    let mut v = build_verifier(p, &c, false).unwrap();
    let events = v.run();
    (v.outcome().expect("finished").0, Statistics::of(&events))
}

#[test]
fn the_verdicts_and_retention_disjuncts_of_the_seed_example_per_setting() {
    for model in [IntModel::Math, IntModel::C] {
        let (single, s) = verify(SEED, "SINGLE", model);
        let (ty, t) = verify(SEED, "TYPE", model);
        let (bnb, b) = verify(SEED, "BNB", model);
        assert_eq!((single, ty, bnb), (Verdict::Unknown, Verdict::True, Verdict::True), "{model:?}");
        assert!(b.retention_disjuncts < t.retention_disjuncts, "BNB {} vs TYPE {}", b.retention_disjuncts, t.retention_disjuncts);
        assert!(
            t.retention_disjuncts < s.retention_disjuncts,
            "TYPE {} vs SINGLE {}",
            t.retention_disjuncts,
            s.retention_disjuncts
        );
        assert_eq!((s.retention_disjuncts, t.retention_disjuncts, b.retention_disjuncts), (3, 1, 0));
    }
}

#[test]
fn an_unknown_region_setting_is_refused_with_the_choices() {
    let mut c = Config::preset("predicate").unwrap();
    let err = c.set("cpa.predicate.memoryRegions", "FIELD").unwrap_err().to_string();
    assert!(err.contains("BNB") && err.contains("TYPE") && err.contains("SINGLE"), "{err}");
}

#[test]
fn a_cell_read_at_another_type_through_void_pointer_is_never_proven_unchanged() {
    // The int `x` is written while its first byte was read through a
    // `char *` laundered through `void *`: TYPE and BNB must not keep the
    // byte in a region of its own (the lowering gives such a program one
    // untyped region).
    let src = "extern void reach_error(void);
        int main(void) { int x = 0; void *v = &x; char *c = v; char before = *c; x = 5; char after = *c;
          if (before != after) { reach_error(); } return 0; }";
    for regions in ["SINGLE", "TYPE", "BNB"] {
        for model in [IntModel::Math, IntModel::C] {
            let (verdict, _) = verify(src, regions, model);
            assert_ne!(verdict, Verdict::True, "{regions} {model:?}");
        }
    }
    let p = program(src);
    let loads = p.edges.iter().filter(|e| matches!(&e.kind, cfa::EdgeKind::Assign { rhs: cfa::Rhs::Load { .. }, .. })).count();
    assert!(loads >= 2);
    for e in &p.edges {
        if let cfa::EdgeKind::Assign { rhs: cfa::Rhs::Load { access, .. }, .. } = &e.kind {
            assert_eq!(access.region(RegionModel::Bnb), "memory");
        }
    }
}

#[test]
fn a_field_gets_its_own_region_only_while_no_address_of_it_is_taken() {
    let src = "struct pair { int f; int g; };
        int main(void) { struct pair s; struct pair *p = &s; int *r = &s.g; p->f = 1; p->g = 2; *r = 3; return 0; }";
    let p = program(src);
    let regions: Vec<(String, String, String)> = p
        .edges
        .iter()
        .filter_map(|e| match &e.kind {
            cfa::EdgeKind::Store { access, .. } => {
                Some((access.region(RegionModel::Single), access.region(RegionModel::Type), access.region(RegionModel::Bnb)))
            }
            _ => None,
        })
        .collect();
    let r = |a: &str, b: &str, c: &str| (a.to_string(), b.to_string(), c.to_string());
    assert_eq!(
        regions,
        vec![r("memory", "int", "struct pair.f"), r("memory", "int", "int"), r("memory", "int", "int")],
        "p->f, p->g (address taken by &s.g), *r"
    );
}
