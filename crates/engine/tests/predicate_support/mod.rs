//! Shared helpers of the predicate-analysis tests: the native z3 answering
//! the engine's solver questions in a loop (ask → pending → solve → record),
//! satisfiability checks of hand-written conditions, and straight-line
//! paths through small programs.
#![allow(dead_code)]

use cfa::{EdgeId, Program, VarId};
use engine::cpas::predicate::abstraction::{AbstractionKind, Computed, Problem};
use engine::cpas::predicate::pathformula::{parse_ssa_name, var_name, var_type, PathFormula, PathFormulaBuilder};
use engine::predicate_refinement::InterpolationJob;
use smt::{Encoding, Query, SolverBackend, Sort, Status, Term, Z3Process};
use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

/// The native z3 with a generous per-query limit.
pub fn z3() -> Z3Process {
    Z3Process::system(Duration::from_secs(20))
}

/// The program of `src` (the test's own source: it must parse).
pub fn program(src: &str) -> Arc<Program> {
    Arc::new(cfa::from_source(src).unwrap_or_else(|d| panic!("the test program does not parse: {d:?}")))
}

/// The variable named `name` (unqualified).
pub fn var(p: &Program, name: &str) -> VarId {
    p.variables.iter().find(|v| v.name == name).unwrap_or_else(|| panic!("no variable {name}")).id
}

/// The unindexed predicate variable of `name` (`v3`), an `Int`.
pub fn pvar(p: &Program, name: &str) -> Term {
    Term::var(&var_name(var(p, name)), Sort::Int)
}

/// Computes an abstraction, answering each pending query with z3 until the
/// computation is done.
pub fn compute(problem: &Problem, kind: AbstractionKind, z3: &mut Z3Process) -> Computed {
    for _ in 0..2000 {
        if let Some(c) = problem.compute(kind) {
            return c;
        }
        let script = problem.oracle.take_pending().expect("compute returned None without a pending query");
        let out = z3.solve_text(&script);
        problem.oracle.record(&script, smt::parse_response(&out));
    }
    panic!("the abstraction asked more than 2000 queries");
}

/// Runs an interpolation job to the end with z3 answering.
pub fn interpolate(job: &mut InterpolationJob, z3: &mut Z3Process) {
    for _ in 0..100 {
        let Some(q) = job.next_query() else { return };
        let out = z3.solve_text(&q);
        job.answer(&out);
    }
    panic!("the interpolation job did not finish");
}

/// The range constraints, under `enc`, of every SSA name in `terms` (the
/// values a C variable can hold; `true` under math).
pub fn ranges(p: &Program, enc: Encoding, terms: &[Term]) -> Vec<Term> {
    smt::term::var_names(terms.iter())
        .into_iter()
        .filter_map(|n| parse_ssa_name(&n).map(|(v, _)| (n.clone(), v)))
        .map(|(n, v)| {
            let ty = var_type(p, v);
            enc.range_constraint(&Term::var(&n, enc.sort(ty)), ty)
        })
        .filter(|t| *t != Term::bool(true))
        .collect()
}

/// The solver's status for the conjunction of `assertions`.
pub fn status(assertions: Vec<Term>, z3: &mut Z3Process) -> Status {
    let q = Query { assertions, want_model: false, comment: Some("predicate test check".into()) };
    smt::parse_response(&z3.solve_text(&q.to_smtlib())).status()
}

/// Whether `premises ⇒ conclusion`, checked as `premises ∧ ¬conclusion`
/// unsatisfiable (with the SSA names' type ranges).
pub fn entails(p: &Program, enc: Encoding, premises: &[Term], conclusion: &Term, z3: &mut Z3Process) -> bool {
    let mut all: Vec<Term> = premises.to_vec();
    all.push(Term::not(conclusion.clone()));
    let r = ranges(p, enc, &all);
    all.extend(r);
    status(all, z3) == Status::Unsat
}

/// Every path of edges from `main`'s entry to its exit (or a location
/// without successors) in an acyclic `main`, in DFS order.
pub fn main_paths(p: &Program) -> Vec<Vec<EdgeId>> {
    let main = p.main_function();
    let mut out = Vec::new();
    let mut stack = vec![(main.entry, Vec::new())];
    while let Some((node, path)) = stack.pop() {
        if node == main.exit || p.node(node).outgoing.is_empty() {
            out.push(path);
            continue;
        }
        assert!(path.len() < 200, "main is not acyclic");
        for e in p.successors(node).collect::<Vec<_>>().into_iter().rev() {
            let mut next = path.clone();
            next.push(e.id);
            stack.push((e.target, next));
        }
    }
    out
}

/// The path formula of `path` from the start (all variables at version 0).
pub fn path_formula(p: &Program, enc: Encoding, path: &[EdgeId]) -> PathFormula {
    let builder = PathFormulaBuilder { program: p, encoding: enc, memory: Some(cfa::RegionModel::Bnb) };
    let mut pf = PathFormula::default();
    for e in path {
        pf = builder.step(&pf, p.edge(*e)).expect("the path is not syntactically infeasible");
    }
    pf
}

/// The names of the program variables a term mentions, unindexed.
pub fn program_vars(t: &Term) -> BTreeSet<String> {
    t.vars().keys().map(|n| n.to_string()).collect()
}
