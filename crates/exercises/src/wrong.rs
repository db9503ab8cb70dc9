//! What a wrong answer is told: what is off, never the reference answer.
//!
//! One wrong guess followed by the answer the feedback named would earn
//! full points, so the checkers word a wrong answer's feedback from the
//! student's own answer: a count is too low or too high, a claimed fact of
//! an abstract state does not hold of the run (with whether no reached
//! state or only some satisfy it), a fact the analysis knows is left out
//! (naming the variables, not the bound). The full explanation with the
//! reference answer goes to [`crate::Feedback::solution`], shown only when
//! the set allows it ([`reveals`]).

use crate::state::{self, StateText};
use cfa::{Program, VarId};
use domains::Octagon;
use std::collections::BTreeMap;

/// Whether the reference answer may be shown to a student who has checked
/// `attempts` answers to an exercise (this one included) and was right in
/// `right_before` of them (or now): always after a right answer; after a
/// wrong one only when the set says `reveal_after = N` and there have been
/// at least `N` attempts.
pub fn reveals(correct_now: bool, right_before: bool, attempts: usize, reveal_after: Option<u32>) -> bool {
    correct_now || right_before || reveal_after.is_some_and(|n| attempts >= n as usize)
}

/// A count answer's direction: `too low` or `too high`.
pub fn direction(said: u64, actual: u64) -> &'static str {
    if said < actual {
        "too low: the run had more"
    } else {
        "too high: the run had fewer"
    }
}

/// What a verdict answer is told when it is not the analysis's verdict:
/// where to look, without naming the verdict.
pub const VERDICT_HINT: &str = "Look at how the run ends: whether a state reaches the error location, whether that \
     path is real or a false alarm of the abstraction, and whether the run stops early (a step limit, a refinement that \
     makes no progress). Step through it in the playground.";

/// What a wrong choice of abstraction formula is told: how the two
/// abstractions build ψ', without naming it.
pub const ABSTRACTION_HINT: &str = "Look at the block's path formula φ in the Abstraction event and the predicates \
     of the location: the Boolean abstraction keeps every combination of predicates that ψ ∧ φ allows (a \
     disjunction), the Cartesian abstraction only the predicates (or negations) that hold on every path.";

/// The lines telling a student how their predicates differ from those a
/// refinement adds: each of theirs that it does not add, and how many of
/// its predicates they left out — never which.
pub fn predicates(extra: &[&String], missing: usize) -> Vec<String> {
    let mut out: Vec<String> =
        extra.iter().map(|t| format!("`{}` (or its negation) is not one of the predicates it adds there", t.trim())).collect();
    if missing > 0 {
        out.push(format!(
            "{missing} predicate(s) it adds there {} missing from your list: look at the atoms of the interpolant at this location",
            if missing == 1 { "is" } else { "are" }
        ));
    }
    out
}

/// The variables of a constraint as its linear form without the bound:
/// `x`, `x - y`, `x + y`.
fn form(c: &state::Constraint) -> String {
    let mut s = String::new();
    for (name, a) in &c.coefficients {
        let sign = if *a < 0 { "-" } else { "+" };
        let k = a.unsigned_abs();
        let term = if k == 1 { name.clone() } else { format!("{k}·{name}") };
        if s.is_empty() {
            s = if *a < 0 { format!("-{term}") } else { term };
        } else {
            s.push_str(&format!(" {sign} {term}"));
        }
    }
    s
}

/// The lines telling a student how their explicit-value state (`None`: ⊥)
/// differs from the analysis's join `reference`, without the reference's
/// values.
pub fn value_state(
    program: &Program,
    student: &Option<BTreeMap<VarId, i128>>,
    reference: &Option<BTreeMap<VarId, i128>>,
) -> Vec<String> {
    let names = state::display_names(program);
    let name =
        |v: &VarId| program.variables.iter().position(|x| x.id == *v).and_then(|i| names.get(i).cloned()).unwrap_or_default();
    match (student, reference) {
        (None, Some(_)) => vec!["your state is ⊥ (`false`), but the analysis reaches this location".into()],
        (Some(_), None) => {
            vec!["your state describes states here; look at whether the analysis reaches this location at all".into()]
        }
        (None, None) => vec![],
        (Some(s), Some(r)) => {
            let mut out = Vec::new();
            for (v, x) in s {
                match r.get(v) {
                    Some(y) if y == x => {}
                    Some(_) => {
                        out.push(format!("your state claims `{} = {x}`, which no state the analysis reached here has", name(v)))
                    }
                    None => out.push(format!(
                        "your state claims `{} = {x}`, but not every state the analysis reached here has it",
                        name(v)
                    )),
                }
            }
            for v in r.keys().filter(|v| !s.contains_key(*v)) {
                out.push(format!("the analysis knows the value of `{}` here; your state leaves it out", name(v)));
            }
            out
        }
    }
}

/// The lines telling a student how their octagon (or, with `intervals`,
/// interval) state differs from the analysis's join `reference`: each
/// constraint of theirs that the run contradicts, and the variables the
/// analysis knows more about — never a bound of the reference.
pub fn octagon_state(
    program: &Program,
    text: &StateText,
    student: &Octagon,
    reference: &Octagon,
    intervals: bool,
) -> Vec<String> {
    let leq = |a: &Octagon, b: &Octagon| if intervals { state::intervals_leq(a, b) } else { a.leq(b) };
    let single = |c: &state::Constraint| state::octagon_of(program, &StateText::Constraints(vec![c.clone()]), false, false).ok();
    if student.is_bottom() && !reference.is_bottom() {
        return vec!["your state is ⊥ (`false`), but the analysis reaches this location".into()];
    }
    if reference.is_bottom() {
        return if student.is_bottom() {
            vec![]
        } else {
            vec!["your state describes states here; look at whether the analysis reaches this location at all".into()]
        };
    }
    let mut out = Vec::new();
    if let StateText::Constraints(cs) = text {
        for c in cs {
            let Some(o) = single(c) else { continue };
            if !leq(reference, &o) {
                let never = reference.meet(&o).is_bottom();
                out.push(if never {
                    format!("your state claims `{}`, which no state the analysis reached here satisfies", c.text)
                } else {
                    format!("your state claims `{}`, but not every state the analysis reached here satisfies it", c.text)
                });
            }
        }
    }
    // What the analysis knows that the student's state does not imply.
    let reference_text =
        if intervals { state::intervals_text(program, reference) } else { state::octagon_text(program, reference) };
    let mut missing: Vec<String> = Vec::new();
    if let Ok(StateText::Constraints(rcs)) = state::parse_state(&reference_text) {
        for c in &rcs {
            let Some(o) = single(c) else { continue };
            if !leq(student, &o) {
                let f = form(c);
                if !missing.contains(&f) {
                    missing.push(f);
                }
            }
        }
    }
    if !missing.is_empty() {
        let list: Vec<String> = missing.iter().map(|f| format!("`{f}`")).collect();
        out.push(format!("the analysis knows more about {} here than your state says", list.join(", ")));
    }
    out
}
