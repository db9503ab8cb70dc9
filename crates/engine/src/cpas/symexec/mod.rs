//! The SymExec CPA: symbolic execution (SYMEX) and symbolic execution with
//! implicit predicate abstraction (SYMEXPA) of Jonáš, Strejček, Griggio:
//! *Combining Symbolic Execution with Predicate Abstraction and CEGAR*
//! (the KRATOS "symexecia" algorithms), as one CPA of this engine.
//!
//! A state is (memory m, path condition, history h): the symbolic memory
//! (the SymbolicValue CPA's [`SymState`]: variables → terms over symbolic
//! identifiers, saved frames of active calls), the *whole* path condition
//! (a conjunction over the identifiers, never cut to a window), and the
//! history of the path as far as ABSTRACT? asks it — how often each
//! abstraction location was visited and the fresh memories of the earlier
//! abstraction points (per location and call stack).
//!
//! * Transfer: the edge's symbolic semantics ([`SymbolicSemantics::step`],
//!   the SymbolicValue CPA's); a new assumption is added to the path
//!   condition and the path condition is checked by the SMT solver
//!   through the run's [`SolverOracle`] (so the page parks) — the
//!   conjuncts connected to the new one through shared variables, the rest
//!   being the predecessor's, already checked; only `unsat` drops the
//!   branch (`unknown` keeps it). Calls push the call site on the
//!   state's own call stack and save the callee's frame, returns restore
//!   it; unbounded recursion ends at the Callstack CPA's depth (UNKNOWN).
//! * ABSTRACT? (with `symexec.abstraction = true`) is decided in the
//!   transfer into a location l ∈ dom(p) visited at least c times before
//!   on the path: the memory becomes fresh memory m_A and the path
//!   condition gets eq and simple (see [`abstraction`]); a second check
//!   prunes a path that is not p-simple. Each transfer without successor
//!   says why ([`Cpa::take_prune_report`]); each abstraction point what it
//!   added ([`Cpa::abstraction_point_report`]).
//! * Merge^sep; stop^never (the composite must be configured with
//!   `cpa.composite.stop = NEVER`): with a DFS waitlist the CPA+ algorithm
//!   *is* depth-first symbolic execution, and the ARG is the
//!   symbolic-execution tree. ⊑ is equality (the order is never used to
//!   cover).
//! * Encoding: integers, every C result wrapped exactly under
//!   `analysis.intModel = C` ([`smt::Encoding::wrapped`], as predicate
//!   analysis), so predicates found by interpolation (over integers) can be
//!   instantiated on the memory.

pub mod abstraction;
pub mod precision;

use crate::cpa::{AbstractDomain, Cpa, MergeOperator, MergeSep, StopNever, StopOperator, TransferError, TransferRelation};
use crate::cpas::symbolic::{apply_definite, show_term, symbolic_bindings, SymState, SymbolicSemantics};
use crate::solver::{Ask, SolverOracle};
use crate::state_view::{AbstractionPointView, ComponentView, LocationVisits, PruneReason, PruneView, ViewContent};
use abstraction::{bind_unknown, differs, eq_conjuncts, fresh_memory, predicate_vars, show_eq, show_simple};
use cfa::{Edge, EdgeKind, NodeId, Program};
use precision::SymExecPrecision;
use smt::{Encoding, Query, Status, Term, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};

/// The fresh memories of the earlier abstraction points at one location
/// with one call stack, in path order.
pub type AbstractionHistory = BTreeMap<(NodeId, Vec<NodeId>), Vec<Arc<SymState>>>;

/// A state of symbolic execution: (memory, path condition, history).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SymExecState {
    /// The symbolic memory m.
    pub memory: SymState,
    /// The path condition's conjuncts, in the order they were assumed.
    pub path: Vec<Term>,
    /// History: visits of each abstraction location on the path, this
    /// state's location included.
    pub visits: BTreeMap<NodeId, u32>,
    /// History: the call sites of the active calls, outermost first.
    pub calls: Vec<NodeId>,
    /// History: the fresh memories m_i of the earlier abstraction points.
    pub abstractions: AbstractionHistory,
    /// Set when the transfer into this state abstracted the memory.
    pub point: Option<Arc<AbstractionPointView>>,
    /// Edges from the root of the tree.
    pub depth: u32,
}

/// The options of the SymExec CPA.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SymExecOptions {
    /// `symexec.abstraction`: SYMEXPA (true) or SYMEX (false).
    pub abstraction: bool,
    /// The encoding of memory and path condition.
    pub encoding: Encoding,
}

/// The domain: ⊑ is equality (stop^never never asks it).
#[derive(Clone, Copy, Debug, Default)]
pub struct SymExecDomain;

impl AbstractDomain for SymExecDomain {
    type State = SymExecState;
    fn is_less_or_equal(&self, a: &SymExecState, b: &SymExecState) -> bool {
        a == b
    }
    /// Not a lattice join: merge^sep never calls it; returns `b`'s
    /// memory with the path conditions' common conjuncts (a sound upper
    /// bound only when the memories agree, which is all it is used for).
    fn join(&self, a: &SymExecState, b: &SymExecState) -> SymExecState {
        let mut j = b.clone();
        j.path.retain(|c| a.path.contains(c));
        j
    }
}

/// The conjuncts of `path` that are connected through shared variables
/// to those not in `old` (in `path`'s order), or `None` when all are in
/// `old`.
fn connected_to_new(old: &[Term], path: &[Term]) -> Option<Vec<Term>> {
    let is_new: Vec<bool> = if path.len() >= old.len() && path[..old.len()] == *old {
        (0..path.len()).map(|i| i >= old.len()).collect()
    } else {
        let before: std::collections::HashSet<&Term> = old.iter().collect();
        path.iter().map(|c| !before.contains(c)).collect()
    };
    if !is_new.contains(&true) {
        return None;
    }
    let ids: Vec<crate::cpas::constraints::Idents> =
        path.iter().map(|c| c.vars().into_keys().collect::<Vec<_>>().into()).collect();
    let seeds: Vec<Arc<str>> = ids.iter().zip(&is_new).filter(|(_, n)| **n).flat_map(|(i, _)| i.iter().cloned()).collect();
    let linked = crate::cpas::constraints::Links::new(&ids).connected(&seeds);
    let asked: Vec<Term> =
        path.iter().zip(linked.iter().zip(&is_new)).filter(|(_, (l, n))| **l || **n).map(|(c, _)| c.clone()).collect();
    // Most of the path anyway: ask all of it, whose prefix the solver
    // process still holds from the predecessor's query (see
    // `smt::backend`), instead of a new subset it must assert afresh.
    Some(if asked.len() * 2 >= path.len() { path.to_vec() } else { asked })
}

/// The SymExec CPA (see the module docs).
pub struct SymExecCpa {
    semantics: SymbolicSemantics,
    options: SymExecOptions,
    precision: Arc<SymExecPrecision>,
    oracle: Arc<SolverOracle>,
    /// Why the last transfer had no successor (taken by the algorithm).
    pruned: Mutex<Option<PruneView>>,
}

impl SymExecCpa {
    /// The CPA for `program` with the initial precision `precision`.
    pub fn new(program: Arc<Program>, options: SymExecOptions, precision: SymExecPrecision, oracle: Arc<SolverOracle>) -> Self {
        SymExecCpa {
            semantics: SymbolicSemantics::new(program, options.encoding),
            options,
            precision: Arc::new(precision),
            oracle,
            pruned: Mutex::new(None),
        }
    }

    fn program(&self) -> &Program {
        &self.semantics.program
    }

    fn prune(&self, reason: PruneReason, detail: String) -> Vec<SymExecState> {
        *self.pruned.lock().unwrap_or_else(|p| p.into_inner()) = Some(PruneView { reason, detail });
        Vec::new()
    }

    /// Whether the path condition `path` (the predecessor's `old` and new
    /// conjuncts) may be satisfiable: only `unsat` says no (`unknown` and a
    /// pending query keep the path). Only the conjuncts connected to the new
    /// ones through shared variables are asked (constraint independence):
    /// if they are unsatisfiable so is the whole path, and the rest is the
    /// predecessor's, whose own check kept it — so the answer is the whole
    /// path's whenever that check said `sat`, and the query is shorter and
    /// repeats (up to renaming) across loop iterations. A `sat` answer's
    /// model often decides the next query ([`SolverOracle::ask_query`]).
    fn satisfiable(&self, old: &[Term], path: &[Term], why: &str) -> bool {
        let Some(asked) = connected_to_new(old, path) else { return true };
        let mut query = Query::new(asked);
        query.comment = Some(why.to_string());
        // The model lets the oracle answer the sibling branch, and the next
        // conditions on this path, without the solver when it satisfies them.
        query.want_model = true;
        !matches!(self.oracle.ask_query(&query), Ask::Answer(r) if r.status() == Status::Unsat)
    }

    /// Adds the step's constraints to the path condition (identifiers an
    /// assumed equality fixed are replaced by their value everywhere);
    /// `None` when a constraint folds to false. The flag says whether a
    /// constraint is new.
    fn extend_path(old: &[Term], added: &[Term], definite: &[(Arc<str>, Term)]) -> Option<(Vec<Term>, bool)> {
        let mut path: Vec<Term> = Vec::with_capacity(old.len() + added.len());
        if definite.is_empty() {
            path.extend(old.iter().cloned());
        } else {
            for c in old {
                let c2 = apply_definite(c, definite);
                match c2.as_value() {
                    Some(Value::Bool(true)) => continue,
                    Some(_) => return None,
                    None => path.push(c2),
                }
            }
        }
        let mut new = false;
        for c in added {
            let c2 = apply_definite(c, definite);
            match c2.as_value() {
                Some(Value::Bool(true)) => continue,
                Some(_) => return None,
                None => {}
            }
            if !path.contains(&c2) {
                new = true;
                path.push(c2);
            }
        }
        Some((path, new))
    }

    /// ABSTRACT? and the abstraction at `l` of the successor `next`
    /// (already with memory m, path condition and history); `Err` with
    /// the reason when the path is not p-simple.
    fn abstract_at(
        &self,
        precision: &SymExecPrecision,
        next: &mut SymExecState,
        l: NodeId,
        visits_before: u32,
    ) -> Result<(), String> {
        let Some(p) = precision.at(l) else { return Ok(()) };
        if !self.options.abstraction || visits_before < p.threshold {
            return Ok(());
        }
        let program = self.semantics.program.clone();
        let enc = self.options.encoding;
        let mut added = Vec::new();
        // Name the values of unknown variables the predicates speak of.
        let vars: BTreeSet<cfa::VarId> = p.predicates.iter().flat_map(predicate_vars).collect();
        bind_unknown(&mut next.memory, &vars, &program, enc, &mut added);
        let m_a = fresh_memory(&next.memory, &program, l, enc, &mut added);
        let eq = eq_conjuncts(&p.predicates, &next.memory.values, &m_a.values);
        let key = (l, next.calls.clone());
        let earlier: Vec<Arc<SymState>> = next.abstractions.get(&key).cloned().unwrap_or_default();
        let simple: Vec<Term> = earlier.iter().map(|m_i| differs(&p.predicates, &m_a.values, &m_i.values)).collect();
        let view = AbstractionPointView {
            location: l,
            visits: visits_before,
            threshold: p.threshold,
            predicates: p.predicates.iter().map(|t| crate::cpas::predicate::show_predicate(&program, t)).collect(),
            eq: p.predicates.iter().map(|t| show_eq(&program, t, &m_a.values)).collect(),
            simple: earlier.iter().map(|m_i| show_simple(&p.predicates, &m_a.values, &m_i.values)).collect(),
            earlier: earlier.len() as u32,
        };
        if simple.iter().any(|t| t.as_value() == Some(Value::Bool(false))) {
            return Err(format!(
                "{l} has no predicates, so its predicate valuation (the empty one) repeats the earlier abstraction there (simple = false)"
            ));
        }
        let old_path = next.path.clone();
        next.path.extend(added);
        next.path.extend(eq);
        let asks = !simple.is_empty();
        next.path.extend(simple);
        next.memory = m_a.clone();
        next.abstractions.entry(key).or_default().push(Arc::new(m_a));
        next.point = Some(Arc::new(view));
        if asks && !self.satisfiable(&old_path, &next.path, &format!("p-simple? abstraction at {l}")) {
            return Err(format!(
                "the path condition with eq and simple at {l} is unsatisfiable: every valuation of {{{}}} repeats an earlier abstraction at {l}",
                next.point.as_ref().map(|v| v.predicates.join(", ")).unwrap_or_default()
            ));
        }
        Ok(())
    }
}

impl TransferRelation for SymExecCpa {
    type State = SymExecState;
    type Precision = Arc<SymExecPrecision>;

    fn successors(
        &self,
        state: &SymExecState,
        edge: &Edge,
        precision: &Arc<SymExecPrecision>,
    ) -> Result<Vec<SymExecState>, TransferError> {
        let Some((memory, info)) = self.semantics.step(&state.memory, edge) else {
            return Ok(self.prune(PruneReason::Infeasible, "the condition is false on the symbolic memory".into()));
        };
        let Some((path, new)) = Self::extend_path(&state.path, &info.added, &info.definite) else {
            return Ok(self.prune(PruneReason::Infeasible, "a path constraint became false".into()));
        };
        let mut next = SymExecState {
            memory,
            path,
            visits: state.visits.clone(),
            calls: state.calls.clone(),
            abstractions: state.abstractions.clone(),
            point: None,
            depth: state.depth + 1,
        };
        // The state's own call stack keys the abstraction history.
        match &edge.kind {
            EdgeKind::Call { .. } => next.calls.push(edge.source),
            EdgeKind::Return { .. } => {
                next.calls.pop();
            }
            _ => {}
        }
        if let (true, EdgeKind::Assume { .. }) = (new, &edge.kind) {
            if !self.satisfiable(&state.path, &next.path, &format!("assume {} ({} → {})", edge.label, edge.source, edge.target))
            {
                return Ok(
                    self.prune(PruneReason::Infeasible, format!("the path condition with `{}` is unsatisfiable", edge.label))
                );
            }
        }
        let l = edge.target;
        if precision.at(l).is_some() {
            let before = next.visits.get(&l).copied().unwrap_or(0);
            next.visits.insert(l, before + 1);
            if let Err(why) = self.abstract_at(precision, &mut next, l, before) {
                return Ok(self.prune(PruneReason::NotSimple, why));
            }
        }
        Ok(vec![next])
    }
}

impl Cpa for SymExecCpa {
    type State = SymExecState;
    type Precision = Arc<SymExecPrecision>;
    fn name(&self) -> &'static str {
        "SymExecCPA"
    }
    fn domain(&self) -> &dyn AbstractDomain<State = SymExecState> {
        &SymExecDomain
    }
    fn transfer_relation(&self) -> &dyn TransferRelation<State = SymExecState, Precision = Arc<SymExecPrecision>> {
        self
    }
    fn merge_operator(&self) -> &dyn MergeOperator<SymExecState, Arc<SymExecPrecision>> {
        &MergeSep
    }
    fn stop_operator(&self) -> &dyn StopOperator<SymExecState, Arc<SymExecPrecision>> {
        &StopNever
    }
    fn initial_state(&self, _entry: NodeId) -> SymExecState {
        SymExecState::default()
    }
    fn initial_precision(&self, _entry: NodeId) -> Arc<SymExecPrecision> {
        self.precision.clone()
    }
    fn solver_oracle(&self) -> Option<Arc<SolverOracle>> {
        Some(self.oracle.clone())
    }
    fn view(&self, state: &SymExecState) -> ComponentView {
        let memory = symbolic_bindings(self.program(), &state.memory);
        ComponentView {
            cpa: "SymExecCPA".into(),
            content: ViewContent::SymbolicExecution {
                memory,
                path_condition: state.path.iter().map(show_term).collect(),
                visits: state.visits.iter().map(|(l, v)| LocationVisits { location: *l, visits: *v }).collect(),
                abstraction_point: state.point.is_some(),
                depth: state.depth,
            },
        }
    }
    fn describe_precision(&self, precision: &Arc<SymExecPrecision>) -> String {
        precision.describe(self.program())
    }
    fn abstraction_point_report(&self, state: &SymExecState) -> Option<AbstractionPointView> {
        state.point.as_deref().cloned()
    }
    fn take_prune_report(&self) -> Option<PruneView> {
        self.pruned.lock().unwrap_or_else(|p| p.into_inner()).take()
    }
}
