//! The Constraints CPA (CPAchecker's `cpa.constraints.ConstraintsCPA`): the
//! set of path constraints — Boolean terms over symbolic identifiers — that
//! the path to a state assumed. Together with the SymbolicValue CPA it is
//! symbolic execution as a composite CPA:
//! Location × Callstack × SymbolicValue × Constraints.
//!
//! * Its own transfer changes nothing; the work is in **strengthening**
//!   with the SymbolicValue state: the edge's condition is encoded with
//!   the program variables replaced by their symbolic values, added to the
//!   set, and identifiers that an assumed equality fixes (`α = 5`) are
//!   replaced by their explicit value everywhere.
//! * A successor whose set changed is checked for satisfiability by the
//!   SMT solver (only the constraints connected to the new ones through
//!   shared identifiers are asked — the rest was satisfiable before — and
//!   at most [`MAX_QUERY_CONSTRAINTS`] of them: the oldest and the newest); an
//!   `unsat` successor is dropped (the edge is infeasible). The question
//!   goes through the run's [`SolverOracle`], so in the page the algorithm
//!   parks until `z3-solver` answers (see [`crate::solver`]); `unknown`
//!   keeps the successor (sound). A query over a single input (bit-vector
//!   or integer) is decided exactly without the solver first ([`smt::univariate`]),
//!   natively and in the page, unless `cpa.constraints.decideOneInput =
//!   false` (or [`crate::cegar::Verifier::send_every_query`]) sends every
//!   query to the solver.
//! * Constraints over identifiers that no variable can reach any more are
//!   dropped (they were satisfiable and are independent of the rest), so
//!   states that differ only in dead history can cover each other.
//! * The state also keeps the symbolic memory it was computed with (a copy
//!   of the SymbolicValue part), which makes ⊑ **joint**: `e ⊑ e'` iff one
//!   bijective renaming ρ of `e'`'s identifiers maps `e'`'s memory into
//!   `e`'s (as the SymbolicValue CPA's ⊑) *and* every constraint of `e'`
//!   into a constraint of `e` (`ρ(C') ⊆ C`, fewer constraints = more
//!   states). Checking the two components with separate renamings would be
//!   unsound.
//! * Merge: merge^sep; stop: stop^sep.

use crate::cpa::{AbstractDomain, Cpa, MergeOperator, MergeSep, StopOperator, StopSep, TransferError, TransferRelation};
use crate::cpas::symbolic::{apply_definite, is_identifier, match_states, show_term, Renaming, SymState, SymbolicSemantics};
use crate::solver::{Ask, SolverOracle};
use crate::state_view::{ComponentView, ViewContent};
use cfa::{Edge, NodeId, Program};
use rustc_hash::{FxHashMap, FxHashSet};
use smt::univariate::Decision;
use smt::{Encoding, Query, Status, Term, Value};
use std::any::Any;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::sync::Arc;

/// A Constraints state: the path constraints (in the order they were
/// assumed) and the symbolic memory they belong to.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ConstraintsState {
    /// The conjunction of path constraints (no duplicates).
    pub constraints: Vec<Term>,
    /// The SymbolicValue state these constraints were computed with.
    pub memory: Arc<SymState>,
    /// The last model the solver gave on this path (identifier → value): a
    /// hint only — when it satisfies the constraints of a successor, that
    /// successor is known satisfiable without a query (a sat answer never
    /// prunes, so a hint can cost precision, never soundness). Not part of ⊑.
    pub model: Option<Arc<BTreeMap<String, Value>>>,
    /// What the strengthening already knows about each constraint,
    /// carried along the path (a cache; see [`ConstraintFacts`]).
    pub facts: ConstraintFacts,
}

/// The symbolic identifiers of one constraint, each once, shared.
pub type Idents = Arc<[Arc<str>]>;

/// Per constraint of a [`ConstraintsState`] (same order): its symbolic
/// identifiers, computed once when the constraint entered the set, and
/// whether it is known to evaluate to true under the state's `model`. So
/// the strengthening does not walk and evaluate every term of the path
/// again at every step (on a long unrolled loop that was most of the
/// engine's time). Empty when not known (a state built by hand): then
/// they are computed. Derived from the constraints and the model, so it
/// takes no part in equality or hashing of states.
#[derive(Clone, Debug, Default)]
pub struct ConstraintFacts {
    /// The symbolic identifiers of each constraint.
    pub idents: Vec<Idents>,
    /// Whether each constraint is known true under the state's model.
    pub holds: Vec<bool>,
}

impl ConstraintsState {
    /// Takes `model` as the path's model: what was known to hold under the
    /// old one ([`ConstraintFacts::holds`]) is not known under it.
    fn replace_model(&mut self, model: BTreeMap<String, Value>) {
        self.facts.holds.iter_mut().for_each(|h| *h = false);
        self.model = Some(Arc::new(model));
    }
}

impl PartialEq for ConstraintFacts {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for ConstraintFacts {}

impl std::hash::Hash for ConstraintFacts {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

/// The Constraints domain: sets of constraints with the joint alias order.
#[derive(Clone, Copy, Debug, Default)]
pub struct ConstraintsDomain;

/// `specific ⊑ general` with one renaming for memory and constraints (see
/// the module docs). The constraint matching is greedy (first match), so
/// it may miss a renaming that exists — never claims one that does not.
pub fn constraints_leq(specific: &ConstraintsState, general: &ConstraintsState) -> bool {
    if general.constraints.len() > specific.constraints.len() {
        return false;
    }
    let mut rho = Renaming::new();
    if !match_states(&mut rho, &general.memory, &specific.memory) {
        return false;
    }
    'outer: for g in &general.constraints {
        for s in &specific.constraints {
            let mut trial = rho.clone();
            if trial.unify(g, s) {
                rho = trial;
                continue 'outer;
            }
        }
        return false;
    }
    true
}

impl AbstractDomain for ConstraintsDomain {
    type State = ConstraintsState;
    fn is_less_or_equal(&self, a: &ConstraintsState, b: &ConstraintsState) -> bool {
        constraints_leq(a, b)
    }
    /// The constraints both share syntactically (a sound upper bound; the
    /// memory of `a`). merge^sep never calls it.
    fn join(&self, a: &ConstraintsState, b: &ConstraintsState) -> ConstraintsState {
        ConstraintsState {
            constraints: a.constraints.iter().filter(|c| b.constraints.contains(c)).cloned().collect(),
            memory: a.memory.clone(),
            model: None,
            facts: ConstraintFacts::default(),
        }
    }
}

/// The Constraints CPA.
pub struct ConstraintsCpa {
    semantics: SymbolicSemantics,
    oracle: Arc<SolverOracle>,
    merge: MergeSep,
    stop: StopSep<ConstraintsDomain>,
    /// Decide queries over one input in the engine
    /// (`cpa.constraints.decideOneInput`).
    decide_one_input: bool,
}

impl ConstraintsCpa {
    /// The CPA for `program` under `encoding`, asking `oracle`.
    pub fn new(program: Arc<Program>, encoding: Encoding, oracle: Arc<SolverOracle>) -> Self {
        if let Some(note) = encoding.theory.caveat(encoding.model) {
            oracle.add_note(note);
        }
        ConstraintsCpa {
            semantics: SymbolicSemantics::new(program, encoding),
            oracle,
            merge: MergeSep,
            stop: StopSep(ConstraintsDomain),
            decide_one_input: true,
        }
    }

    /// Whether a query whose constraints all have one free input (bit-vector
    /// or integer) is decided exactly in the engine ([`smt::univariate`]) before the
    /// solver is asked (`true`, the default; `cpa.constraints.decideOneInput`).
    pub fn deciding_one_input(mut self, decide: bool) -> Self {
        self.decide_one_input = decide;
        self
    }

    /// The satisfiability query for a set of constraints (what the trace
    /// and the corpus record).
    pub fn query(constraints: &[Term]) -> Query {
        Query::new(constraints.to_vec())
    }
}

/// The satisfiability query of *all* path constraints of a composite
/// state (its Constraints part), not the window the per-step queries ask
/// about: `unsat` proves the state empty (no execution reaches it). `None`
/// when the composite has no Constraints CPA.
pub fn full_query(state: &crate::cpas::composite::CompositeState) -> Option<Query> {
    let part = state.parts.iter().find_map(|p| p.as_any().downcast_ref::<ConstraintsState>())?;
    Some(ConstraintsCpa::query(&part.constraints))
}

/// The most constraints one satisfiability query asks about, up to
/// `WINDOW_STEP - 1` more (see `strengthen`): long loops unrolled symbolically would otherwise ask
/// ever larger queries, each costing more than the last.
pub const MAX_QUERY_CONSTRAINTS: usize = 16;

/// How far the window of newest constraints moves at once (see
/// `strengthen`): a query asks at most `MAX_QUERY_CONSTRAINTS +
/// WINDOW_STEP - 1` constraints.
const WINDOW_STEP: usize = 8;

/// The symbolic identifiers of `t`, each once, in order of first occurrence.
fn idents(t: &Term) -> Vec<Arc<str>> {
    fn walk(t: &Term, out: &mut Vec<Arc<str>>) {
        match t.node() {
            smt::Node::Var { name, .. } if is_identifier(name) && !out.contains(name) => out.push(name.clone()),
            smt::Node::App { args, .. } => args.iter().for_each(|a| walk(a, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(t, &mut out);
    out
}

/// An index from identifier to the constraints that mention it, built
/// once per step: `ids[i]` are the identifiers of constraint `i`. Walking
/// it is linear in the constraints' identifiers (a fixed point over all
/// constraints per round was quadratic on long unrolled loops). Hashed
/// with FxHash: these short-lived maps of short names were a tenth of a
/// long loop's time with the standard SipHash. The SymExec CPA slices its
/// path condition with it too.
pub(crate) struct Links<'a> {
    ids: &'a [Idents],
    by_ident: FxHashMap<&'a str, Vec<usize>>,
}

impl<'a> Links<'a> {
    /// The index of the constraints whose identifiers are `ids`.
    pub(crate) fn new(ids: &'a [Idents]) -> Self {
        let mut by_ident: FxHashMap<&str, Vec<usize>> = FxHashMap::default();
        for (i, s) in ids.iter().enumerate() {
            for n in s.iter() {
                by_ident.entry(&**n).or_default().push(i);
            }
        }
        Links { ids, by_ident }
    }

    /// Which constraints are connected (through shared identifiers) to
    /// the identifiers `seeds`.
    pub(crate) fn connected<'s>(&self, seeds: impl IntoIterator<Item = &'s Arc<str>>) -> Vec<bool> {
        let mut keep = vec![false; self.ids.len()];
        let mut seen: FxHashSet<&str> = FxHashSet::default();
        let mut todo: Vec<&str> = seeds.into_iter().filter_map(|n| self.by_ident.get_key_value(&**n).map(|(k, _)| *k)).collect();
        while let Some(n) = todo.pop() {
            if !seen.insert(n) {
                continue;
            }
            for &i in self.by_ident.get(n).map(Vec::as_slice).unwrap_or(&[]) {
                if !keep[i] {
                    keep[i] = true;
                    todo.extend(self.ids[i].iter().map(|m| &**m).filter(|m| !seen.contains(m)));
                }
            }
        }
        keep
    }
}

impl TransferRelation for ConstraintsCpa {
    type State = ConstraintsState;
    type Precision = ();

    fn successors(&self, state: &ConstraintsState, _edge: &Edge, _p: &()) -> Result<Vec<ConstraintsState>, TransferError> {
        Ok(vec![state.clone()])
    }

    fn strengthen(&self, state: &ConstraintsState, others: &[&dyn Any], edge: &Edge, _p: &()) -> Option<ConstraintsState> {
        let Some(memory) = others.iter().find_map(|o| o.downcast_ref::<SymState>()) else {
            // No SymbolicValue CPA in the composite: nothing to constrain.
            return Some(state.clone());
        };
        // What the SymbolicValue step along `edge` assumed (recomputed from
        // the predecessor's memory, which this state kept).
        let (_, info) = self.semantics.step(&state.memory, edge)?;
        // Hash sets, not `Vec::contains`: a loop unrolled symbolically
        // keeps thousands of constraints, and a linear search per
        // constraint made every step quadratic in them (the whole run cubic).
        let mut constraints: Vec<Term> = Vec::with_capacity(state.constraints.len() + info.added.len());
        let mut seen: HashSet<Term> = HashSet::new();
        let mut new_ids: BTreeSet<Arc<str>> = BTreeSet::new();
        let old: HashSet<&Term> = if info.definite.is_empty() { HashSet::new() } else { state.constraints.iter().collect() };
        // The old constraints' identifiers as the state keeps them, unless
        // definite values rewrote the constraints (or the state has none).
        let cached = info.definite.is_empty()
            && state.facts.idents.len() == state.constraints.len()
            && state.facts.holds.len() == state.constraints.len();
        let mut ids: Vec<Idents> = Vec::with_capacity(state.constraints.len() + info.added.len());
        let mut holds: Vec<bool> = Vec::with_capacity(state.constraints.len() + info.added.len());
        for (i, c) in state.constraints.iter().chain(info.added.iter()).enumerate() {
            let c2 = apply_definite(c, &info.definite);
            match c2.as_value() {
                Some(Value::Bool(true)) => continue,
                Some(_) => return None, // a constraint became false
                None => {}
            }
            // Without definite values the old constraints are unchanged
            // and distinct (a state's set has no duplicates): only the
            // added ones can be new, and only they need a duplicate check —
            // a linear scan for the one or two of them, instead of hashing
            // every constraint of the path at every step.
            if info.definite.is_empty() {
                if i >= state.constraints.len() && constraints.contains(&c2) {
                    continue;
                }
            } else if !seen.insert(c2.clone()) {
                continue;
            }
            let is_old = if info.definite.is_empty() { i < state.constraints.len() } else { old.contains(&c2) };
            let (c_ids, c_holds): (Idents, bool) = if cached && i < state.constraints.len() {
                (state.facts.idents[i].clone(), state.facts.holds[i])
            } else {
                (idents(&c2).into(), false)
            };
            if !is_old {
                new_ids.extend(c_ids.iter().cloned());
            }
            constraints.push(c2);
            ids.push(c_ids);
            holds.push(c_holds);
        }
        // Drop constraints no variable can reach any more; and find the
        // part connected to the new constraints (to ask about). A dropped
        // constraint's whole connected part is dropped, so the part of the
        // new ones among the kept is the same as among all.
        let live: BTreeSet<Arc<str>> = memory.terms().flat_map(idents).collect();
        let links = Links::new(&ids);
        let keep = links.connected(&live);
        let linked = if new_ids.is_empty() { Vec::new() } else { links.connected(&new_ids) };
        drop(links);
        let mut relevant_at: Vec<usize> = Vec::new();
        let mut at = 0;
        for (i, k) in keep.iter().enumerate() {
            if *k {
                if linked.get(i).copied().unwrap_or(false) {
                    relevant_at.push(at);
                }
                at += 1;
            }
        }
        let mut kept = keep.iter();
        holds.retain(|_| *kept.next().unwrap_or(&false));
        let (constraints, ids): (Vec<Term>, Vec<Idents>) =
            constraints.into_iter().zip(ids).zip(keep).filter(|(_, k)| *k).map(|(c, _)| c).unzip();
        // The model is the predecessor's, so what was known to hold under
        // it still does.
        let mut next = ConstraintsState {
            constraints,
            memory: Arc::new(memory.clone()),
            model: state.model.clone(),
            facts: ConstraintFacts { idents: ids, holds },
        };
        if new_ids.is_empty() {
            return Some(next);
        }
        // Ask about the part connected to the new constraints.
        if relevant_at.is_empty() {
            return Some(next);
        }
        if let Some(m) = &state.model {
            let env = |n: &str| m.get(n).copied();
            // Newest first, and not again what is known to hold under this
            // model (neither changes the answer: every one must hold): on an
            // unrolled loop the new guard is what the model fails, and the
            // old constraints were evaluated at an earlier step.
            let mut all = true;
            for &i in relevant_at.iter().rev() {
                if next.facts.holds[i] {
                    continue;
                }
                if next.constraints[i].eval(&env) == Some(Value::Bool(true)) {
                    next.facts.holds[i] = true;
                } else {
                    all = false;
                    break;
                }
            }
            if all {
                return Some(next); // the path's last model still satisfies them
            }
        }
        let mut relevant: Vec<Term> = relevant_at.iter().map(|&i| next.constraints[i].clone()).collect();
        if relevant.len() > MAX_QUERY_CONSTRAINTS {
            // Ask about a window: the oldest constraints (input ranges,
            // the first branches) and the newest (this edge's). Only `unsat`
            // prunes, and a subset that is unsat makes the whole set unsat,
            // so this loses precision, never soundness. The newest part
            // starts at a multiple of `WINDOW_STEP` (so it holds between
            // 12 and 12 + WINDOW_STEP - 1 constraints): consecutive queries
            // along a path then share all but their last constraints, which
            // the incremental z3 process keeps (with what it learnt about
            // them) instead of popping and re-asserting the whole window.
            let keep_old = MAX_QUERY_CONSTRAINTS / 4;
            let newest = MAX_QUERY_CONSTRAINTS - keep_old;
            let cut = keep_old + (relevant.len() - keep_old - newest) / WINDOW_STEP * WINDOW_STEP;
            relevant.drain(keep_old..cut);
        }
        let mut query = ConstraintsCpa::query(&relevant);
        query.want_model = true;
        let script = query.to_smtlib();
        // Constraints over one input (a branch on it, a loop unrolled over
        // it) are decided exactly without the solver:
        // the same answer z3 would give to this very query, so the same
        // states are explored — natively and in the page, where the run
        // then does not park (nor wait for Z3 to load).
        if self.decide_one_input && self.oracle.may_decide() {
            match smt::univariate::decide(&relevant) {
                Some(Decision::Unsat) => {
                    self.oracle.decided_without_solver(&script, Status::Unsat);
                    return None;
                }
                Some(Decision::Sat(model)) => {
                    self.oracle.decided_without_solver(&script, Status::Sat);
                    next.replace_model(model);
                    return Some(next);
                }
                None => {}
            }
        }
        match self.oracle.ask(&script) {
            Ask::Answer(r) if r.status() == Status::Unsat => None,
            Ask::Answer(r) if r.status() == Status::Sat && !r.model.is_empty() => {
                next.replace_model(r.model.clone());
                Some(next)
            }
            // sat, unknown (sound: keep), or pending (the result is dropped
            // and the transfer redone once the answer is in).
            _ => Some(next),
        }
    }
}

impl Cpa for ConstraintsCpa {
    type State = ConstraintsState;
    type Precision = ();
    fn name(&self) -> &'static str {
        "ConstraintsCPA"
    }
    fn domain(&self) -> &dyn AbstractDomain<State = ConstraintsState> {
        &ConstraintsDomain
    }
    fn transfer_relation(&self) -> &dyn TransferRelation<State = ConstraintsState, Precision = ()> {
        self
    }
    fn merge_operator(&self) -> &dyn MergeOperator<ConstraintsState, ()> {
        &self.merge
    }
    fn stop_operator(&self) -> &dyn StopOperator<ConstraintsState, ()> {
        &self.stop
    }
    fn initial_state(&self, _entry: NodeId) -> ConstraintsState {
        ConstraintsState::default()
    }
    fn initial_precision(&self, _entry: NodeId) {}
    fn solver_oracle(&self) -> Option<Arc<SolverOracle>> {
        Some(self.oracle.clone())
    }
    fn view(&self, state: &ConstraintsState) -> ComponentView {
        ComponentView {
            cpa: "ConstraintsCPA".into(),
            content: ViewContent::Constraints { constraints: state.constraints.iter().map(show_term).collect() },
        }
    }
    // No coverage-index shape of its own: the number of constraints (which
    // `e ⊑ e'` bounds, |C'| ≤ |C|) differs in nearly every state of an
    // unrolled loop, so as a shape it split a location's states into one
    // group each and every stop check hashed the new state once per group
    // (quadratic in the states at a loop head). `constraints_leq` checks
    // the count first anyway.
}
