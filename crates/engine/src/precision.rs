//! Refinable precisions for the variable-tracking CPAs (Value, Octagon).
//!
//! In the CPA+ formalism a precision π tells the precision adjustment what
//! to keep. For the explicit-value analysis of Beyer & Löwe (FASE 2013) and
//! for the octagon analysis with CEGAR, the precision is a function
//! `π : L → 2^X` from CFA locations to the program variables tracked there.
//! [`VarPrecision`] is that function: a set of variables tracked at every
//! location (`global`, used by the octagon backup refiner) plus a set per
//! location (`local`, filled by explicit-value interpolation). It starts
//! empty and only grows: every CEGAR refinement adds variables, so a
//! refined analysis is never coarser than the previous one.

use cfa::{NodeId, Program, VarId};
use std::collections::{BTreeMap, BTreeSet};

/// A precision `π : L → 2^X`: which variables a CPA tracks at which
/// location. `π(l) = global ∪ local[l]`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct VarPrecision {
    /// Variables tracked at every location.
    pub global: BTreeSet<VarId>,
    /// Variables tracked at one location only (from interpolants).
    pub local: BTreeMap<NodeId, BTreeSet<VarId>>,
}

impl VarPrecision {
    /// The empty precision π₀ = ∅ (track nothing): where CEGAR starts.
    pub fn empty() -> Self {
        VarPrecision::default()
    }

    /// Whether `var` is tracked at `location` (`None`: a state without a
    /// location, where only the global set applies).
    pub fn tracks(&self, location: Option<NodeId>, var: VarId) -> bool {
        self.global.contains(&var) || location.and_then(|l| self.local.get(&l)).is_some_and(|s| s.contains(&var))
    }

    /// Adds `var` at `location`; returns whether π grew.
    pub fn add_local(&mut self, location: NodeId, var: VarId) -> bool {
        if self.global.contains(&var) {
            return false;
        }
        self.local.entry(location).or_default().insert(var)
    }

    /// Adds `var` at every location; returns whether π grew.
    pub fn add_global(&mut self, var: VarId) -> bool {
        let grew = self.global.insert(var);
        // Local entries of a global variable are redundant.
        for s in self.local.values_mut() {
            s.remove(&var);
        }
        self.local.retain(|_, s| !s.is_empty());
        grew
    }

    /// Whether nothing is tracked anywhere.
    pub fn is_empty(&self) -> bool {
        self.global.is_empty() && self.local.values().all(BTreeSet::is_empty)
    }

    /// Every variable tracked somewhere.
    pub fn variables(&self) -> BTreeSet<VarId> {
        let mut out = self.global.clone();
        for s in self.local.values() {
            out.extend(s.iter().copied());
        }
        out
    }

    /// The (location, variable) pairs of `self` that `old` does not have:
    /// what a refinement added (global entries have location `None`).
    pub fn added_since(&self, old: &VarPrecision) -> Vec<(Option<NodeId>, VarId)> {
        let mut out: Vec<(Option<NodeId>, VarId)> =
            self.global.iter().filter(|v| !old.global.contains(v)).map(|v| (None, *v)).collect();
        for (l, s) in &self.local {
            for v in s {
                if !old.tracks(Some(*l), *v) {
                    out.push((Some(*l), *v));
                }
            }
        }
        out
    }

    /// The precision in words: `{flag} everywhere; N5: {x}; N7: {x, y}`.
    pub fn describe(&self, program: &Program) -> String {
        let name =
            |v: &VarId| program.variables.get(v.0 as usize).map(|x| x.qualified.clone()).unwrap_or_else(|| format!("v{}", v.0));
        let set = |s: &BTreeSet<VarId>| format!("{{{}}}", s.iter().map(name).collect::<Vec<_>>().join(", "));
        if self.is_empty() {
            return "{} (nothing tracked)".into();
        }
        let mut parts = Vec::new();
        if !self.global.is_empty() {
            parts.push(format!("{} everywhere", set(&self.global)));
        }
        for (l, s) in &self.local {
            if !s.is_empty() {
                parts.push(format!("{l}: {}", set(s)));
            }
        }
        parts.join("; ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tracks_global_and_local_entries() {
        let mut p = VarPrecision::empty();
        assert!(p.is_empty());
        assert!(p.add_local(NodeId(3), VarId(1)));
        assert!(!p.add_local(NodeId(3), VarId(1)));
        assert!(p.tracks(Some(NodeId(3)), VarId(1)));
        assert!(!p.tracks(Some(NodeId(4)), VarId(1)));
        assert!(!p.tracks(None, VarId(1)));
        assert!(p.add_global(VarId(1)));
        assert!(p.tracks(Some(NodeId(4)), VarId(1)));
        assert!(p.local.is_empty(), "a global variable needs no local entries");
        let old = p.clone();
        p.add_local(NodeId(9), VarId(2));
        assert_eq!(p.added_since(&old), vec![(Some(NodeId(9)), VarId(2))]);
    }
}
