//! The precision function of symbolic execution with implicit predicate
//! abstraction: p : L ⇀ ℕ₀ × 𝒫(formulas). A location l ∈ dom(p) is an
//! *abstraction location* with a threshold c (abstract once l was visited
//! at least c times before on the path) and predicates P(l) over program
//! variables (terms over the names `v{id}` of the predicate analysis'
//! encoding). The initial precision puts every loop head in dom(p) with
//! `symexec.abstraction.threshold` and no predicates; CEGAR adds
//! predicates and raises thresholds ([`SymExecPrecision::with_predicates`],
//! [`SymExecPrecision::with_raised_thresholds`]).

use crate::cpas::predicate::show_predicate;
use crate::trace::PrecisionRow;
use cfa::{NodeId, Program};
use smt::Term;
use std::collections::BTreeMap;

/// What p says of one abstraction location: (c, P(l)).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct LocationPrecision {
    /// The threshold c.
    pub threshold: u32,
    /// The predicates P(l), in the order they were found.
    pub predicates: Vec<Term>,
}

/// The precision function p (see the module docs).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SymExecPrecision {
    /// dom(p) with each location's threshold and predicates.
    pub locations: BTreeMap<NodeId, LocationPrecision>,
}

impl SymExecPrecision {
    /// The initial precision: every loop head of `program` with threshold
    /// `threshold` and no predicates.
    pub fn initial(program: &Program, threshold: u32) -> Self {
        let locations = program
            .nodes
            .iter()
            .filter(|n| n.loop_head)
            .map(|n| (n.id, LocationPrecision { threshold, predicates: Vec::new() }))
            .collect();
        SymExecPrecision { locations }
    }

    /// p(l), when l ∈ dom(p).
    pub fn at(&self, l: NodeId) -> Option<&LocationPrecision> {
        self.locations.get(&l)
    }

    /// p with `predicates` added at their locations (a location outside
    /// dom(p) joins it with threshold 0); returns the new precision and
    /// what was new, as (location, predicate).
    pub fn with_predicates(&self, predicates: &[(NodeId, Vec<Term>)]) -> (SymExecPrecision, Vec<(NodeId, Term)>) {
        let mut next = self.clone();
        let mut added = Vec::new();
        for (l, ps) in predicates {
            let entry = next.locations.entry(*l).or_default();
            for p in ps {
                if !entry.predicates.contains(p) {
                    entry.predicates.push(p.clone());
                    added.push((*l, p.clone()));
                }
            }
        }
        (next, added)
    }

    /// p with the threshold of each location of `at` doubled (at least 1):
    /// the back-up refinement when interpolation finds no new predicate.
    /// Returns the new precision and the raised locations.
    pub fn with_raised_thresholds(&self, at: &[NodeId]) -> (SymExecPrecision, Vec<NodeId>) {
        let mut next = self.clone();
        let mut raised = Vec::new();
        for l in at {
            if raised.contains(l) {
                continue;
            }
            if let Some(e) = next.locations.get_mut(l) {
                e.threshold = e.threshold.saturating_mul(2).max(1);
                raised.push(*l);
            }
        }
        (next, raised)
    }

    /// The rows (location, threshold, predicates in mini-C), by location.
    pub fn rows(&self, program: &Program) -> Vec<PrecisionRow> {
        self.locations.iter().map(|(l, p)| row(program, *l, p)).collect()
    }

    /// The precision in words: `N3: c=0 {x <= y}; N7: c=1 {}`.
    pub fn describe(&self, program: &Program) -> String {
        if self.locations.is_empty() {
            return "no abstraction locations".into();
        }
        self.rows(program)
            .iter()
            .map(|r| format!("{}: c={} {{{}}}", r.location, r.threshold, r.predicates.join(", ")))
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// One row of the precision function for display.
pub fn row(program: &Program, l: NodeId, p: &LocationPrecision) -> PrecisionRow {
    PrecisionRow {
        location: l,
        threshold: p.threshold,
        predicates: p.predicates.iter().map(|t| show_predicate(program, t)).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_double_at_least_to_one_and_predicates_are_added_once() {
        let mut p = SymExecPrecision::default();
        p.locations.insert(NodeId(3), LocationPrecision { threshold: 0, predicates: vec![] });
        p.locations.insert(NodeId(5), LocationPrecision { threshold: 3, predicates: vec![] });
        let (q, raised) = p.with_raised_thresholds(&[NodeId(3), NodeId(5), NodeId(3), NodeId(9)]);
        assert_eq!(raised, [NodeId(3), NodeId(5)], "each location once; N9 is not in dom(p)");
        assert_eq!((q.locations[&NodeId(3)].threshold, q.locations[&NodeId(5)].threshold), (1, 6));
        let x = Term::le(Term::var("v0", smt::Sort::Int), Term::int(0));
        let (r, added) = q.with_predicates(&[(NodeId(3), vec![x.clone(), x.clone()]), (NodeId(7), vec![x.clone()])]);
        assert_eq!(added, [(NodeId(3), x.clone()), (NodeId(7), x.clone())]);
        assert_eq!(r.locations[&NodeId(7)].threshold, 0, "a new abstraction location starts at threshold 0");
        let (_, again) = r.with_predicates(&[(NodeId(3), vec![x])]);
        assert!(again.is_empty());
    }
}
