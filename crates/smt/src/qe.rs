//! Quantifier elimination through a solver: `∃ e₁ … eₙ. φ` simplified to an
//! equivalent quantifier-free formula over φ's other free variables.
//!
//! In CPA terms this is how the predicate analysis projects a path formula
//! onto the variables of one program location (strongest post-condition
//! with the old SSA versions eliminated) and computes interpolants, the
//! same way natively and in the page: an [`Elimination`] is one
//! self-contained SMT-LIB2 script ending in `(apply (or-else (then qe simplify (fail-if has-quantifiers)) (then qe2 simplify)))`
//! (z3's `qe`, and its `qe2` where `qe` leaves a quantifier),
//! which Debian's z3 and `z3-solver` in wasm both run, and
//! [`parse_qe_answer`] reads what they print back into a [`Term`].
//!
//! ```text
//! ; comment
//! (declare-fun x1 () Int)                     ; the variables that stay, by name
//! (assert (exists ((x0 Int)) (and (= x0 0) (= x1 (+ x0 1)))))
//! (apply (or-else (then qe simplify (fail-if has-quantifiers)) (then qe2 simplify)))
//! ```
//!
//! prints `(goals (goal (<= x1 1) (>= x1 1) :precision precise :depth 2))`,
//! read as `x1 <= 1 ∧ 1 <= x1`. Anything else (an error, a result that
//! still has a quantifier — z3 leaves non-linear ones — or text that does
//! not parse) is [`QeAnswer::Failed`], so a caller can fall back to a
//! coarser abstraction rather than trust it.

use crate::parse::{term_from_sexp, tokenize, Sexp};
use crate::term::{write_symbol, Sort, Term};
use std::collections::BTreeSet;
use std::fmt::Write;
use std::sync::Arc;

/// ∃ eliminate. formula, to be simplified into a quantifier-free formula over the other free variables.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Elimination {
    /// The formula (Boolean term) under the quantifier.
    pub formula: Term,
    /// The names of the variables to eliminate (existentially quantified).
    pub eliminate: BTreeSet<Arc<str>>,
    /// A comment put at the top of the script (what the elimination is for);
    /// part of the text, so part of the cache key.
    pub comment: Option<String>,
}

impl Elimination {
    /// One self-contained script: `; comment`, declare-fun for every free variable NOT eliminated (sorted by name),
    /// `(assert (exists ((e Int) ...) formula))` (plain assert when nothing of `eliminate` occurs in formula; eliminated
    /// names not occurring are dropped), then `(apply (or-else (then qe simplify (fail-if has-quantifiers)) (then qe2 simplify)))`. Deterministic text (cache key).
    pub fn to_smtlib(&self) -> String {
        self.to_smtlib_within(None)
    }

    /// [`Self::to_smtlib`] with the tactic limited to `budget_ms`
    /// milliseconds (`(apply (try-for … ms))`, when `Some`): an elimination
    /// that runs out prints an `(error … canceled)`, a
    /// [`QeAnswer::Failed`], instead of holding the solver.
    pub fn to_smtlib_within(&self, budget_ms: Option<u64>) -> String {
        let mut s = String::new();
        if let Some(c) = &self.comment {
            for line in c.lines() {
                let _ = writeln!(s, "; {line}");
            }
        }
        let vars = self.formula.vars();
        let mut bound: Vec<(&Arc<str>, Sort)> = Vec::new();
        for (name, sort) in &vars {
            if self.eliminate.contains(name) {
                bound.push((name, *sort));
            } else {
                s.push_str("(declare-fun ");
                let _ = write_symbol(&mut s, name);
                let _ = writeln!(s, " () {sort})");
            }
        }
        if bound.is_empty() {
            let _ = writeln!(s, "(assert {})", self.formula);
        } else {
            s.push_str("(assert (exists (");
            for (i, (name, sort)) in bound.iter().enumerate() {
                if i > 0 {
                    s.push(' ');
                }
                s.push('(');
                let _ = write_symbol(&mut s, name);
                let _ = write!(s, " {sort})");
            }
            let _ = writeln!(s, ") {}))", self.formula);
        }
        let tactic = "(or-else (then qe simplify (fail-if has-quantifiers)) (then qe2 simplify))";
        match budget_ms {
            Some(ms) => {
                let _ = writeln!(s, "(apply (try-for {tactic} {ms}))");
            }
            None => {
                let _ = writeln!(s, "(apply {tactic})");
            }
        }
        s
    }
}

/// What the solver printed for such a script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QeAnswer {
    /// The quantifier-free formula equivalent to the elimination.
    Formula(Term),
    /// No usable formula, and why (in words).
    Failed(String),
}

/// `(goals (goal a1 a2 ... :precision precise :depth 2))` → and(a_i); empty goal → true; a goal that is `false` → false;
/// several goals → or of their conjunctions. A result that still has a quantifier, an `(error ...)`, `unsupported`, or
/// anything unparsable → Failed(reason). Never panics.
pub fn parse_qe_answer(output: &str, sort_of: &dyn Fn(&str) -> Option<Sort>) -> QeAnswer {
    match read_goals(output, sort_of) {
        Ok(t) => QeAnswer::Formula(t),
        Err(reason) => QeAnswer::Failed(reason),
    }
}

fn read_goals(output: &str, sort_of: &dyn Fn(&str) -> Option<Sort>) -> Result<Term, String> {
    let sexps = tokenize(output)?;
    let mut goals = None;
    for s in &sexps {
        match s {
            Sexp::List(l) if l.first().is_some_and(|h| h.is_atom("error")) => {
                let msg = match l.get(1) {
                    Some(Sexp::Str(m)) => m.clone(),
                    Some(other) => other.symbol().unwrap_or("error").to_string(),
                    None => "error".into(),
                };
                return Err(format!("the solver reported an error: {msg}"));
            }
            Sexp::List(l) if l.first().is_some_and(|h| h.is_atom("goals")) && goals.is_none() => goals = Some(&l[1..]),
            Sexp::Atom(a) if a == "unsupported" || a == "unknown" => {
                return Err(format!("the solver answered `{a}`"));
            }
            _ => {}
        }
    }
    let Some(goals) = goals else {
        return Err(if output.trim().is_empty() {
            "the solver printed nothing".into()
        } else {
            "no (goals …) in the solver's output".into()
        });
    };
    let mut disjuncts = Vec::new();
    for g in goals {
        let Sexp::List(items) = g else { return Err("a goal is not a list".into()) };
        if !items.first().is_some_and(|h| h.is_atom("goal")) {
            return Err("(goals …) holds something other than a (goal …)".into());
        }
        let mut conjuncts = Vec::new();
        let mut rest = items[1..].iter();
        while let Some(item) = rest.next() {
            if matches!(item, Sexp::Atom(a) if a.starts_with(':')) {
                rest.next(); // the attribute's value
                continue;
            }
            let t = term_from_sexp(item, sort_of).map_err(|e| format!("cannot read the solver's result: {e}"))?;
            if t.sort() != Sort::Bool {
                return Err(format!("the goal holds {t}, which is not a formula"));
            }
            conjuncts.push(t);
        }
        disjuncts.push(Term::and(conjuncts));
    }
    if disjuncts.is_empty() {
        return Err("(goals) without a goal".into());
    }
    Ok(Term::or(disjuncts))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(n: &str) -> Option<Sort> {
        (!n.contains('!')).then_some(Sort::Int)
    }

    fn formula(out: &str) -> Term {
        match parse_qe_answer(out, &ints) {
            QeAnswer::Formula(t) => t,
            QeAnswer::Failed(r) => panic!("failed: {r}"),
        }
    }

    fn failed(out: &str) -> String {
        match parse_qe_answer(out, &ints) {
            QeAnswer::Formula(t) => panic!("expected a failure, got {t}"),
            QeAnswer::Failed(r) => r,
        }
    }

    #[test]
    fn script_shape() {
        let v = |n| Term::var(n, Sort::Int);
        let e = Elimination {
            formula: Term::and(vec![Term::eq(v("x0"), Term::int(0)), Term::eq(v("x1"), Term::add(v("x0"), Term::int(1)))]),
            eliminate: ["x0", "gone"].into_iter().map(Arc::from).collect(),
            comment: Some("post of x = x + 1".into()),
        };
        assert_eq!(
            e.to_smtlib(),
            "; post of x = x + 1\n(declare-fun x1 () Int)\n(assert (exists ((x0 Int)) (and (= x0 0) (= x1 (+ x0 1)))))\n(apply (or-else (then qe simplify (fail-if has-quantifiers)) (then qe2 simplify)))\n"
        );
        let plain = Elimination { formula: Term::le(v("a b"), Term::int(3)), eliminate: BTreeSet::new(), comment: None };
        assert_eq!(plain.to_smtlib(), "(declare-fun |a b| () Int)\n(assert (<= |a b| 3))\n(apply (or-else (then qe simplify (fail-if has-quantifiers)) (then qe2 simplify)))\n");
        assert_eq!(plain.to_smtlib_within(None), plain.to_smtlib());
        assert_eq!(
            plain.to_smtlib_within(Some(500)),
            "(declare-fun |a b| () Int)\n(assert (<= |a b| 3))\n(apply (try-for (or-else (then qe simplify (fail-if has-quantifiers)) (then qe2 simplify)) 500))\n"
        );
        // A canceled elimination is a failure, not a formula.
        assert!(matches!(parse_qe_answer("(error \"line 3 column 95: canceled\")", &|_| Some(Sort::Int)), QeAnswer::Failed(_)));
    }

    // Outputs below were printed by z3 4.8.12 for the scripts named.

    #[test]
    fn conjunction_of_a_goal() {
        // ∃x0,y0. x0 = 0 ∧ y0 = 0 ∧ x1 = x0 + 1 ∧ y1 = y0 + 1
        let t = formula("(goals\n(goal\n  (<= y1 1)\n  (>= y1 1)\n  (<= x1 1)\n  (>= x1 1)\n  :precision precise :depth 2)\n)\n");
        assert_eq!(t.to_string(), "(and (<= y1 1) (<= 1 y1) (<= x1 1) (<= 1 x1))");
    }

    #[test]
    fn empty_and_false_goals() {
        // ∃x. 0 <= x <= 5
        assert_eq!(formula("(goals\n(goal\n  :precision precise :depth 1)\n)\n"), Term::bool(true));
        // ∃x. x < 0 ∧ x > 5 ∧ y = x
        assert_eq!(formula("(goals\n(goal\n  false\n  :precision precise :depth 1)\n)\n"), Term::bool(false));
    }

    #[test]
    fn divisibility_and_let() {
        // ∃x. y = 2x
        assert_eq!(
            formula("(goals\n(goal\n  (= 0 (mod y 2))\n  :precision precise :depth 2)\n)\n").to_string(),
            "(= 0 (mod y 2))"
        );
        // ∃x. (x = 1 ∨ x = 7) ∧ y = x + z ∧ y <= 3z
        let t = formula(
            "(goals\n(goal\n  (<= y (* 3 z))\n  (let ((a!1 (and (<= (+ y (* (- 1) z)) 1) (>= (+ y (* (- 1) z)) 1)))\n        (a!2 (and (<= (+ y (* (- 1) z)) 7) (>= (+ y (* (- 1) z)) 7))))\n    (or a!1 a!2))\n  :precision precise :depth 2)\n)\n",
        );
        let at = |y: i128, z: i128| {
            t.eval(&|n| match n {
                "y" => Some(crate::Value::Int(y)),
                "z" => Some(crate::Value::Int(z)),
                _ => None,
            })
        };
        assert_eq!(at(8, 1), Some(crate::Value::Bool(false))); // y <= 3z fails
        assert_eq!(at(11, 4), Some(crate::Value::Bool(true))); // y - z = 7
        assert_eq!(at(12, 4), Some(crate::Value::Bool(false)));
        // ∃x,w. 3x = y + 1 ∧ 5w = z + x ∧ y < z < 100 ∧ y + z > -7
        let t = formula("(goals\n(goal\n  (not (<= z y))\n  (not (<= 100 z))\n  (not (<= (+ y z) (- 7)))\n  (= 0 (mod (+ 1 (* 3 z) y) 15))\n  :precision precise :depth 2)\n)\n");
        assert!(t.to_string().contains("mod"), "{t}");
    }

    #[test]
    fn several_goals_are_a_disjunction() {
        // ∃x. x < 3 ∧ (y = x + 1 ∨ y = x - 3) under (then qe simplify split-clause)
        let t = formula("(goals\n(goal\n  (<= y 3)\n  :precision precise :depth 3)\n(goal\n  (<= y (- 1))\n  :precision precise :depth 3)\n)\n");
        assert_eq!(t.to_string(), "(or (<= y 3) (<= y (- 1)))");
    }

    #[test]
    fn failures() {
        // ∃x. x·x = y: z3 keeps the quantifier.
        let r = failed("(goals\n(goal\n  (exists ((x!0 Int))\n    (let ((a!1 (<= (+ y (* (- 1) (* x!0 x!0))) 0)))\n      (and (<= (+ (* x!0 x!0) (* (- 1) y)) 0) a!1)))\n  :precision precise :depth 2)\n)\n");
        assert!(r.contains("quantifier"), "{r}");
        let r = failed("(error \"line 1 column 32: unknown constant q\")\n");
        assert!(r.contains("unknown constant q"), "{r}");
        assert!(failed("unsupported\n").contains("unsupported"));
        assert!(failed("").contains("nothing"));
        assert!(failed("(goals (goal (+ y 1)))").contains("not a formula"));
        assert!(failed("(goals (goal (<= q!1 2)))").contains("q!1"));
        assert!(failed("sat").contains("no (goals"));
    }
}
