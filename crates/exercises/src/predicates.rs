//! Predicates and abstraction formulas of predicate analysis, as a student
//! (or an exercise's choices) writes them, compared with what the run
//! computed.
//!
//! A *predicate* is a linear comparison over the program's variables
//! (`x == 2 * y`, `n <= i`). Predicate abstraction tracks a predicate and
//! its negation alike, so `x != 0` names the same predicate as `x == 0`,
//! and `i < n` the same as `n <= i`. Two predicates are the same when
//! their canonical [`Atom`]s are: the comparison moved to `Σ a·x ⋈ b`
//! with `⋈` one of `==`, `<=` (integers: `e < b` is `e <= b - 1`), the
//! coefficients divided by their greatest common divisor, and the sign
//! chosen so the first coefficient is positive (for `<=` that picks the
//! predicate or its negation).
//!
//! An *abstraction formula* ψ is a Boolean combination (`&&`, `||`, `!`,
//! parentheses, `true`, `false`) of predicates. Two formulas are compared
//! as Boolean combinations of their atoms (a truth table over the atoms),
//! which is how the Boolean and the Cartesian abstraction build them — so
//! `mode != 0 || x == 0` is the same as `mode != 0 || mode == 0 && x == 0`.
//!
//! Everything is decided here without a solver, so the page grades the
//! same way as `cpaplay`. Predicates the engine writes with C's
//! wrap-around (`mod 4294967296`, `? :`) are not linear and do not parse:
//! an exercise about them reports that it cannot be graded (and
//! `cpaplay exercise check` rejects it).

use crate::state::{self, Constraint, Rel, StateText};
use cfa::{Program, VarId};
use std::collections::BTreeMap;

/// A canonical linear predicate `Σ a·x == b` or `Σ a·x <= b` (first
/// coefficient positive, coefficients without a common divisor).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Atom {
    /// Coefficients by variable (no zeros).
    pub coefficients: BTreeMap<VarId, i64>,
    /// `true`: `==`; `false`: `<=`.
    pub equality: bool,
    /// The bound `b`.
    pub bound: i64,
}

/// Longest formula read (the run's ψ' in disjunctive form can be long).
pub const MAX_FORMULA_LEN: usize = 200_000;
/// Deepest nesting of `(` and `!` read.
pub const MAX_DEPTH: usize = 100;

/// At most this many distinct atoms in two formulas compared by truth table.
pub const MAX_ATOMS: usize = 16;

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}

/// The canonical atom of a constraint and whether the constraint is its
/// negation (`x != 0` is not produced by the state parser; see
/// [`parse_predicate`]).
fn atom_of(program: &Program, c: &Constraint) -> Result<(Atom, bool), String> {
    let mut coefficients = BTreeMap::new();
    for (name, a) in &c.coefficients {
        let v = state::resolve_var(program, name)?;
        *coefficients.entry(v).or_insert(0i64) += *a;
    }
    coefficients.retain(|_, a| *a != 0);
    if coefficients.is_empty() {
        return Err(format!("`{}` has no variable: it is not a predicate", c.text));
    }
    let overflow = || format!("`{}`: number too large", c.text);
    // Σ a·x + c ⋈ 0 as Σ a·x ⋈' b.
    let b = c.constant.checked_neg().ok_or_else(overflow)?;
    let negate = |m: &BTreeMap<VarId, i64>| m.iter().map(|(v, a)| (*v, -a)).collect::<BTreeMap<_, _>>();
    let (mut coef, equality, mut bound) = match c.rel {
        Rel::Eq => (coefficients, true, b),
        Rel::Le => (coefficients, false, b),
        Rel::Lt => (coefficients, false, b.checked_sub(1).ok_or_else(overflow)?),
        // Σ a·x >= b  ⇔  -Σ a·x <= -b;   Σ a·x > b  ⇔  -Σ a·x <= -b - 1.
        Rel::Ge => (negate(&coefficients), false, b.checked_neg().ok_or_else(overflow)?),
        Rel::Gt => (negate(&coefficients), false, b.checked_neg().and_then(|x| x.checked_sub(1)).ok_or_else(overflow)?),
    };
    let g = coef.values().fold(0, |g, a| gcd(g, *a));
    if g > 1 {
        for a in coef.values_mut() {
            *a /= g;
        }
        if equality {
            if bound % g != 0 {
                // Never true over the integers; keep it apart from the others.
                coef = coef.into_iter().map(|(v, a)| (v, a * g)).collect();
            } else {
                bound /= g;
            }
        } else {
            bound = bound.div_euclid(g);
        }
    }
    let mut negated = false;
    if coef.values().next().is_some_and(|a| *a < 0) {
        coef = negate(&coef);
        if equality {
            bound = -bound;
        } else {
            // ¬(Σ a·x <= b) ⇔ -Σ a·x <= -b - 1.
            bound = bound.checked_neg().and_then(|x| x.checked_sub(1)).ok_or_else(overflow)?;
            negated = true;
        }
    }
    Ok((Atom { coefficients: coef, equality, bound }, negated))
}

/// Reads one predicate (`x == 2 * y`, `n <= i`, `x != 0`) as a list of
/// atoms with their polarity (a chain `0 <= x <= 9` is two).
fn parse_predicate(program: &Program, text: &str) -> Result<Vec<(Atom, bool)>, String> {
    // `!=` is the negation of `==`: the same predicate, the other polarity.
    let (text, flip) = match text.matches("!=").count() {
        0 => (text.to_string(), false),
        1 => (text.replace("!=", "=="), true),
        _ => return Err(format!("`{}`: one `!=` per predicate", text.trim())),
    };
    let constraints = match state::parse_state(&text) {
        Ok(StateText::Constraints(cs)) => cs,
        Ok(_) => return Err(format!("`{}` is not a comparison", text.trim())),
        Err(e) => return Err(format!("`{}`, {e}", text.trim())),
    };
    constraints.iter().map(|c| atom_of(program, c).map(|(a, n)| (a, n ^ flip))).collect()
}

/// A list of predicates (separated by `,`, `;` or new lines), each as its
/// atom with the text it was written as. An error names the predicate.
pub fn parse_predicates(program: &Program, items: &[String]) -> Result<Vec<(Atom, String)>, String> {
    let mut out = Vec::new();
    for item in items {
        for text in item.split([',', ';', '\n']).map(str::trim).filter(|t| !t.is_empty()) {
            for (atom, _) in parse_predicate(program, text)? {
                out.push((atom, text.to_string()));
            }
        }
    }
    Ok(out)
}

/// An abstraction formula: a Boolean combination of atoms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Formula {
    /// `true` or `false`.
    Const(bool),
    /// An atom, negated when the flag is set.
    Atom(Atom, bool),
    /// `!f`.
    Not(Box<Formula>),
    /// `a && b && …`.
    And(Vec<Formula>),
    /// `a || b || …`.
    Or(Vec<Formula>),
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Open,
    Close,
    Not,
    And,
    Or,
    Text(String),
}

fn tokenize(text: &str) -> Vec<Tok> {
    let mut out = Vec::new();
    let mut atom = String::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let flush = |atom: &mut String, out: &mut Vec<Tok>| {
        if !atom.trim().is_empty() {
            out.push(Tok::Text(atom.trim().to_string()));
        }
        atom.clear();
    };
    while i < chars.len() {
        let (c, next) = (chars[i], chars.get(i + 1).copied());
        let tok = match (c, next) {
            ('(', _) => Some((Tok::Open, 1)),
            (')', _) => Some((Tok::Close, 1)),
            ('!', Some('=')) => None,
            ('!', _) => Some((Tok::Not, 1)),
            ('&', Some('&')) => Some((Tok::And, 2)),
            ('|', Some('|')) => Some((Tok::Or, 2)),
            _ => None,
        };
        match tok {
            Some((t, len)) => {
                flush(&mut atom, &mut out);
                out.push(t);
                i += len;
            }
            None => {
                atom.push(c);
                if c == '!' {
                    atom.push('=');
                    i += 1;
                }
                i += 1;
            }
        }
    }
    flush(&mut atom, &mut out);
    out
}

struct FormulaParser<'a> {
    program: &'a Program,
    toks: Vec<Tok>,
    pos: usize,
    depth: usize,
}

impl FormulaParser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }
    fn or(&mut self) -> Result<Formula, String> {
        let mut parts = vec![self.and()?];
        while self.peek() == Some(&Tok::Or) {
            self.pos += 1;
            parts.push(self.and()?);
        }
        Ok(if parts.len() == 1 { parts.remove(0) } else { Formula::Or(parts) })
    }
    fn and(&mut self) -> Result<Formula, String> {
        let mut parts = vec![self.unary()?];
        while self.peek() == Some(&Tok::And) {
            self.pos += 1;
            parts.push(self.unary()?);
        }
        Ok(if parts.len() == 1 { parts.remove(0) } else { Formula::And(parts) })
    }
    fn unary(&mut self) -> Result<Formula, String> {
        if self.depth > MAX_DEPTH {
            return Err(format!("the formula nests `(` and `!` more than {MAX_DEPTH} deep"));
        }
        match self.peek().cloned() {
            Some(Tok::Not) => {
                self.pos += 1;
                self.depth += 1;
                let f = self.unary();
                self.depth -= 1;
                Ok(Formula::Not(Box::new(f?)))
            }
            Some(Tok::Open) => {
                self.pos += 1;
                self.depth += 1;
                let f = self.or();
                self.depth -= 1;
                let f = f?;
                if self.peek() != Some(&Tok::Close) {
                    return Err("a `(` is not closed".into());
                }
                self.pos += 1;
                Ok(f)
            }
            Some(Tok::Text(t)) => {
                self.pos += 1;
                match t.as_str() {
                    "true" => Ok(Formula::Const(true)),
                    "false" => Ok(Formula::Const(false)),
                    _ => {
                        let mut atoms: Vec<Formula> = parse_predicate(self.program, &t)?
                            .into_iter()
                            .map(|(a, negated)| Formula::Atom(a, negated))
                            .collect();
                        Ok(if atoms.len() == 1 { atoms.remove(0) } else { Formula::And(atoms) })
                    }
                }
            }
            Some(Tok::Close) => Err("unexpected `)`".into()),
            Some(Tok::And) | Some(Tok::Or) => Err("`&&` or `||` without a condition before it".into()),
            None => Err("the formula ends too early".into()),
        }
    }
}

/// Reads an abstraction formula over `program`'s variables. Never panics.
pub fn parse_formula(program: &Program, text: &str) -> Result<Formula, String> {
    if text.len() > MAX_FORMULA_LEN {
        return Err(format!("the formula is longer than {MAX_FORMULA_LEN} characters"));
    }
    let mut p = FormulaParser { program, toks: tokenize(text), pos: 0, depth: 0 };
    let f = p.or()?;
    if p.pos < p.toks.len() {
        return Err("unexpected text after the formula (a `)` too many?)".into());
    }
    Ok(f)
}

impl Formula {
    fn atoms(&self, out: &mut Vec<Atom>) {
        match self {
            Formula::Const(_) => {}
            Formula::Atom(a, _) => {
                if !out.contains(a) {
                    out.push(a.clone());
                }
            }
            Formula::Not(f) => f.atoms(out),
            Formula::And(fs) | Formula::Or(fs) => fs.iter().for_each(|f| f.atoms(out)),
        }
    }

    fn eval(&self, value: &dyn Fn(&Atom) -> bool) -> bool {
        match self {
            Formula::Const(b) => *b,
            Formula::Atom(a, negated) => value(a) != *negated,
            Formula::Not(f) => !f.eval(value),
            Formula::And(fs) => fs.iter().all(|f| f.eval(value)),
            Formula::Or(fs) => fs.iter().any(|f| f.eval(value)),
        }
    }
}

/// Whether two formulas are the same Boolean combination of their atoms
/// (`None`: more than [`MAX_ATOMS`] atoms, not decided).
pub fn equivalent(a: &Formula, b: &Formula) -> Option<bool> {
    let mut atoms = Vec::new();
    a.atoms(&mut atoms);
    b.atoms(&mut atoms);
    if atoms.len() > MAX_ATOMS {
        return None;
    }
    for row in 0u32..(1u32 << atoms.len()) {
        let value = |x: &Atom| atoms.iter().position(|y| y == x).is_some_and(|i| row & (1 << i) != 0);
        if a.eval(&value) != b.eval(&value) {
            return Some(false);
        }
    }
    Some(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program() -> Program {
        cfa::from_source("int main(void) { int x = 0; int y = 0; int n = 0; int mode = 0; return 0; }").unwrap()
    }

    fn atom(text: &str) -> Atom {
        parse_predicates(&program(), &[text.to_string()]).unwrap().remove(0).0
    }

    #[test]
    fn a_predicate_and_its_negation_are_one_atom() {
        assert_eq!(atom("x == 0"), atom("x != 0"));
        assert_eq!(atom("x == 0"), atom("main::x == 0"));
        assert_eq!(atom("n <= y"), atom("y < n"));
        assert_eq!(atom("x == 2 * y"), atom("2 * x - 4 * y == 0"));
        assert_ne!(atom("x == 2 * y"), atom("x == y"));
        assert_ne!(atom("n <= y"), atom("n <= y + 1"));
        assert_eq!(atom("2 * x <= 3"), atom("x <= 1"));
    }

    #[test]
    fn bad_predicates_are_messages() {
        let p = program();
        for bad in ["x", "3 == 3", "z == 1", "x * y == 1", "x == (2 * y) mod 4294967296", "x != 1 != 2"] {
            assert!(parse_predicates(&p, &[bad.to_string()]).is_err(), "{bad}");
        }
    }

    #[test]
    fn formulas_are_compared_as_boolean_combinations() {
        let p = program();
        let f = |t: &str| parse_formula(&p, t).unwrap();
        let engine = "main::mode != 0 && main::x != 0 || main::mode != 0 && main::x == 0 || main::mode == 0 && main::x == 0";
        assert_eq!(equivalent(&f(engine), &f("mode != 0 || x == 0")), Some(true));
        assert_eq!(equivalent(&f(engine), &f("!(mode == 0 && !(x == 0))")), Some(true));
        assert_eq!(equivalent(&f(engine), &f("true")), Some(false));
        assert_eq!(equivalent(&f(engine), &f("mode == 0 && x == 0 || mode != 0 && x != 0")), Some(false));
        assert_eq!(equivalent(&f("!(n <= y) && x == 0"), &f("y < n && x == 0")), Some(true));
        assert_eq!(equivalent(&f("n <= y"), &f("y < n")), Some(false));
        assert_eq!(equivalent(&f("!(n <= y)"), &f("n > y")), Some(true));
        for bad in ["(x == 0", "x == 0)", "&& x == 0", "x == 0 ||", ""] {
            assert!(parse_formula(&p, bad).is_err(), "{bad}");
        }
        // Deep nesting is a message, not a stack overflow; a long flat
        // disjunction (a Boolean abstraction over many predicates) reads.
        assert!(parse_formula(&p, &format!("{}x == 0{}", "(".repeat(5000), ")".repeat(5000))).is_err());
        assert!(parse_formula(&p, &"!".repeat(5000)).is_err());
        let long = vec!["x == 0 && !(n <= y) && mode != 0"; 300].join(" || ");
        assert_eq!(equivalent(&f(&long), &f("x == 0 && n > y && mode != 0")), Some(true));
    }
}
