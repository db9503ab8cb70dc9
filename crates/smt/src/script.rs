//! SMT-LIB2 scripts: a satisfiability question as one self-contained text.
//!
//! A [`Query`] is a conjunction of Boolean terms; [`Query::to_smtlib`]
//! renders it as
//!
//! ```text
//! (set-logic QF_LIA)                 ; the smallest logic that fits
//! (declare-fun a1 () Int)            ; every free variable, sorted by name
//! (assert (< a1 0))                  ; one assert per term, in order
//! (check-sat)
//! (get-model)                        ; only when a model is wanted
//! ```
//!
//! The text is deterministic (same terms → same bytes), so it serves as the
//! cache key of answers, as the trace's record of the query, and as a
//! replayable corpus file: any SMT-LIB2 solver fed the script prints
//! `sat`, `unsat` or `unknown` as its first line.

use crate::term::{vars_of, write_symbol, Node, Op, Sort, Term};
use std::fmt::Write;

/// A satisfiability query: are all `assertions` true together?
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Query {
    /// The conjuncts (Boolean terms).
    pub assertions: Vec<Term>,
    /// Whether to ask for a model (`(get-model)`) after `sat`.
    pub want_model: bool,
    /// A comment line put at the top of the script (e.g. what the query is
    /// for); `None` for none. Part of the text, so part of the cache key.
    pub comment: Option<String>,
}

/// What the terms of a query need from a solver.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Needs {
    ints: bool,
    bvs: bool,
    nonlinear: bool,
}

fn scan(t: &Term, n: &mut Needs) {
    match t.node() {
        Node::Int(_) => n.ints = true,
        Node::Bv { .. } => n.bvs = true,
        Node::Var { sort, .. } => match sort {
            Sort::Int => n.ints = true,
            Sort::Bv(_) => n.bvs = true,
            Sort::Bool => {}
        },
        Node::App { op, args } => {
            if matches!(op, Op::Mul | Op::Div | Op::Mod) {
                let consts = args.iter().filter(|a| a.is_const()).count();
                // Linear: multiplication by a constant, div/mod by a constant.
                let linear = match op {
                    Op::Mul => consts + 1 >= args.len(),
                    _ => args.get(1).is_some_and(Term::is_const),
                };
                if !linear {
                    n.nonlinear = true;
                }
            }
            args.iter().for_each(|a| scan(a, n));
        }
        Node::Bool(_) => {}
    }
}

impl Query {
    /// A query for the conjunction of `assertions`, without a model.
    pub fn new(assertions: Vec<Term>) -> Self {
        Query { assertions, want_model: false, comment: None }
    }

    /// The SMT-LIB logic the assertions need: `QF_BV`, `QF_LIA`, `QF_NIA`,
    /// `QF_UF` (pure Boolean), or `ALL` when integers and bit-vectors mix.
    pub fn logic(&self) -> &'static str {
        let mut n = Needs::default();
        self.assertions.iter().for_each(|a| scan(a, &mut n));
        match (n.ints, n.bvs) {
            (true, true) => "ALL",
            (false, true) => "QF_BV",
            (true, false) if n.nonlinear => "QF_NIA",
            (true, false) => "QF_LIA",
            (false, false) => "QF_UF",
        }
    }

    /// The self-contained SMT-LIB2 script (see the module docs).
    pub fn to_smtlib(&self) -> String {
        let mut s = String::new();
        if let Some(c) = &self.comment {
            for line in c.lines() {
                let _ = writeln!(s, "; {line}");
            }
        }
        if self.want_model {
            s.push_str("(set-option :produce-models true)\n");
        }
        let _ = writeln!(s, "(set-logic {})", self.logic());
        for (name, sort) in vars_of(&self.assertions) {
            s.push_str("(declare-fun ");
            let _ = write_symbol(&mut s, &name);
            let _ = writeln!(s, " () {sort})");
        }
        for a in &self.assertions {
            let _ = writeln!(s, "(assert {a})");
        }
        s.push_str("(check-sat)\n");
        if self.want_model {
            s.push_str("(get-model)\n");
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_shape() {
        let x = Term::var("x", Sort::Int);
        let q = Query::new(vec![Term::lt(x.clone(), Term::int(0)), Term::le(Term::int(-5), x)]);
        assert_eq!(
            q.to_smtlib(),
            "(set-logic QF_LIA)\n(declare-fun x () Int)\n(assert (< x 0))\n(assert (<= (- 5) x))\n(check-sat)\n"
        );
        let y = Term::var("y", Sort::Int);
        let q = Query::new(vec![Term::eq(Term::mul(Term::var("x", Sort::Int), y), Term::int(6))]);
        assert_eq!(q.logic(), "QF_NIA");
    }
}
