//! Correctness witnesses: for a TRUE verdict, an `invariant_set` with one
//! `loop_invariant` per loop head (`while`/`for`) where the final reached
//! set says something, as a C expression: the disjunction over all reached
//! states at that location of what each state's components prove —
//!
//! * value analysis: `x == 3 && y == 0` (the known values),
//! * octagons: the closed DBM's bounds, `(long long)x - (long long)y <= 3`,
//! * predicate abstraction: the abstraction formula ψ of an abstraction
//!   state (variables cast to `long long`, so C computes what the formula
//!   means over the variables' values).
//!
//! Only what every reached state at the location satisfies is written (a
//! state that proves nothing there drops the location); a location whose
//! states are all ⊥ gets `0`. Many different states become the conjuncts
//! they all share. Every invariant is read back by mini-C before it is
//! written ([`crate::check::invariant_program`]).

use crate::format::{Entry, Invariant, InvariantItem, Location};
use crate::metadata::RunInfo;
use crate::scope::{identifiers, in_scope, loop_keywords};
use crate::source_map::SourceMap;
use cfa::{NodeId, Program, VarId};
use engine::cpas::composite::composite_views;
use engine::state_view::{OctagonView, ViewContent};
use std::collections::{BTreeMap, BTreeSet};

/// At most this many different state formulas are joined by `||`; more
/// become the conjuncts they share.
const MAX_DISJUNCTS: usize = 16;

/// One loop invariant the analysis proved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopInvariant {
    /// The loop head.
    pub node: NodeId,
    /// Byte offset of the loop keyword.
    pub keyword: usize,
    /// The C expression.
    pub value: String,
}

/// What one reached state proves at its location.
enum StateFormula {
    /// No concrete state (an octagon ⊥, ψ = false).
    Bottom,
    /// The conjunction of these C expressions (empty: nothing).
    Conjuncts(BTreeSet<String>),
}

/// The loop invariants of the final reached set of `analysis`.
pub fn loop_invariants(analysis: &engine::Analysis, source: &str) -> Vec<LoopInvariant> {
    let program = analysis.program().clone();
    let map = SourceMap::new(source);
    let heads = loop_keywords(&program, &map);
    let mut states: BTreeMap<NodeId, Vec<StateFormula>> = BTreeMap::new();
    for (_, state) in analysis.reached() {
        let views = composite_views(analysis.cpa(), state);
        let Some(node) = views.iter().find_map(|v| match v.content {
            ViewContent::Location { node } => Some(node),
            _ => None,
        }) else {
            continue;
        };
        let Some(&keyword) = heads.get(&node) else { continue };
        let scope = in_scope(&program, program.node(node).function, keyword);
        let mut conjuncts = BTreeSet::new();
        let mut bottom = false;
        for view in &views {
            match &view.content {
                ViewContent::Values { values } => {
                    for b in values {
                        if let Some(name) = scope.get(&b.var) {
                            conjuncts.insert(format!("{name} == {}", crate::c_int(b.value)));
                        }
                    }
                }
                ViewContent::Octagon { octagon } if octagon.bottom => bottom = true,
                ViewContent::Octagon { octagon } => conjuncts.extend(octagon_constraints(&program, &scope, octagon)),
                ViewContent::Predicate { abstraction, abstraction_state, path, .. } if *abstraction_state || path.is_empty() => {
                    match predicate_formula(&program, &scope, abstraction) {
                        Some(f) if f == "0" => bottom = true,
                        Some(f) if f == "1" => {}
                        Some(f) => {
                            conjuncts.insert(f);
                        }
                        None => {}
                    }
                }
                _ => {}
            }
        }
        states.entry(node).or_default().push(if bottom { StateFormula::Bottom } else { StateFormula::Conjuncts(conjuncts) });
    }
    let mut out = Vec::new();
    for (node, formulas) in states {
        let keyword = heads[&node];
        let Some(value) = join(&formulas) else { continue };
        let scope = in_scope(&program, program.node(node).function, keyword);
        let vars = mentioned(&scope, &value);
        // Only what mini-C reads back as C (and can evaluate) is written.
        if crate::check::invariant_holds(&program, &vars, &value, &vec![0; vars.len()]).is_err() {
            continue;
        }
        out.push(LoopInvariant { node, keyword, value });
    }
    out
}

/// The variables of `scope` that `invariant` names, in order of appearance.
pub fn mentioned(scope: &BTreeMap<VarId, String>, invariant: &str) -> Vec<(VarId, String)> {
    identifiers(invariant)
        .into_iter()
        .filter_map(|name| scope.iter().find(|(_, n)| **n == name).map(|(id, n)| (*id, n.clone())))
        .collect()
}

/// The join of the state formulas at one location as one C expression;
/// `None` when it says nothing.
fn join(formulas: &[StateFormula]) -> Option<String> {
    let live: BTreeSet<&BTreeSet<String>> = formulas
        .iter()
        .filter_map(|f| match f {
            StateFormula::Bottom => None,
            StateFormula::Conjuncts(c) => Some(c),
        })
        .collect();
    if live.is_empty() {
        return Some("0".into());
    }
    if live.iter().any(|c| c.is_empty()) {
        return None;
    }
    let conjunction = |c: &BTreeSet<String>| c.iter().cloned().collect::<Vec<_>>().join(" && ");
    if live.len() == 1 {
        return live.first().map(|c| conjunction(c));
    }
    if live.len() <= MAX_DISJUNCTS {
        return Some(live.iter().map(|c| format!("({})", conjunction(c))).collect::<Vec<_>>().join(" || "));
    }
    let mut shared = (*live.first()?).clone();
    for c in &live {
        shared.retain(|x| c.contains(x));
    }
    (!shared.is_empty()).then(|| conjunction(&shared))
}

/// The octagon's constraints as C, over the variables of `scope`: bounds
/// of one variable that say more than its type's range, and differences
/// or sums of two 32-bit-or-narrower variables (computed in `long long`,
/// where they cannot overflow).
fn octagon_constraints(program: &Program, scope: &BTreeMap<VarId, String>, o: &OctagonView) -> Vec<String> {
    let display = display_names(program);
    let labels: Vec<Option<(VarId, i64)>> = o
        .labels
        .iter()
        .map(|l| {
            let (sign, name) = match l.split_at(1) {
                ("+", n) => (1, n),
                ("-", n) => (-1, n),
                _ => return None,
            };
            display.get(name).map(|v| (*v, sign))
        })
        .collect();
    let mut out = BTreeSet::new();
    for (i, row) in o.cells.iter().enumerate() {
        for (j, cell) in row.iter().enumerate() {
            let (Some(c), Some(Some((vi, si))), Some(Some((vj, sj)))) = (cell, labels.get(i), labels.get(j)) else { continue };
            if i == j {
                continue;
            }
            // labels[j] - labels[i] <= c
            let (Some(ni), Some(nj)) = (scope.get(vi), scope.get(vj)) else { continue };
            if vi == vj {
                let ty = program.variable(*vi).ty;
                // +x - (-x) = 2x <= c, or -x - (+x) = -2x <= c.
                let text = if *sj > 0 {
                    let hi = i128::from(c.div_euclid(2));
                    (hi < ty.max_value()).then(|| format!("{nj} <= {}", crate::c_int(hi)))
                } else {
                    let lo = -i128::from(c.div_euclid(2));
                    (lo > ty.min_value()).then(|| format!("{nj} >= {}", crate::c_int(lo)))
                };
                out.extend(text);
                continue;
            }
            let narrow = |v: &VarId| program.variable(*v).ty.bits() <= 32;
            if !narrow(vi) || !narrow(vj) {
                continue;
            }
            // sj·xj + (-si)·xi <= c, its two terms in variable order (each
            // relation appears twice in a coherent DBM; one spelling is kept).
            // A bound the two types' ranges already imply says nothing.
            let max_of = |v: &VarId, sign: i64| {
                let ty = program.variable(*v).ty;
                if sign > 0 {
                    ty.max_value()
                } else {
                    -ty.min_value()
                }
            };
            if max_of(vj, *sj) + max_of(vi, -*si) <= i128::from(*c) {
                continue;
            }
            let mut terms = [(*vj, *sj, nj), (*vi, -*si, ni)];
            terms.sort();
            let [(_, s1, n1), (_, s2, n2)] = terms;
            let lead = if s1 > 0 { "" } else { "-" };
            let op = if s2 > 0 { "+" } else { "-" };
            out.insert(format!("{lead}(long long){n1} {op} (long long){n2} <= {}", crate::c_int(i128::from(*c))));
        }
    }
    out.into_iter().collect()
}

/// Octagon display names (a short name where unique, else the qualified one) to variables.
fn display_names(program: &Program) -> BTreeMap<String, VarId> {
    let mut count: BTreeMap<&str, usize> = BTreeMap::new();
    for v in &program.variables {
        *count.entry(v.name.as_str()).or_insert(0) += 1;
    }
    program
        .variables
        .iter()
        .map(|v| (if count[v.name.as_str()] == 1 { v.name.clone() } else { v.qualified.clone() }, v.id))
        .collect()
}

/// A predicate-abstraction formula (mini-C over qualified names) as C over
/// `scope`, variables cast to `long long`; `None` when it names a variable
/// out of scope or uses an operator C does not have.
fn predicate_formula(program: &Program, scope: &BTreeMap<VarId, String>, formula: &str) -> Option<String> {
    let qualified: BTreeMap<&str, VarId> = program.variables.iter().map(|v| (v.qualified.as_str(), v.id)).collect();
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| -> Option<()> {
        if word.is_empty() {
            return Some(());
        }
        let w = std::mem::take(word);
        if w.starts_with(|c: char| c.is_ascii_digit()) {
            let v: i128 = w.parse().ok()?;
            out.push_str(&crate::c_int(v));
        } else if w == "true" {
            out.push('1');
        } else if w == "false" {
            out.push('0');
        } else {
            let name = scope.get(qualified.get(w.as_str())?)?;
            out.push_str(&format!("(long long){name}"));
        }
        Some(())
    };
    for c in formula.chars() {
        if c.is_ascii_alphanumeric() || c == '_' || c == ':' || c == '#' {
            word.push(c);
        } else {
            flush(&mut word, &mut out)?;
            if !c.is_ascii() {
                return None; // `<ᵤ` and friends
            }
            out.push(c);
        }
    }
    flush(&mut word, &mut out)?;
    Some(out)
}

/// The correctness witness of a TRUE verdict on `program`: the loop
/// invariants ([`loop_invariants`] of the final reached set) as an
/// `invariant_set` (with no invariants when the analysis proves nothing
/// expressible at any loop head).
pub fn correctness_witness(program: &Program, source: &str, run: &RunInfo, invariants: &[LoopInvariant]) -> Vec<Entry> {
    let map = SourceMap::new(source);
    let content = invariants
        .iter()
        .map(|inv| {
            let p = map.position(inv.keyword);
            InvariantItem {
                invariant: Invariant {
                    kind: "loop_invariant".into(),
                    location: Location {
                        file_name: run.file_name.clone(),
                        line: p.line,
                        column: p.column,
                        function: program.function(program.node(inv.node).function).name.clone(),
                    },
                    value: inv.value.clone(),
                    format: "c_expression".into(),
                },
            }
        })
        .collect();
    vec![Entry::InvariantSet { metadata: run.metadata("invariant_set"), content }]
}
