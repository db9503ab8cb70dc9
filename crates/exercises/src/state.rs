//! Abstract states as a student types them, and their comparison by ⊑ with
//! the domains' own operators.
//!
//! The text is a conjunction of linear constraints separated by `,`, `;`,
//! `&&` or new lines: `x = 3, y = 5` (explicit values),
//! `0 <= x <= 10, x - y <= 2` (octagon), `true` (⊤) or `false` (⊥).
//! Comparisons may be chained (`0 <= x <= 10`); `=` and `==` both mean
//! equality. The octagon domain's own view text (`x == 3`,
//! `-1 <= x - y <= 2`, `x + y >= 0`) is in the same language.
//!
//! An answer is right when it denotes the same abstract state as the join
//! of the analysis's reached states at the location: `answer ⊑ reference`
//! and `reference ⊑ answer`, decided by [`domains::Octagon::leq`],
//! [`domains::Interval::leq`] or, for explicit values, by the value
//! domain's order (a state knows at least the bindings of every state
//! above it).

use cfa::{Program, VarId};
use domains::{Cmp, Interval, LinExpr, Octagon};
use std::collections::BTreeMap;
use std::fmt;

/// A comparison `expr ⋈ 0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rel {
    /// `≤`
    Le,
    /// `<`
    Lt,
    /// `≥`
    Ge,
    /// `>`
    Gt,
    /// `=`
    Eq,
}

impl Rel {
    fn cmp(self) -> Cmp {
        match self {
            Rel::Le => Cmp::Le,
            Rel::Lt => Cmp::Lt,
            Rel::Ge => Cmp::Ge,
            Rel::Gt => Cmp::Gt,
            Rel::Eq => Cmp::Eq,
        }
    }
}

/// One linear constraint `Σ aᵢ·xᵢ + c ⋈ 0` over variable *names*, with the
/// text it was written as.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constraint {
    /// Coefficients by variable name (no zeros).
    pub coefficients: BTreeMap<String, i64>,
    /// The constant term.
    pub constant: i64,
    /// The comparison with 0.
    pub rel: Rel,
    /// The constraint as written (one comparison of a chain).
    pub text: String,
    /// 1-based column where it starts in the answer.
    pub column: u32,
}

/// A parsed abstract state: ⊤, ⊥, or a conjunction of constraints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StateText {
    /// `true`: no constraint.
    Top,
    /// `false`: no concrete state (e.g. the location is unreachable).
    Bottom,
    /// The conjunction.
    Constraints(Vec<Constraint>),
}

/// A syntax error in a typed state, at a 1-based column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateSyntaxError {
    /// 1-based column (in characters).
    pub column: u32,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for StateSyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: {}", self.column, self.message)
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Int(i64),
    Ident(String),
    Plus,
    Minus,
    Star,
    Rel(Rel),
    Sep,
}

/// Largest constant accepted (keeps every bound far from overflow).
const MAX_CONST: i64 = 1 << 40;
/// Longest state text accepted.
const MAX_LEN: usize = 4000;

fn tokenize(text: &str) -> Result<Vec<(Tok, u32, usize)>, StateSyntaxError> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let (byte, c) = chars[i];
        let col = i as u32 + 1;
        let next = chars.get(i + 1).map(|p| p.1);
        let err = |m: String| StateSyntaxError { column: col, message: m };
        if c == '\n' || c == ',' || c == ';' {
            out.push((Tok::Sep, col, byte));
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '&' && next == Some('&') {
            out.push((Tok::Sep, col, byte));
            i += 2;
        } else if c.is_ascii_digit() {
            let mut v: i64 = 0;
            while let Some(&(_, d)) = chars.get(i) {
                let Some(digit) = d.to_digit(10) else { break };
                v = v
                    .checked_mul(10)
                    .and_then(|v| v.checked_add(digit as i64))
                    .filter(|v| *v <= MAX_CONST)
                    .ok_or_else(|| err("number too large".into()))?;
                i += 1;
            }
            out.push((Tok::Int(v), col, byte));
        } else if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while let Some(&(_, d)) = chars.get(i) {
                if d.is_ascii_alphanumeric() || d == '_' {
                    i += 1;
                } else if d == ':' && chars.get(i + 1).map(|p| p.1) == Some(':') {
                    i += 2;
                } else {
                    break;
                }
            }
            let word: String = chars[start..i].iter().map(|p| p.1).collect();
            if word == "and" {
                out.push((Tok::Sep, col, byte));
            } else {
                out.push((Tok::Ident(word), col, byte));
            }
        } else {
            let (tok, len) = match (c, next) {
                ('<', Some('=')) => (Tok::Rel(Rel::Le), 2),
                ('>', Some('=')) => (Tok::Rel(Rel::Ge), 2),
                ('=', Some('=')) => (Tok::Rel(Rel::Eq), 2),
                ('<', _) => (Tok::Rel(Rel::Lt), 1),
                ('>', _) => (Tok::Rel(Rel::Gt), 1),
                ('=', _) => (Tok::Rel(Rel::Eq), 1),
                ('+', _) => (Tok::Plus, 1),
                ('-', _) => (Tok::Minus, 1),
                ('*', _) => (Tok::Star, 1),
                ('!', Some('=')) => return Err(err("`!=` is not a constraint of these domains (they are convex)".into())),
                _ => return Err(err(format!("unexpected `{c}`"))),
            };
            out.push((tok, col, byte));
            i += len;
        }
    }
    Ok(out)
}

/// A linear form `Σ a·x + c` while parsing.
#[derive(Clone, Debug, Default)]
struct Lin {
    coefficients: BTreeMap<String, i64>,
    constant: i64,
}

impl Lin {
    fn add_scaled(&mut self, other: &Lin, k: i64) -> Option<()> {
        for (v, a) in &other.coefficients {
            let e = self.coefficients.entry(v.clone()).or_insert(0);
            *e = e.checked_add(a.checked_mul(k)?)?;
        }
        self.coefficients.retain(|_, a| *a != 0);
        self.constant = self.constant.checked_add(other.constant.checked_mul(k)?)?;
        Some(())
    }
}

struct Parser<'a> {
    toks: &'a [(Tok, u32, usize)],
    pos: usize,
    end_col: u32,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.0)
    }
    fn col(&self) -> u32 {
        self.toks.get(self.pos).map(|t| t.1).unwrap_or(self.end_col)
    }
    fn err(&self, m: impl Into<String>) -> StateSyntaxError {
        StateSyntaxError { column: self.col(), message: m.into() }
    }

    fn term(&mut self) -> Result<Lin, StateSyntaxError> {
        let mut lin = Lin::default();
        match self.peek().cloned() {
            Some(Tok::Int(n)) => {
                self.pos += 1;
                if self.peek() == Some(&Tok::Star) {
                    self.pos += 1;
                    match self.peek().cloned() {
                        Some(Tok::Ident(x)) => {
                            self.pos += 1;
                            lin.coefficients.insert(x, n);
                        }
                        _ => return Err(self.err("expected a variable after `*`")),
                    }
                } else {
                    lin.constant = n;
                }
            }
            Some(Tok::Ident(x)) => {
                self.pos += 1;
                let mut k = 1;
                if self.peek() == Some(&Tok::Star) {
                    self.pos += 1;
                    match self.peek().cloned() {
                        Some(Tok::Int(n)) => {
                            self.pos += 1;
                            k = n;
                        }
                        _ => return Err(self.err("expected a number after `*` (constraints are linear)")),
                    }
                }
                lin.coefficients.insert(x, k);
            }
            _ => return Err(self.err("expected a number or a variable")),
        }
        lin.coefficients.retain(|_, a| *a != 0);
        Ok(lin)
    }

    fn linear(&mut self) -> Result<Lin, StateSyntaxError> {
        let mut acc = Lin::default();
        let mut sign = 1;
        match self.peek() {
            Some(Tok::Minus) => {
                sign = -1;
                self.pos += 1;
            }
            Some(Tok::Plus) => self.pos += 1,
            _ => {}
        }
        loop {
            let t = self.term()?;
            acc.add_scaled(&t, sign).ok_or_else(|| self.err("number too large"))?;
            match self.peek() {
                Some(Tok::Plus) => sign = 1,
                Some(Tok::Minus) => sign = -1,
                _ => return Ok(acc),
            }
            self.pos += 1;
        }
    }
}

/// Parses a typed abstract state. Never panics.
pub fn parse_state(text: &str) -> Result<StateText, StateSyntaxError> {
    if text.len() > MAX_LEN {
        return Err(StateSyntaxError { column: 1, message: format!("longer than {MAX_LEN} characters") });
    }
    let t = text.trim();
    match t.to_ascii_lowercase().as_str() {
        "true" | "top" | "⊤" | "" => return Ok(StateText::Top),
        "false" | "bottom" | "⊥" => return Ok(StateText::Bottom),
        _ => {}
    }
    let toks = tokenize(text)?;
    let mut p = Parser { toks: &toks, pos: 0, end_col: text.chars().count() as u32 + 1 };
    let mut out = Vec::new();
    while p.pos < toks.len() {
        if p.peek() == Some(&Tok::Sep) {
            p.pos += 1;
            continue;
        }
        let start_pos = p.pos;
        let mut left = p.linear()?;
        let mut any = false;
        while let Some(Tok::Rel(rel)) = p.peek().cloned() {
            let start = p.toks.get(start_pos).map(|t| (t.1, t.2)).unwrap_or((1, 0));
            p.pos += 1;
            let right = p.linear()?;
            let end = p.toks.get(p.pos).map(|t| t.2).unwrap_or(text.len());
            let mut diff = left.clone();
            diff.add_scaled(&right, -1).ok_or_else(|| p.err("number too large"))?;
            out.push(Constraint {
                coefficients: diff.coefficients,
                constant: diff.constant,
                rel,
                text: text.get(start.1..end).unwrap_or("").trim().to_string(),
                column: start.0,
            });
            left = right;
            any = true;
        }
        if !any {
            return Err(p.err("expected a comparison (`<=`, `<`, `>=`, `>`, `=`)"));
        }
        match p.peek() {
            None | Some(Tok::Sep) => {}
            Some(_) => return Err(p.err("expected `,` between constraints")),
        }
    }
    if out.is_empty() {
        return Ok(StateText::Top);
    }
    Ok(StateText::Constraints(out))
}

/// The program variable a name means: its qualified name (`main::i`), or
/// its short name when only one variable has it.
pub fn resolve_var(program: &Program, name: &str) -> Result<VarId, String> {
    if let Some(v) = program.variables.iter().find(|v| v.qualified == name) {
        return Ok(v.id);
    }
    let short: Vec<&cfa::Variable> = program.variables.iter().filter(|v| v.name == name).collect();
    match short.as_slice() {
        [v] => Ok(v.id),
        [] => Err(format!("the program has no variable `{name}`")),
        many => Err(format!(
            "`{name}` is ambiguous: write one of {}",
            many.iter().map(|v| format!("`{}`", v.qualified)).collect::<Vec<_>>().join(", ")
        )),
    }
}

/// The display names of the program's variables, by index (short where
/// unique, else qualified).
pub fn display_names(program: &Program) -> Vec<String> {
    program
        .variables
        .iter()
        .map(|v| {
            if program.variables.iter().filter(|w| w.name == v.name).count() == 1 {
                v.name.clone()
            } else {
                v.qualified.clone()
            }
        })
        .collect()
}

fn var_index(program: &Program, id: VarId) -> Option<usize> {
    program.variables.iter().position(|v| v.id == id)
}

/// The octagon a constraint list denotes, over all program variables
/// (dimension i = `program.variables[i]`). With `octagonal_only`, a
/// constraint that is not of the octagon's form `±x ± y ⋈ c` is refused
/// (the guard would only approximate it); with `intervals_only`, any
/// constraint on two variables is.
pub fn octagon_of(program: &Program, state: &StateText, octagonal_only: bool, intervals_only: bool) -> Result<Octagon, String> {
    let n = program.variables.len();
    let cs = match state {
        StateText::Top => return Ok(Octagon::top(n)),
        StateText::Bottom => return Ok(Octagon::bottom(n)),
        StateText::Constraints(cs) => cs,
    };
    let mut o = Octagon::top(n);
    for c in cs {
        let mut terms = Vec::new();
        for (name, a) in &c.coefficients {
            let id = resolve_var(program, name).map_err(|m| format!("`{}`: {m}", c.text))?;
            let i = var_index(program, id).ok_or_else(|| format!("`{}`: unknown variable", c.text))?;
            terms.push((i, *a));
        }
        if intervals_only && terms.len() > 1 {
            return Err(format!("`{}` relates two variables; an interval state has only bounds of single variables", c.text));
        }
        if octagonal_only && (terms.len() > 2 || (terms.len() == 2 && terms[0].1.abs() != terms[1].1.abs())) {
            return Err(format!("`{}` is not an octagon constraint (±x ± y ⋈ c)", c.text));
        }
        o.guard(&LinExpr::new(terms, c.constant), c.rel.cmp());
    }
    o.close();
    Ok(o)
}

/// The explicit-value state a constraint list denotes: every constraint
/// must be `variable = constant`. `None` is ⊥.
pub fn values_of(program: &Program, state: &StateText) -> Result<Option<BTreeMap<VarId, i128>>, String> {
    let cs = match state {
        StateText::Top => return Ok(Some(BTreeMap::new())),
        StateText::Bottom => return Ok(None),
        StateText::Constraints(cs) => cs,
    };
    let mut out = BTreeMap::new();
    for c in cs {
        let single = c.coefficients.iter().next().filter(|_| c.coefficients.len() == 1);
        let Some((name, &a)) = single.filter(|(_, a)| a.abs() == 1).filter(|_| c.rel == Rel::Eq) else {
            return Err(format!(
                "`{}` is not of the form `variable = value` (the value domain knows values, not ranges)",
                c.text
            ));
        };
        let id = resolve_var(program, name).map_err(|m| format!("`{}`: {m}", c.text))?;
        // a·x + k = 0  ⇒  x = −k / a, a = ±1.
        let value = -(c.constant as i128) * a as i128;
        if let Some(old) = out.insert(id, value) {
            if old != value {
                return Ok(None);
            }
        }
    }
    Ok(Some(out))
}

/// The octagon of the Octagon CPA's view of a state (its closed DBM,
/// cell by cell), over all program variables.
pub fn octagon_of_view(program: &Program, view: &engine::trace::OctagonView) -> Result<Octagon, String> {
    let n = program.variables.len();
    if view.bottom {
        return Ok(Octagon::bottom(n));
    }
    let mut dims = Vec::with_capacity(view.labels.len());
    for l in &view.labels {
        let (sign, name) = match l.chars().next() {
            Some('+') => (1i64, &l[1..]),
            Some('-') => (-1i64, &l[1..]),
            _ => return Err(format!("bad DBM label `{l}`")),
        };
        let id = resolve_var(program, name)?;
        let i = var_index(program, id).ok_or_else(|| format!("unknown variable `{name}`"))?;
        dims.push((i, sign));
    }
    let mut o = Octagon::top(n);
    for (i, row) in view.cells.iter().enumerate() {
        for (j, cell) in row.iter().enumerate() {
            let (Some(c), Some(&(xi, si)), Some(&(xj, sj))) = (cell, dims.get(i), dims.get(j)) else { continue };
            if i == j {
                continue;
            }
            // labels[j] − labels[i] ≤ c.
            o.guard(&LinExpr::new(vec![(xj, sj), (xi, -si)], -c), Cmp::Le);
        }
    }
    o.close();
    Ok(o)
}

/// How a student's state relates to the reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    /// Same state (⊑ both ways): right.
    Equal,
    /// Strictly below: the student claims more than the analysis knows.
    Below,
    /// Strictly above: the analysis knows more than the student said.
    Above,
    /// Neither ⊑ holds.
    Incomparable,
}

impl Relation {
    /// From the two ⊑ results (`answer ⊑ reference`, `reference ⊑ answer`).
    pub fn of(below: bool, above: bool) -> Relation {
        match (below, above) {
            (true, true) => Relation::Equal,
            (true, false) => Relation::Below,
            (false, true) => Relation::Above,
            (false, false) => Relation::Incomparable,
        }
    }

    /// In words, for feedback.
    pub fn words(self) -> &'static str {
        match self {
            Relation::Equal => "your state equals the analysis's (⊑ holds in both directions)",
            Relation::Below => {
                "your state is strictly below the analysis's (answer ⊏ reference): it claims facts the analysis does not know"
            }
            Relation::Above => {
                "your state is strictly above the analysis's (reference ⊏ answer): the analysis knows more than you wrote"
            }
            Relation::Incomparable => "your state and the analysis's are incomparable (neither ⊑ holds)",
        }
    }
}

/// Compares two explicit-value states (`None` = ⊥) in the value domain's
/// order: `a ⊑ b` iff `a` is ⊥, or `b` is not ⊥ and every binding of `b`
/// is one of `a`.
pub fn value_leq(a: &Option<BTreeMap<VarId, i128>>, b: &Option<BTreeMap<VarId, i128>>) -> bool {
    match (a, b) {
        (None, _) => true,
        (Some(_), None) => false,
        (Some(a), Some(b)) => b.iter().all(|(v, x)| a.get(v) == Some(x)),
    }
}

/// The explicit-value join: the bindings all states agree on (`None` = ⊥).
pub fn value_join(a: &Option<BTreeMap<VarId, i128>>, b: &Option<BTreeMap<VarId, i128>>) -> Option<BTreeMap<VarId, i128>> {
    match (a, b) {
        (None, x) | (x, None) => x.clone(),
        (Some(a), Some(b)) => Some(a.iter().filter(|(v, x)| b.get(v) == Some(x)).map(|(v, x)| (*v, *x)).collect()),
    }
}

/// An explicit-value state as text: `x = 3, y = 5`, `true` (⊤), `false` (⊥).
pub fn values_text(program: &Program, s: &Option<BTreeMap<VarId, i128>>) -> String {
    let names = display_names(program);
    match s {
        None => "false".into(),
        Some(m) if m.is_empty() => "true".into(),
        Some(m) => m
            .iter()
            .map(|(v, x)| {
                format!(
                    "{} = {x}",
                    var_index(program, *v).and_then(|i| names.get(i).cloned()).unwrap_or_else(|| format!("v{}", v.0))
                )
            })
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// An octagon as constraint text (its own readable view).
pub fn octagon_text(program: &Program, o: &Octagon) -> String {
    let names = display_names(program);
    let cs: Vec<String> = o.constraints(&names).into_iter().map(|c| c.text).collect();
    if cs.is_empty() {
        "true".into()
    } else {
        cs.join(", ")
    }
}

/// The per-variable intervals of an octagon (its interval abstraction).
pub fn intervals_of(o: &Octagon) -> Vec<Interval> {
    (0..o.vars()).map(|v| o.interval(v)).collect()
}

/// An interval state as text: `0 <= x <= 10, y >= 1` (`false` for ⊥).
pub fn intervals_text(program: &Program, o: &Octagon) -> String {
    if o.is_bottom() {
        return "false".into();
    }
    let names = display_names(program);
    let parts: Vec<String> = intervals_of(o)
        .iter()
        .enumerate()
        .filter_map(|(v, i)| {
            let x = names.get(v)?;
            match (i.lo(), i.hi()) {
                (Some(l), Some(h)) if l == h => Some(format!("{x} == {l}")),
                (Some(l), Some(h)) => Some(format!("{l} <= {x} <= {h}")),
                (Some(l), None) => Some(format!("{x} >= {l}")),
                (None, Some(h)) => Some(format!("{x} <= {h}")),
                (None, None) => None,
            }
        })
        .collect();
    if parts.is_empty() {
        "true".into()
    } else {
        parts.join(", ")
    }
}

/// `a ⊑ b` in the interval abstraction of two octagons (per variable).
pub fn intervals_leq(a: &Octagon, b: &Octagon) -> bool {
    if a.is_bottom() {
        return true;
    }
    if b.is_bottom() {
        return false;
    }
    intervals_of(a).iter().zip(intervals_of(b)).all(|(x, y)| x.leq(y))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_chains_values_and_junk_without_panicking() {
        let StateText::Constraints(cs) = parse_state("0 <= x <= 10, x - y <= 2").unwrap() else { panic!() };
        assert_eq!(cs.len(), 3);
        assert_eq!(cs[2].coefficients.get("y"), Some(&-1));
        assert_eq!(cs[0].text, "0 <= x");
        let StateText::Constraints(cs) = parse_state("x = 3 && 2*y == -4").unwrap() else { panic!() };
        assert_eq!((cs[1].constant, cs[1].coefficients.get("y")), (4, Some(&2)));
        assert_eq!(parse_state(" false ").unwrap(), StateText::Bottom);
        for bad in ["x", "x <=", "x * y <= 1", "x != 2", "99999999999999999999 <= x", "x <= 1 y", "(x)", "é"] {
            assert!(parse_state(bad).is_err(), "{bad}");
        }
    }
}
