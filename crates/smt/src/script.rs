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

use crate::term::{push_decimal, vars_of, write_symbol, Node, Op, Sort, Term};
use rustc_hash::FxHashMap;
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
            s.push_str("(assert ");
            a.write_smtlib(&mut s);
            s.push_str(")\n");
        }
        s.push_str("(check-sat)\n");
        if self.want_model {
            s.push_str("(get-model)\n");
        }
        s
    }
}

/// A script's text with its declared symbols renamed canonically: two
/// scripts with the same [`CanonicalScript::key`] are the same query up to
/// a bijective renaming of their free symbols (same sorts, same asserts in
/// the same order, same logic and commands), so they are equisatisfiable
/// and a model of one is a model of the other through the renaming. What a
/// solver oracle can cache answers by, beyond the exact text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CanonicalScript {
    /// The script without comments, each declared symbol written `@i` in
    /// order of its first use in the asserts, declarations sorted by `i`.
    pub key: String,
    /// The script's own name of each canonical symbol: `names[i]` is `@i`.
    pub names: Vec<String>,
}

/// Calls `each` on the SMT-LIB tokens of `line` in order: parentheses,
/// `|quoted symbols|` and other atoms.
fn for_each_token<'a>(line: &'a str, mut each: impl FnMut(&'a str)) {
    let b = line.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'(' | b')' => {
                each(&line[i..i + 1]);
                i += 1;
            }
            c if c.is_ascii_whitespace() => i += 1,
            b'|' => {
                let end = line[i + 1..].find('|').map(|j| i + j + 2).unwrap_or(b.len());
                each(&line[i..end]);
                i = end;
            }
            _ => {
                let start = i;
                while i < b.len() && !matches!(b[i], b'(' | b')' | b'|') && !b[i].is_ascii_whitespace() {
                    i += 1;
                }
                each(&line[start..i]);
            }
        }
    }
}

/// The canonical form of a script in the shape [`Query::to_smtlib`] prints
/// (comments, `set-option`, `set-logic`, `declare-fun` of constants,
/// `assert`, `check-sat`, `get-model`); `None` for any other script, which
/// is then only ever matched by its exact text. Computed for every query a
/// solver-backed analysis asks (the answer cache's key), so it makes one
/// pass over the text and allocates only the key and the names.
pub fn canonical_script(script: &str) -> Option<CanonicalScript> {
    // Each declared symbol and its sort's tokens (as the declaration
    // writes them, up to its closing parenthesis), by name.
    let mut declared: FxHashMap<&str, String> = FxHashMap::default();
    let mut body: Vec<&str> = Vec::new();
    for line in script.lines() {
        let l = line.trim();
        if l.is_empty() || l.starts_with(';') {
            continue;
        }
        if let Some(rest) = l.strip_prefix("(declare-fun ") {
            // NAME ( ) SORT... )
            let (mut n, mut name, mut shape_ok, mut sort) = (0usize, "", true, String::new());
            for_each_token(rest, |t| {
                match n {
                    0 => name = t,
                    1 => shape_ok &= t == "(",
                    2 => shape_ok &= t == ")",
                    _ => {
                        if n > 3 {
                            sort.push(' ');
                        }
                        sort.push_str(t);
                    }
                }
                n += 1;
            });
            if n < 4 || !shape_ok || declared.insert(name, sort).is_some() {
                return None;
            }
        } else if l.starts_with("(assert ")
            || l.starts_with("(set-logic ")
            || l.starts_with("(set-option ")
            || l == "(check-sat)"
            || l == "(get-model)"
        {
            body.push(l);
        } else {
            return None;
        }
    }
    let mut index: FxHashMap<&str, usize> = FxHashMap::default();
    let mut names: Vec<String> = Vec::new();
    let mut text = String::with_capacity(script.len());
    for l in &body {
        for_each_token(l, |t| {
            if declared.contains_key(t) {
                let i = *index.entry(t).or_insert_with(|| {
                    names.push(t.to_string());
                    names.len() - 1
                });
                text.push('@');
                push_decimal(&mut text, i as u128);
                text.push(' ');
            } else {
                text.push_str(t);
                text.push(' ');
            }
        });
        text.push('\n');
    }
    let mut key = String::with_capacity(text.len() + 24 * names.len());
    for (i, n) in names.iter().enumerate() {
        key.push_str("(declare @");
        push_decimal(&mut key, i as u128);
        key.push(' ');
        key.push_str(&declared[n.as_str()]);
        key.push_str(")\n");
    }
    // Declared but unused symbols change nothing (their count does not
    // matter either: each may take any value).
    key.push_str(&text);
    Some(CanonicalScript { key, names })
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

    fn query(a: &str, b: &str, lower: i128, model: bool) -> Query {
        let (x, y) = (Term::var(a, Sort::Int), Term::var(b, Sort::Int));
        let mut q = Query::new(vec![Term::lt(Term::add(x.clone(), y), Term::int(10)), Term::le(Term::int(lower), x)]);
        q.want_model = model;
        q
    }

    #[test]
    fn canonical_scripts_agree_exactly_up_to_renaming() {
        // `b!12` sorts before `b!3` as text, so the declarations come in
        // another order; the canonical form numbers symbols by first use.
        let one = canonical_script(&query("a!3", "b!4", 0, true).to_smtlib()).unwrap();
        let two = canonical_script(&query("b!12", "a!7", 0, true).to_smtlib()).unwrap();
        assert_eq!(one.key, two.key);
        assert_eq!(one.names, vec!["a!3", "b!4"]);
        assert_eq!(two.names, vec!["b!12", "a!7"]);
        // A comment is not part of the query.
        let mut commented = query("a!3", "b!4", 0, true);
        commented.comment = Some("why".into());
        assert_eq!(canonical_script(&commented.to_smtlib()).unwrap().key, one.key);
        // Anything else differs: a constant, the roles of the symbols, the model request.
        for other in [query("a!3", "b!4", 1, true), query("b!4", "a!3", 0, false), query("a!3", "b!4", 0, false)] {
            assert_ne!(canonical_script(&other.to_smtlib()).unwrap().key, one.key, "{}", other.to_smtlib());
        }
        let swapped = Query::new(vec![
            Term::lt(Term::add(Term::var("b!4", Sort::Int), Term::var("a!3", Sort::Int)), Term::int(10)),
            Term::le(Term::int(0), Term::var("a!3", Sort::Int)),
        ]);
        assert_ne!(
            canonical_script(&swapped.to_smtlib()).unwrap().key,
            canonical_script(&query("a!3", "b!4", 0, false).to_smtlib()).unwrap().key
        );
        // Sorts count.
        let bv = Query::new(vec![Term::eq(Term::var("a!3", Sort::Bv(32)), Term::var("b!4", Sort::Bv(32)))]);
        let bv8 = Query::new(vec![Term::eq(Term::var("a!3", Sort::Bv(8)), Term::var("b!4", Sort::Bv(8)))]);
        assert_ne!(canonical_script(&bv.to_smtlib()).unwrap().key, canonical_script(&bv8.to_smtlib()).unwrap().key);
        // Scripts of another shape have no canonical form.
        assert!(canonical_script("(push 1)\n(check-sat)\n").is_none());
        assert!(canonical_script("(declare-fun f (Int) Int)\n(check-sat)\n").is_none());
    }
}
