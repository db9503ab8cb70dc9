//! ABSTRACT? and what an abstraction adds (Jonáš, Strejček, Griggio,
//! Algorithm 2): at an abstraction location l the memory m is replaced by
//! fresh memory m_A — a fresh symbolic identifier for *every* variable in
//! scope (the globals, the current activation's variables and every saved
//! frame), so nothing of m survives except what the path condition gets:
//!
//! * `eq(P, m, m_A) = ∧_{φ∈P(l)} (φ[m] ⇔ φ[m_A])` — the predicates keep
//!   their truth values;
//! * simple(P, l, m_A, h) = ∧ over every earlier abstraction point at l on
//!   the path with memory m_i of ¬eq(P(l), m_A, m_i) — the predicate
//!   valuation differs from every earlier one at l (with P(l) = ∅ this is
//!   `false`: a second abstraction at l is pruned).
//!
//! eq only constrains, so γ only grows (the abstraction over-approximates);
//! simple prunes a path that repeats an earlier valuation at l, whose
//! states the earlier abstraction already stands for (the paper's
//! Theorem 2). Earlier abstraction points are kept per location *and* call
//! stack, so activations from different call sites are never compared.

use crate::cpas::predicate::pathformula::parse_var_name;
use crate::cpas::predicate::show_predicate;
use crate::cpas::symbolic::{identifier_name, show_term, SymBindings, SymState};
use cfa::{NodeId, Program, VarId};
use minic::IntType;
use smt::{Encoding, Term, Value};
use std::collections::BTreeSet;

/// A fresh symbolic identifier for a value of `var` (named after it), its
/// type's range constraint pushed to `added` when the encoding needs one.
pub fn fresh_value(state: &mut SymState, program: &Program, var: VarId, enc: Encoding, added: &mut Vec<Term>) -> Term {
    let (name, ty) =
        program.variables.get(var.0 as usize).map(|v| (v.name.clone(), v.ty)).unwrap_or((String::new(), IntType::Int));
    state.next_id += 1;
    let t = Term::var(&identifier_name(&name, state.next_id), enc.sort(ty));
    let range = enc.range_constraint(&t, ty);
    if range.as_value() != Some(Value::Bool(true)) {
        added.push(range);
    }
    t
}

/// The program variables a predicate mentions.
pub fn predicate_vars(p: &Term) -> BTreeSet<VarId> {
    p.vars().keys().filter_map(|n| parse_var_name(n)).collect()
}

/// `φ[m]`: the predicate over the memory `m` (a variable `m` does not bind
/// stays as it is; callers bind every variable first, see
/// [`bind_unknown`]).
pub fn instantiate(p: &Term, m: &SymBindings) -> Term {
    p.substitute(&|n| parse_var_name(n).and_then(|v| m.get(&v).cloned()))
}

/// Binds every variable of `vars` that `state` leaves unknown to a fresh
/// identifier (an unknown variable may hold anything; naming its value
/// lets eq speak about it).
pub fn bind_unknown(state: &mut SymState, vars: &BTreeSet<VarId>, program: &Program, enc: Encoding, added: &mut Vec<Term>) {
    for v in vars {
        if !state.values.contains_key(v) {
            let t = fresh_value(state, program, *v, enc, added);
            state.values.insert(*v, t);
        }
    }
}

/// The variables in scope at `l`: the globals and the variables of `l`'s
/// function.
pub fn scope_vars(program: &Program, l: NodeId) -> BTreeSet<VarId> {
    let mut vars: BTreeSet<VarId> = program.variables.iter().filter(|v| v.is_global()).map(|v| v.id).collect();
    if let Some(n) = program.nodes.get(l.0 as usize) {
        vars.extend(program.frame_variables(n.function));
    }
    vars
}

/// m_A: a fresh identifier for every variable in scope at `l` and every
/// variable bound in `m` or in a saved frame.
pub fn fresh_memory(m: &SymState, program: &Program, l: NodeId, enc: Encoding, added: &mut Vec<Term>) -> SymState {
    let mut out = SymState { values: SymBindings::new(), frames: Vec::new(), next_id: m.next_id };
    let mut vars = scope_vars(program, l);
    vars.extend(m.values.keys().copied());
    for v in vars {
        let t = fresh_value(&mut out, program, v, enc, added);
        out.values.insert(v, t);
    }
    for frame in &m.frames {
        let mut f = SymBindings::new();
        for v in frame.keys() {
            let t = fresh_value(&mut out, program, *v, enc, added);
            f.insert(*v, t);
        }
        out.frames.push(f);
    }
    out
}

/// `eq(P, a, b)` as its conjuncts `φ[a] ⇔ φ[b]` (trivially true ones left out).
pub fn eq_conjuncts(predicates: &[Term], a: &SymBindings, b: &SymBindings) -> Vec<Term> {
    predicates
        .iter()
        .map(|p| Term::eq(instantiate(p, a), instantiate(p, b)))
        .filter(|t| t.as_value() != Some(Value::Bool(true)))
        .collect()
}

/// ¬eq(P, a, b) as one term: some predicate differs (`false` for P = ∅).
pub fn differs(predicates: &[Term], a: &SymBindings, b: &SymBindings) -> Term {
    Term::or(predicates.iter().map(|p| Term::not(Term::eq(instantiate(p, a), instantiate(p, b)))).collect())
}

/// One eq conjunct for people: `(x <= y) == (x₃ <= y₄)` — the predicate
/// over the program variables (the memory before), and over the fresh
/// identifiers.
pub fn show_eq(program: &Program, p: &Term, m_a: &SymBindings) -> String {
    format!("({}) == ({})", show_predicate(program, p), show_term(&instantiate(p, m_a)))
}

/// One simple conjunct for people: `!((x₅ <= y₆) == (x₂ <= y₃))`, or
/// `false` for no predicates.
pub fn show_simple(predicates: &[Term], m_a: &SymBindings, earlier: &SymBindings) -> String {
    if predicates.is_empty() {
        return "false".into();
    }
    let parts: Vec<String> = predicates
        .iter()
        .map(|p| format!("!(({}) == ({}))", show_term(&instantiate(p, m_a)), show_term(&instantiate(p, earlier))))
        .collect();
    parts.join(" || ")
}
