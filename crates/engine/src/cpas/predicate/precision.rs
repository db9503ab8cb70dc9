//! The precision of predicate analysis: which predicates the abstraction
//! at a location uses, `π : L → 2^P` (Lazy Abstraction: predicates per
//! location), optionally shared by a whole function or the whole program
//! (`cpa.predicate.refinement.sharePredicates = LOCATION | FUNCTION |
//! GLOBAL`). Starts empty; only refinement adds to it, so every CEGAR
//! iteration is itself a sound analysis.
//!
//! A predicate is a Boolean [`Term`] over *unindexed* program variables
//! (`v3`, see [`super::pathformula::var_name`]), e.g. `v0 <= v1`.

use cfa::{FuncId, NodeId, Program};
use smt::Term;
use std::collections::{BTreeMap, BTreeSet};

/// Where a refinement puts the predicates it finds
/// (`cpa.predicate.refinement.sharePredicates`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PredicateScope {
    /// At the location of the interpolant only (the default).
    #[default]
    Location,
    /// At every location of the interpolant's function.
    Function,
    /// At every location.
    Global,
}

impl PredicateScope {
    /// The scope an option value names (`LOCATION`, `FUNCTION`, `GLOBAL`).
    pub fn parse(s: &str) -> PredicateScope {
        match s.to_ascii_uppercase().as_str() {
            "FUNCTION" => PredicateScope::Function,
            "GLOBAL" => PredicateScope::Global,
            _ => PredicateScope::Location,
        }
    }
}

/// The predicates per location, function, or everywhere.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PredicatePrecision {
    /// Predicates used at every location.
    pub global: BTreeSet<Term>,
    /// Predicates used at every location of a function.
    pub function: BTreeMap<FuncId, BTreeSet<Term>>,
    /// Predicates used at one location.
    pub location: BTreeMap<NodeId, BTreeSet<Term>>,
}

impl PredicatePrecision {
    /// The predicates of `loc` (in `func`): global ∪ function ∪ location,
    /// in term order (deterministic).
    pub fn at(&self, loc: NodeId, func: FuncId) -> Vec<Term> {
        let mut all: BTreeSet<Term> = self.global.clone();
        if let Some(f) = self.function.get(&func) {
            all.extend(f.iter().cloned());
        }
        if let Some(l) = self.location.get(&loc) {
            all.extend(l.iter().cloned());
        }
        all.into_iter().collect()
    }

    /// Adds `predicate` for `loc` (in `func`) with `scope`; true when new.
    pub fn add(&mut self, scope: PredicateScope, loc: NodeId, func: FuncId, predicate: Term) -> bool {
        match scope {
            PredicateScope::Location => self.location.entry(loc).or_default().insert(predicate),
            PredicateScope::Function => self.function.entry(func).or_default().insert(predicate),
            PredicateScope::Global => self.global.insert(predicate),
        }
    }

    /// BAM's reduced precision as a key ([`crate::cpa::Cpa::block_precision_key`]):
    /// the global predicates, those of `functions`, and those at their
    /// locations; predicates elsewhere do not change a block analysis.
    pub fn block_key(&self, program: &Program, functions: &BTreeSet<FuncId>) -> String {
        let inside = |l: &NodeId| program.nodes.get(l.0 as usize).is_some_and(|n| functions.contains(&n.function));
        let function: Vec<_> = self.function.iter().filter(|(f, _)| functions.contains(f)).collect();
        let location: Vec<_> = self.location.iter().filter(|(l, _)| inside(l)).collect();
        format!("{:?} {function:?} {location:?}", self.global)
    }

    /// Whether no location has a predicate.
    pub fn is_empty(&self) -> bool {
        self.global.is_empty() && self.function.values().all(BTreeSet::is_empty) && self.location.values().all(BTreeSet::is_empty)
    }

    /// How many (scope, predicate) entries there are.
    pub fn len(&self) -> usize {
        self.global.len()
            + self.function.values().map(BTreeSet::len).sum::<usize>()
            + self.location.values().map(BTreeSet::len).sum::<usize>()
    }

    /// The entries as (where, predicate in mini-C) pairs, for the trace:
    /// `everywhere`, `in f`, or `at N7`.
    pub fn entries(&self, program: &Program) -> Vec<(Option<NodeId>, String, String)> {
        let mut out = Vec::new();
        for p in &self.global {
            out.push((None, "everywhere".to_string(), super::show_predicate(program, p)));
        }
        for (f, ps) in &self.function {
            let name = program.functions.get(f.0 as usize).map(|x| x.name.clone()).unwrap_or_default();
            for p in ps {
                out.push((None, format!("in {name}"), super::show_predicate(program, p)));
            }
        }
        for (l, ps) in &self.location {
            for p in ps {
                out.push((Some(*l), format!("at {l}"), super::show_predicate(program, p)));
            }
        }
        out
    }

    /// The precision in words: `{x <= y at N3, …}` (`{}` when empty).
    pub fn describe(&self, program: &Program) -> String {
        let parts: Vec<String> = self.entries(program).into_iter().map(|(_, w, p)| format!("{p} {w}")).collect();
        format!("{{{}}}", parts.join(", "))
    }
}
