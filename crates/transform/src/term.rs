//! The term domain's bookkeeping: the symbols a path created and the path
//! condition over them.
//!
//! An abstract value is an [`smt::Term`] over *symbols*: `in0`, `in1`, … for
//! the lifted inputs in the order the path read them (the order the
//! concrete interpreter takes inputs, so a model replays), and `u0`, `u1`, …
//! for results C leaves undefined (division by zero, a bad shift). Terms are
//! bit-vectors of the type's width under C's integers and `Int` over
//! mathematical integers (`smt::Theory::sound_for`), encoded by
//! `smt::encode_expr`, the encoding every solver-backed analysis uses. The
//! path condition is the conjunction of the assumptions taken so far; a
//! branch is feasible when the solver finds it satisfiable.

use minic::{IntModel, IntType};
use serde::{Deserialize, Serialize};
use smt::{Encoding, Query, Sort, Term, Theory};
use std::fmt::Write;
use std::sync::Arc;

/// The symbols and the path condition of one path (part of a term state).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PathTerms {
    /// The lifted inputs read so far, in order: their symbol and type.
    pub inputs: Vec<(String, IntType)>,
    /// How many undefined results were given a symbol.
    pub undefined: u32,
    /// The path condition's conjuncts (Boolean terms), in order; range
    /// constraints of symbols included.
    pub condition: Vec<Term>,
}

/// How terms encode values under an integer model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TermEncoding {
    /// The integer model.
    pub model: IntModel,
}

impl TermEncoding {
    /// The encoding: bit-vectors under `c`, integers under `math`.
    pub fn encoding(self) -> Encoding {
        Encoding::new(Theory::sound_for(self.model), self.model)
    }

    /// The sort of a value of type `ty`.
    pub fn sort(self, ty: IntType) -> Sort {
        self.encoding().sort(ty)
    }

    /// A new input symbol of type `ty` (its range constrained in the path
    /// condition where the sort does not bound it).
    pub fn input(self, ty: IntType, path: &mut PathTerms) -> Term {
        let name = format!("in{}", path.inputs.len());
        let t = Term::var(&name, self.sort(ty));
        path.inputs.push((name, ty));
        let range = self.encoding().range_constraint(&t, ty);
        if range != Term::bool(true) {
            path.condition.push(range);
        }
        t
    }

    /// A new symbol for a result C leaves undefined.
    pub fn undefined(self, ty: IntType, path: &mut PathTerms) -> Term {
        let name = format!("u{}", path.undefined);
        path.undefined += 1;
        let t = Term::var(&name, self.sort(ty));
        let range = self.encoding().range_constraint(&t, ty);
        if range != Term::bool(true) {
            path.condition.push(range);
        }
        t
    }

    /// "`value` (of type `ty`) is non-zero": C's truth of a condition.
    pub fn truth(self, value: &Term, ty: IntType) -> Term {
        Term::ne(value.clone(), self.encoding().constant(0, ty))
    }

    /// The query "is the path condition with `extra` satisfiable?".
    pub fn feasibility(self, path: &PathTerms, extra: Option<&Term>, why: &str) -> Query {
        let mut assertions = path.condition.clone();
        assertions.extend(extra.cloned());
        Query { assertions, want_model: false, comment: Some(why.to_string()) }
    }

    /// The query for a model of the path condition (the inputs of an error
    /// path).
    pub fn model_query(self, path: &PathTerms) -> Query {
        Query { assertions: path.condition.clone(), want_model: true, comment: Some("inputs of the error path".into()) }
    }

    /// The check whether a new term state's concrete states are among a
    /// stored state's (same control and concrete data): unsatisfiable iff
    /// for every valuation of the new state's symbols that satisfies its
    /// path condition, *some* valuation of the stored state's symbols
    /// satisfies the stored path condition and gives every abstract value
    /// the same value — the image of the new state is included in the
    /// stored one's, so the new state need not be explored. The stored
    /// state's symbols are renamed apart (`old.in0`, …) and bound by an
    /// `exists`; the script begins with `EQUIVALENCE_CHECK` (the trace's
    /// statistics count these queries).
    pub fn inclusion_script(self, new: &PathTerms, old: &PathTerms, pairs: &[(Term, Term)]) -> String {
        let rename = |n: &str| Some(Arc::<str>::from(format!("old.{n}")));
        let mut inner: Vec<Term> = old.condition.iter().map(|t| t.rename(&rename)).collect();
        inner.extend(pairs.iter().map(|(a, b)| Term::eq(a.clone(), b.rename(&rename))));
        let inner = Term::and(inner);
        // Quantified queries can be slow: give up after a while (`unknown`
        // keeps the new state, which is sound).
        let mut s = format!("{EQUIVALENCE_CHECK}\n(set-option :timeout {INCLUSION_TIMEOUT_MS})\n(set-logic ALL)\n");
        let mut free: Vec<&Term> = new.condition.iter().collect();
        free.extend(pairs.iter().map(|(a, _)| a));
        for (name, sort) in smt::term::vars_of(free.iter().copied()) {
            s.push_str("(declare-fun ");
            let _ = smt::term::write_symbol(&mut s, &name);
            let _ = writeln!(s, " () {sort})");
        }
        for c in &new.condition {
            let _ = writeln!(s, "(assert {c})");
        }
        // Only the stored state's (renamed) symbols are bound: the new
        // state's symbols occur in `inner` too (the pairs' left sides) and
        // must stay free, or the check would compare nothing.
        let bound: Vec<_> = smt::term::vars_of([&inner]).into_iter().filter(|(name, _)| name.starts_with("old.")).collect();
        if bound.is_empty() {
            let _ = writeln!(s, "(assert (not {inner}))");
        } else {
            s.push_str("(assert (not (exists (");
            for (name, sort) in bound {
                s.push('(');
                let _ = smt::term::write_symbol(&mut s, &name);
                let _ = write!(s, " {sort})");
            }
            let _ = writeln!(s, ") {inner})))");
        }
        s.push_str("(check-sat)\n");
        s
    }
}

/// How long one inclusion check may take in the solver (milliseconds).
pub const INCLUSION_TIMEOUT_MS: u32 = 1000;

/// The first line of every inclusion check's script
/// ([`TermEncoding::inclusion_script`]).
pub const EQUIVALENCE_CHECK: &str = "; are the new state's values among a visited state's?";
