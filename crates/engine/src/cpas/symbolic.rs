//! The SymbolicValue CPA (CPAchecker's value analysis with symbolic values,
//! as in *Symbolic Execution with CEGAR* / the CPA-based symbolic
//! execution paper): each state maps program variables to integer
//! constants or to **symbolic expressions** over *symbolic identifiers*,
//! each named after where its value came from: `n₁` is the value
//! `__VERIFIER_nondet_int()` gave `n`, `x₂` the value an uninitialized `x`
//! held when first read, `f_result₃` an unknown return value of `f`; the
//! subscript is the identifier's number along the path (in SMT-LIB the
//! names are `n!1`, `x!2`, `f_result!3`; see [`identifier_name`]).
//!
//! * A fresh identifier stands for every nondeterministic value
//!   (`__VERIFIER_nondet_int()`, a call to an undefined function) and for
//!   the first read of a variable that holds no value yet (an
//!   uninitialized local); a variable absent from the map is unknown.
//! * Transfer: right-hand sides are encoded with [`smt::encode_expr`] over
//!   the current values (so the state holds terms of the run's theory,
//!   `solver.theory`), constants fold; an assume edge whose condition folds
//!   to false has no successor, and an assumed equality `α = c` makes `α`'s
//!   value explicit (`α := c` everywhere). Path constraints are not kept
//!   here but by the Constraints CPA, which strengthens with this state.
//! * Order ⊑ **up to alias renaming** (the paper's alias condition):
//!   `e ⊑ e'` iff there is a bijective renaming ρ of the identifiers of `e'`
//!   with `ρ(e'(x)) = e(x)` for every variable `x` that `e'` binds
//!   (variables `e'` leaves unknown may hold anything). Identifiers are
//!   existentially quantified, so renaming them does not change the
//!   concrete states a state stands for — syntactic equality would fail to
//!   cover states that differ only in the numbering of their identifiers.
//! * Merge: merge^sep; stop: stop^sep (with ⊑ above).
//! * Calls save the callee's variables of the caller's activation in a
//!   frame and returns restore them, as the Value CPA does.

use crate::cpa::{AbstractDomain, Cpa, MergeOperator, MergeSep, StopOperator, StopSep, TransferError, TransferRelation};
use crate::state_view::{ComponentView, SymbolicBinding, ViewContent};
use cfa::{Edge, EdgeKind, Expr, NodeId, Program, Rhs, VarId};
use minic::{IntModel, IntType};
use smt::{encode_cast, encode_condition, encode_expr, EncodeEnv, Encoding, Node, Term, Theory, Value};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Symbolic values of variables; absent = unknown (any value).
pub type SymBindings = BTreeMap<VarId, Term>;

/// A SymbolicValue state: the symbolic memory, the saved frames of active
/// calls, and the counter that names the next fresh identifier.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SymState {
    /// Variable → constant or symbolic expression.
    pub values: SymBindings,
    /// For each active call, the callee's variables as they were in the
    /// caller's context (restored on return).
    pub frames: Vec<SymBindings>,
    /// The number of the last fresh identifier (the next is named
    /// `{origin}!{next_id + 1}`). Not part of ⊑ (identifiers are compared
    /// up to renaming).
    pub next_id: u32,
}

/// The SMT-LIB name of the `k`-th symbolic identifier of a path, whose
/// value came from `origin` (a program variable's name, or `f_result` for
/// an unknown return value of `f`): `{origin}!{k}`, e.g. `n!1`. Only
/// ASCII letters, digits and `_` of the origin are kept, so the name is a
/// simple SMT-LIB symbol; the `!` keeps it apart from the encoder's
/// program variables (`v3`, `v3@2`), which never contain one.
pub fn identifier_name(origin: &str, k: u32) -> String {
    // The front end's temporaries (`__tmp0`, `__retval`) lose their
    // leading underscores.
    let mut base: String = origin.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    base = base.trim_start_matches('_').to_string();
    if base.is_empty() || base.starts_with(|c: char| c.is_ascii_digit()) {
        base.insert_str(0, "val");
    }
    format!("{base}!{k}")
}

/// Whether a variable name is a symbolic identifier (`{origin}!{k}`).
pub fn is_identifier(name: &str) -> bool {
    name.rsplit_once('!').is_some_and(|(base, k)| !base.is_empty() && !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()))
}

/// The symbolic memory of `state` as the page and the CLI show it: one
/// binding per variable, its term printed as mini-C, and the integer it is
/// when the term is a constant (a bit-vector constant of an unsigned type
/// reads unsigned).
pub fn symbolic_bindings(program: &Program, state: &SymState) -> Vec<SymbolicBinding> {
    state
        .values
        .iter()
        .map(|(var, t)| {
            let variable = program.variables.get(var.0 as usize);
            SymbolicBinding {
                var: *var,
                name: variable.map(|v| v.qualified.clone()).unwrap_or_else(|| format!("v{}", var.0)),
                value: show_term(t),
                constant: t.as_signed().map(|c| match t.as_value() {
                    Some(Value::Bv { value, .. }) if !variable.map(|v| v.ty).unwrap_or(IntType::Int).is_signed() => value as i128,
                    _ => c,
                }),
            }
        })
        .collect()
}

/// A term for people: identifiers `n!1` written `n₁`.
pub fn show_term(t: &Term) -> String {
    subscript_identifiers(&t.pretty())
}

/// Rewrites every `{name}!{digits}` (an identifier: the `!` directly after
/// a name character) to `{name}` followed by the digits as subscripts;
/// `!=` and a negation `!x` are left alone.
fn subscript_identifiers(text: &str) -> String {
    const SUB: [char; 10] = ['₀', '₁', '₂', '₃', '₄', '₅', '₆', '₇', '₈', '₉'];
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let after_name = i > 0 && (chars[i - 1].is_ascii_alphanumeric() || chars[i - 1] == '_');
        if c == '!' && after_name && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit()) {
            i += 1;
            while let Some(d) = chars.get(i).and_then(|d| d.to_digit(10)) {
                out.push(SUB[d as usize]);
                i += 1;
            }
            continue;
        }
        out.push(c);
        i += 1;
    }
    out
}

impl SymState {
    /// The value of `var`, if bound.
    pub fn get(&self, var: VarId) -> Option<&Term> {
        self.values.get(&var)
    }

    /// Every term of the state (values and frames).
    pub fn terms(&self) -> impl Iterator<Item = &Term> {
        self.values.values().chain(self.frames.iter().flat_map(|f| f.values()))
    }
}

/// What one SymbolicValue transfer adds for the Constraints CPA: the new
/// path constraints (range constraints of fresh identifiers where the
/// theory needs them, the assumed condition) and the identifiers that got
/// an explicit value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StepInfo {
    /// New constraints (Boolean terms), before `definite` is applied.
    pub added: Vec<Term>,
    /// Identifiers made explicit by an assumed equality: `(name, value)`.
    pub definite: Vec<(Arc<str>, Term)>,
}

/// The symbolic semantics of CFA edges — shared by the SymbolicValue CPA
/// (its transfer) and the Constraints CPA (its strengthening recomputes the
/// step from the predecessor's memory to learn what the edge assumed).
#[derive(Clone, Debug)]
pub struct SymbolicSemantics {
    /// The program.
    pub program: Arc<Program>,
    /// Theory and integer model.
    pub encoding: Encoding,
}

/// Terms larger than this are replaced by a fresh identifier (forgetting is
/// sound and keeps loops from building ever larger expressions).
const MAX_TERM_SIZE: usize = 200;

struct Env<'a> {
    state: &'a mut SymState,
    enc: Encoding,
    program: &'a Program,
    added: &'a mut Vec<Term>,
}

impl Env<'_> {
    /// A fresh identifier for a value that came from `origin` (see
    /// [`identifier_name`]), with its type's range constraint.
    fn new_identifier(&mut self, origin: &str, ty: IntType) -> Term {
        self.state.next_id += 1;
        let t = Term::var(&identifier_name(origin, self.state.next_id), self.enc.sort(ty));
        let range = self.enc.range_constraint(&t, ty);
        if range.as_value() != Some(Value::Bool(true)) {
            self.added.push(range);
        }
        t
    }
}

impl EncodeEnv for Env<'_> {
    fn var(&mut self, var: VarId, ty: IntType) -> Term {
        if let Some(t) = self.state.values.get(&var) {
            return t.clone();
        }
        // First read of an unknown variable: a fresh identifier, bound.
        let vty = self.program.variables.get(var.0 as usize).map(|v| v.ty).unwrap_or(ty);
        let name = self.program.variables.get(var.0 as usize).map(|v| v.name.clone()).unwrap_or_default();
        let t = self.new_identifier(&name, vty);
        self.state.values.insert(var, t.clone());
        if vty != ty {
            return encode_cast(t, vty, ty, self.enc);
        }
        t
    }
    fn fresh(&mut self, ty: IntType, _why: &str) -> Term {
        // A value C leaves undefined (division by zero, an out-of-range
        // shift) or the theory cannot express.
        self.new_identifier("undef", ty)
    }
}

/// If `c` is `α = k` (or `k = α`) for an identifier `α` and a constant `k`,
/// returns them.
pub fn definite_equality(c: &Term) -> Option<(Arc<str>, Term)> {
    if let Node::App { op: smt::Op::Eq, args } = c.node() {
        for (a, b) in [(&args[0], &args[1]), (&args[1], &args[0])] {
            if let (Node::Var { name, .. }, true) = (a.node(), b.is_const()) {
                if is_identifier(name) {
                    return Some((name.clone(), b.clone()));
                }
            }
        }
    }
    None
}

/// Substitutes identifiers by their explicit values in a term.
pub fn apply_definite(t: &Term, definite: &[(Arc<str>, Term)]) -> Term {
    if definite.is_empty() {
        return t.clone();
    }
    t.substitute(&|n| definite.iter().find(|(m, _)| &**m == n).map(|(_, v)| v.clone()))
}

impl SymbolicSemantics {
    /// The semantics for `program` under `encoding`.
    pub fn new(program: Arc<Program>, encoding: Encoding) -> Self {
        SymbolicSemantics { program, encoding }
    }

    fn var_type(&self, var: VarId) -> IntType {
        self.program.variables.get(var.0 as usize).map(|v| v.ty).unwrap_or(IntType::Int)
    }

    fn var_name(&self, var: VarId) -> String {
        self.program.variables.get(var.0 as usize).map(|v| v.name.clone()).unwrap_or_default()
    }

    /// The value of `e` as a term of type `target`; a term too large is
    /// forgotten (a fresh identifier named after `origin`, the variable it
    /// is stored in).
    fn value(&self, env: &mut Env<'_>, e: &Expr, target: IntType, origin: &str) -> Term {
        let t = encode_expr(e, self.encoding, env);
        let t = if e.ty() != target { encode_cast(t, e.ty(), target, self.encoding) } else { t };
        if t.size() > MAX_TERM_SIZE {
            return env.new_identifier(origin, target);
        }
        t
    }

    fn rhs(&self, env: &mut Env<'_>, rhs: &Rhs, target: IntType, origin: &str) -> Term {
        match rhs {
            Rhs::Expr(e) => self.value(env, e, target, origin),
            // A read of memory or a new object: a fresh symbolic value.
            Rhs::Nondet(_) | Rhs::Load { .. } | Rhs::Alloc { .. } => {
                let ty = rhs.havoc_type().unwrap_or(target);
                let t = env.new_identifier(origin, ty);
                if ty != target {
                    encode_cast(t, ty, target, self.encoding)
                } else {
                    t
                }
            }
        }
    }

    /// The successor of `state` along `edge` and what the step assumed;
    /// `None` when the edge's condition is false in `state`.
    pub fn step(&self, state: &SymState, edge: &Edge) -> Option<(SymState, StepInfo)> {
        let mut next = state.clone();
        let mut added = Vec::new();
        let mut definite = Vec::new();
        {
            let mut env = Env { state: &mut next, enc: self.encoding, program: &self.program, added: &mut added };
            match &edge.kind {
                // Memory is not a variable: a store or `free` changes none.
                EdgeKind::Blank | EdgeKind::Terminate | EdgeKind::ReachError | EdgeKind::Store { .. } | EdgeKind::Free { .. } => {
                }
                EdgeKind::Declare { var, init: None } => {
                    // Uninitialized: unknown until read.
                    env.state.values.remove(var);
                }
                EdgeKind::Declare { var, init: Some(rhs) } | EdgeKind::Assign { var, rhs } => {
                    let t = self.rhs(&mut env, rhs, self.var_type(*var), &self.var_name(*var));
                    env.state.values.insert(*var, t);
                }
                EdgeKind::Assume { cond, positive } => {
                    let c = encode_condition(cond, self.encoding, &mut env);
                    let c = if *positive { c } else { Term::not(c) };
                    match c.as_value() {
                        Some(Value::Bool(false)) => return None,
                        Some(_) => {}
                        None => {
                            if let Some(d) = definite_equality(&c) {
                                definite.push(d);
                            }
                            env.added.push(c);
                        }
                    }
                }
                EdgeKind::Call { callee, args, .. } => {
                    let params = self.program.functions.get(callee.0 as usize).map(|f| f.params.clone()).unwrap_or_default();
                    let arg_values: Vec<Term> = params
                        .iter()
                        .zip(args)
                        .map(|(p, a)| self.value(&mut env, a, self.var_type(*p), &self.var_name(*p)))
                        .collect();
                    let vars = self.program.frame_variables(*callee);
                    let saved: SymBindings =
                        vars.iter().filter_map(|v| env.state.values.get(v).map(|t| (*v, t.clone()))).collect();
                    for v in &vars {
                        env.state.values.remove(v);
                    }
                    env.state.frames.push(saved);
                    for (p, t) in params.iter().zip(arg_values) {
                        env.state.values.insert(*p, t);
                    }
                }
                EdgeKind::Return { callee, result, .. } => {
                    let ret = self.program.functions.get(callee.0 as usize).and_then(|f| f.ret);
                    let value = match (ret, result) {
                        (Some(r), Some(_)) => {
                            let ty = self.var_type(r);
                            Some(match env.state.values.get(&r) {
                                Some(t) => t.clone(),
                                None => {
                                    let callee_name =
                                        self.program.functions.get(callee.0 as usize).map(|f| f.name.as_str()).unwrap_or("call");
                                    env.new_identifier(&format!("{callee_name}_result"), ty)
                                }
                            })
                        }
                        _ => None,
                    };
                    for v in self.program.frame_variables(*callee) {
                        env.state.values.remove(&v);
                    }
                    if let Some(saved) = env.state.frames.pop() {
                        env.state.values.extend(saved);
                    }
                    if let (Some(res), Some(t), Some(r)) = (result, value, ret) {
                        let (from, to) = (self.var_type(r), self.var_type(*res));
                        let t = if from != to { encode_cast(t, from, to, self.encoding) } else { t };
                        env.state.values.insert(*res, t);
                    }
                }
                EdgeKind::ReturnStatement { value } => {
                    let slot = self.program.return_slot_at(edge.source);
                    if let Some(slot) = slot {
                        match value {
                            Some(e) => {
                                let t = self.value(&mut env, e, self.var_type(slot), &self.var_name(slot));
                                env.state.values.insert(slot, t);
                            }
                            None => {
                                env.state.values.remove(&slot);
                            }
                        }
                    }
                }
            }
        }
        if !definite.is_empty() {
            for t in next.values.values_mut() {
                *t = apply_definite(t, &definite);
            }
            for f in &mut next.frames {
                for t in f.values_mut() {
                    *t = apply_definite(t, &definite);
                }
            }
        }
        Some((next, StepInfo { added, definite }))
    }
}

// ---------------------------------------------------------------------------
// Alias renaming
// ---------------------------------------------------------------------------

/// A partial bijection between the identifiers of a covered state `e`
/// (`to`) and those of a covering state `e'` (`from`): `ρ: ids(e') → ids(e)`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Renaming {
    forward: BTreeMap<Arc<str>, Arc<str>>,
    backward: BTreeMap<Arc<str>, Arc<str>>,
}

impl Renaming {
    /// The empty renaming.
    pub fn new() -> Self {
        Renaming::default()
    }

    /// ρ(name), if mapped.
    pub fn get(&self, name: &str) -> Option<&Arc<str>> {
        self.forward.get(name)
    }

    fn bind(&mut self, from: &Arc<str>, to: &Arc<str>) -> bool {
        match (self.forward.get(from), self.backward.get(to)) {
            (Some(t), _) => t == to,
            (None, Some(_)) => false,
            (None, None) => {
                self.forward.insert(from.clone(), to.clone());
                self.backward.insert(to.clone(), from.clone());
                true
            }
        }
    }

    /// Extends ρ so that `ρ(general) = specific` structurally (identifiers
    /// map bijectively, everything else must be equal). On failure ρ may be
    /// partially extended: callers clone before trying alternatives.
    pub fn unify(&mut self, general: &Term, specific: &Term) -> bool {
        match (general.node(), specific.node()) {
            (Node::Var { name: a, sort: sa }, Node::Var { name: b, sort: sb }) => {
                if is_identifier(a) && is_identifier(b) {
                    sa == sb && self.bind(a, b)
                } else {
                    a == b && sa == sb
                }
            }
            (Node::App { op: oa, args: aa }, Node::App { op: ob, args: ab }) => {
                oa == ob && aa.len() == ab.len() && aa.iter().zip(ab).all(|(x, y)| self.unify(x, y))
            }
            (x, y) => x == y,
        }
    }
}

/// Extends ρ so that every binding of `general` (e') is matched in
/// `specific` (e): `ρ(e'(x)) = e(x)`. False when some variable of `e'` is
/// unknown in `e` or the terms do not match.
pub fn match_bindings(rho: &mut Renaming, general: &SymBindings, specific: &SymBindings) -> bool {
    general.iter().all(|(v, t)| specific.get(v).is_some_and(|s| rho.unify(t, s)))
}

/// `specific ⊑ general` up to alias renaming (see the module docs),
/// extending `rho`: the memory and the frames (same number of frames).
pub fn match_states(rho: &mut Renaming, general: &SymState, specific: &SymState) -> bool {
    general.frames.len() == specific.frames.len()
        && match_bindings(rho, &general.values, &specific.values)
        && general.frames.iter().zip(&specific.frames).all(|(g, s)| match_bindings(rho, g, s))
}

/// The domain of symbolic memories, ordered up to alias renaming.
#[derive(Clone, Copy, Debug, Default)]
pub struct SymbolicDomain;

impl AbstractDomain for SymbolicDomain {
    type State = SymState;
    /// `a ⊑ b` iff a bijective renaming ρ of `b`'s identifiers maps every
    /// binding of `b` to the same variable's binding in `a`.
    fn is_less_or_equal(&self, a: &SymState, b: &SymState) -> bool {
        match_states(&mut Renaming::new(), b, a)
    }
    /// Keeps the bindings that are syntactically equal in both (a sound
    /// upper bound; merge^sep never calls it).
    fn join(&self, a: &SymState, b: &SymState) -> SymState {
        let keep = |x: &SymBindings, y: &SymBindings| -> SymBindings {
            x.iter().filter(|(k, v)| y.get(k) == Some(v)).map(|(k, v)| (*k, v.clone())).collect()
        };
        let frames = if a.frames.len() == b.frames.len() {
            a.frames.iter().zip(&b.frames).map(|(x, y)| keep(x, y)).collect()
        } else {
            Vec::new()
        };
        SymState { values: keep(&a.values, &b.values), frames, next_id: a.next_id.max(b.next_id) }
    }
}

/// The SymbolicValue CPA.
pub struct SymbolicValueCpa {
    semantics: SymbolicSemantics,
    merge: MergeSep,
    stop: StopSep<SymbolicDomain>,
}

impl SymbolicValueCpa {
    /// The CPA for `program` under `encoding` (theory and integer model).
    pub fn new(program: Arc<Program>, encoding: Encoding) -> Self {
        SymbolicValueCpa { semantics: SymbolicSemantics::new(program, encoding), merge: MergeSep, stop: StopSep(SymbolicDomain) }
    }

    /// The edge semantics this CPA uses.
    pub fn semantics(&self) -> &SymbolicSemantics {
        &self.semantics
    }
}

/// `solver.theory` resolved against the integer model (`AUTO`: the sound one).
pub fn resolve_theory(setting: &str, model: IntModel) -> Theory {
    match setting {
        "INTEGER" => Theory::Integer,
        "BITVECTOR" => Theory::Bitvector,
        _ => Theory::sound_for(model),
    }
}

impl TransferRelation for SymbolicValueCpa {
    type State = SymState;
    type Precision = ();
    fn successors(&self, state: &SymState, edge: &Edge, _p: &()) -> Result<Vec<SymState>, TransferError> {
        Ok(self.semantics.step(state, edge).map(|(s, _)| s).into_iter().collect())
    }
}

/// A structural hash that ignores identifier names (so states equal up to
/// renaming hash alike).
fn skeleton_hash(t: &Term, h: &mut impl std::hash::Hasher) {
    use std::hash::Hash;
    match t.node() {
        Node::Var { name, sort } if is_identifier(name) => {
            0u8.hash(h);
            sort.hash(h);
        }
        Node::App { op, args } => {
            1u8.hash(h);
            op.hash(h);
            for a in args {
                skeleton_hash(a, h);
            }
        }
        other => {
            2u8.hash(h);
            other.hash(h);
        }
    }
}

impl Cpa for SymbolicValueCpa {
    type State = SymState;
    type Precision = ();
    fn name(&self) -> &'static str {
        "SymbolicValueCPA"
    }
    fn domain(&self) -> &dyn AbstractDomain<State = SymState> {
        &SymbolicDomain
    }
    fn transfer_relation(&self) -> &dyn TransferRelation<State = SymState, Precision = ()> {
        self
    }
    fn merge_operator(&self) -> &dyn MergeOperator<SymState, ()> {
        &self.merge
    }
    fn stop_operator(&self) -> &dyn StopOperator<SymState, ()> {
        &self.stop
    }
    fn initial_state(&self, _entry: NodeId) -> SymState {
        SymState::default()
    }
    fn initial_precision(&self, _entry: NodeId) {}
    /// A variable bound to an integer constant is exact; a symbolic one is ⊤
    /// (its range is what the constraints say, which this CPA does not
    /// bound).
    fn var_range(&self, state: &SymState, var: VarId) -> crate::int_caveat::Range {
        match state.values.get(&var).and_then(|t| t.as_value()) {
            Some(smt::Value::Int(i)) => crate::int_caveat::Range::exact(i),
            _ => crate::int_caveat::Range::TOP,
        }
    }
    fn view(&self, state: &SymState) -> ComponentView {
        let values = symbolic_bindings(&self.semantics.program, state);
        ComponentView { cpa: "SymbolicValueCPA".into(), content: ViewContent::SymbolicValues { values } }
    }
    /// The bound variables (sorted): `e ⊑ e'` needs `dom(e') ⊆ dom(e)`.
    fn index_shape(&self, state: &SymState) -> Vec<u32> {
        let mut s: Vec<u32> = state.values.keys().map(|v| v.0).collect();
        s.push(u32::MAX - state.frames.len() as u32);
        s
    }
    fn index_may_cover(&self, covered: &[u32], covering: &[u32]) -> bool {
        let (Some((fa, a)), Some((fb, b))) = (covered.split_last(), covering.split_last()) else { return true };
        if fa != fb {
            return false;
        }
        let mut it = a.iter();
        b.iter().all(|v| it.any(|w| w == v))
    }
    /// The renaming-invariant skeletons of the bindings of `shape`'s variables.
    fn index_hash(&self, state: &SymState, shape: &[u32]) -> u64 {
        use std::hash::{Hash, Hasher};
        #[allow(deprecated)]
        let mut h = std::hash::SipHasher::new();
        for v in shape.split_last().map(|(_, a)| a).unwrap_or(&[]) {
            v.hash(&mut h);
            match state.values.get(&VarId(*v)) {
                Some(t) => skeleton_hash(t, &mut h),
                None => 3u8.hash(&mut h),
            }
        }
        h.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_are_named_after_their_origin_and_shown_with_subscripts() {
        assert_eq!(identifier_name("n", 1), "n!1");
        assert_eq!(identifier_name("__tmp0", 12), "tmp0!12");
        assert_eq!(identifier_name("main::x", 3), "mainx!3");
        assert_eq!(identifier_name("", 2), "val!2");
        assert_eq!(identifier_name("9lives", 2), "val9lives!2");
        for name in ["n!1", "tmp0!12", "f_result!3", "a!7"] {
            assert!(is_identifier(name), "{name}");
        }
        // The encoder's program variables, SSA names and inputs are not identifiers.
        for name in ["v3", "v3@2", "approx_1", "in_0", "fresh1", "n!", "!3", "n!1x"] {
            assert!(!is_identifier(name), "{name}");
        }
        assert_eq!(subscript_identifiers("n!1 + x!23 != 3"), "n₁ + x₂₃ != 3");
        assert_eq!(subscript_identifiers("!(n!1 == 0) && !b"), "!(n₁ == 0) && !b");
        let t = Term::add(Term::var("n!1", smt::Sort::Int), Term::int(2));
        assert!(show_term(&t).contains("n₁"), "{}", show_term(&t));
    }
}
