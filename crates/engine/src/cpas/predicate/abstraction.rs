//! Predicate abstraction: the abstraction formula ψ' of a block end, the
//! strongest Boolean combination of the location's predicates implied by
//! ψ ∧ φ (Graf–Saïdi; Ball, Podelski, Rajamani for the Cartesian
//! variant), asked of the SMT solver through the run's
//! [`SolverOracle`].
//!
//! * **Boolean abstraction** (`cpa.predicate.abstraction.cartesian =
//!   false`): all-SAT over the predicates. A Boolean variable `b_i` names
//!   each predicate (`b_i ⇔ p_i` instantiated at the current SSA
//!   versions); every model of ψ ∧ φ gives a *cube* (the `b_i`'s values),
//!   which a blocking clause `¬cube` excludes from the next query, until
//!   `unsat`. ψ' is the disjunction of the cubes (a DNF, a [`Region`]).
//! * **Cartesian abstraction** (`true`): one cube, the predicates (or
//!   their negations) that ψ ∧ φ implies, one query per predicate and
//!   polarity (a model of an earlier query that already satisfies `p`
//!   saves asking whether `¬p` is implied). Weaker than Boolean: it
//!   cannot say `p ∨ q`.
//!
//! A predicate that ψ ∧ φ states outright — `p` or `¬p` is one of its
//! conjuncts, e.g. a literal of ψ over variables the block left alone, or
//! the block's own assumption — is decided without a query: Cartesian adds
//! it to the cube, Boolean to every cube and enumerates only the others.
//!
//! Both first ask whether ψ ∧ φ is satisfiable at all; `unsat` gives
//! ψ' = false (the block cannot be executed). An `unknown` answer never
//! removes a state: Cartesian skips the predicate, Boolean gives up and
//! uses the Cartesian result, and a state whose satisfiability is unknown
//! is kept (its abstraction is `true` over the predicates it could not
//! decide). Over-approximation is always sound.

use super::pathformula::{block_start_ranges, parse_ssa_name, ssa_name, var_name, var_type};
use crate::solver::{Ask, SolverOracle};
use cfa::Program;
use smt::{Encoding, Query, Sort, Status, Term, Value};
use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

/// A literal: a predicate (unindexed term) and its polarity.
pub type Literal = (Term, bool);

/// An abstraction formula as a disjunction of cubes over predicates (a
/// DNF; CPAchecker keeps the same as a BDD). `[]` is `false`, `[[]]` is
/// `true`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Region {
    /// The cubes; each a conjunction of literals (sorted, no duplicates).
    pub cubes: Vec<Vec<Literal>>,
}

impl Region {
    /// `true`.
    pub fn top() -> Region {
        Region { cubes: vec![Vec::new()] }
    }

    /// `false`.
    pub fn bottom() -> Region {
        Region { cubes: Vec::new() }
    }

    /// Whether this is `false`.
    pub fn is_false(&self) -> bool {
        self.cubes.is_empty()
    }

    /// Whether this is syntactically `true` (an empty cube).
    pub fn is_true(&self) -> bool {
        self.cubes.iter().any(Vec::is_empty)
    }

    /// The region as a formula over unindexed variables.
    pub fn to_term(&self) -> Term {
        Term::or(
            self.cubes
                .iter()
                .map(|c| Term::and(c.iter().map(|(p, pos)| if *pos { p.clone() } else { Term::not(p.clone()) }).collect()))
                .collect(),
        )
    }

    /// The predicates the region mentions.
    pub fn atoms(&self) -> Vec<Term> {
        let mut a: Vec<Term> = self.cubes.iter().flatten().map(|(p, _)| p.clone()).collect();
        a.sort();
        a.dedup();
        a
    }

    /// `self ⇒ other`, decided *propositionally* (predicates as Boolean
    /// atoms, as CPAchecker's BDDs do): sound (a propositional implication
    /// holds semantically), and may miss implications that need
    /// arithmetic (`x > 5 ⇒ x > 0`). Gives up (false) beyond a budget.
    pub fn implies(&self, other: &Region) -> bool {
        if self == other || other.is_true() || self.is_false() {
            return true;
        }
        let mut budget = 4096u32;
        self.cubes.iter().all(|c| {
            let mut assignment: BTreeMap<Term, bool> = BTreeMap::new();
            for (p, pos) in c {
                if assignment.insert(p.clone(), *pos).is_some_and(|old| old != *pos) {
                    return true; // a contradictory cube implies anything
                }
            }
            cube_implies(&mut assignment, &other.cubes, &mut budget)
        })
    }
}

/// Whether every extension of `assignment` satisfies the DNF `cubes`
/// (Shannon expansion on the atoms the assignment leaves open).
fn cube_implies(assignment: &mut BTreeMap<Term, bool>, cubes: &[Vec<Literal>], budget: &mut u32) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let mut open: Option<Term> = None;
    for cube in cubes {
        let mut satisfied = true;
        let mut falsified = false;
        for (p, pos) in cube {
            match assignment.get(p) {
                Some(v) if v == pos => {}
                Some(_) => {
                    falsified = true;
                    break;
                }
                None => {
                    satisfied = false;
                    if open.is_none() {
                        open = Some(p.clone());
                    }
                }
            }
        }
        if satisfied && !falsified {
            return true;
        }
    }
    let Some(atom) = open else { return false };
    for value in [true, false] {
        assignment.insert(atom.clone(), value);
        let ok = cube_implies(assignment, cubes, budget);
        assignment.remove(&atom);
        if !ok {
            return false;
        }
    }
    true
}

/// `p` instantiated at the versions `version(v)` (`v3` → `v3@k`).
pub fn instantiate(p: &Term, version: &dyn Fn(cfa::VarId) -> u32) -> Term {
    p.rename(&|n| super::pathformula::parse_var_name(n).map(|v| Arc::from(ssa_name(v, version(v)).as_str())))
}

/// `t` with SSA versions dropped (`v3@k` → `v3`): an interpolant's atom as a
/// predicate.
pub fn uninstantiate(t: &Term) -> Term {
    t.rename(&|n| parse_ssa_name(n).map(|(v, _)| Arc::from(var_name(v).as_str())))
}

/// Which abstraction (`cpa.predicate.abstraction.cartesian`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AbstractionKind {
    /// All-SAT over the predicates (a DNF of cubes).
    Boolean,
    /// One cube: each predicate implied or its negation implied.
    Cartesian,
}

impl AbstractionKind {
    /// `boolean` or `cartesian`.
    pub fn name(self) -> &'static str {
        match self {
            AbstractionKind::Boolean => "boolean",
            AbstractionKind::Cartesian => "cartesian",
        }
    }
}

/// The result of one abstraction computation.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Computed {
    /// ψ'.
    pub region: Region,
    /// How many solver queries it took (cache hits included).
    pub queries: u32,
    /// What happened, in words (e.g. "Boolean abstraction gave up after an
    /// unknown answer: Cartesian used").
    pub note: Option<String>,
    /// The kind actually used.
    pub kind: AbstractionKind,
}

/// The most cubes a Boolean abstraction enumerates before it falls back
/// to the Cartesian one (2^6: six undecided predicates at one location).
pub const MAX_CUBES: usize = 64;

/// What an abstraction asks: ψ (instantiated at version 0) ∧ φ ∧ the range
/// constraints of the block-start values.
pub struct Problem<'a> {
    /// The program (variable types).
    pub program: &'a Program,
    /// The encoding of φ.
    pub encoding: Encoding,
    /// ψ ∧ φ and the range constraints, instantiated.
    pub base: Vec<Term>,
    /// The predicates, unindexed, and instantiated at φ's current versions.
    pub predicates: Vec<(Term, Term)>,
    /// The oracle.
    pub oracle: &'a SolverOracle,
    /// The comment of the queries (where and why).
    pub comment: String,
}

/// The base conjunction of an abstraction problem.
pub fn base_constraints(program: &Program, enc: Encoding, psi: &Region, phi: &super::pathformula::PathFormula) -> Vec<Term> {
    let mut base = vec![instantiate(&psi.to_term(), &|_| 0)];
    base.extend(phi.conjuncts.iter().cloned());
    let ranges = block_start_ranges(base.iter(), program, enc);
    base.extend(ranges);
    base.retain(|t| *t != Term::bool(true));
    base
}

enum Answer {
    Sat(Option<Arc<smt::Response>>),
    Unsat,
    Unknown,
    Pending,
}

impl Problem<'_> {
    fn ask(&self, extra: Vec<Term>, want_model: bool, queries: &mut u32) -> Answer {
        let mut assertions = self.base.clone();
        assertions.extend(extra);
        if assertions.contains(&Term::bool(false)) {
            return Answer::Unsat;
        }
        let query = Query { assertions, want_model, comment: Some(self.comment.clone()) };
        *queries += 1;
        match self.oracle.ask_query(&query) {
            Ask::Pending => Answer::Pending,
            Ask::Answer(r) => match r.status() {
                Status::Sat => Answer::Sat(Some(r)),
                Status::Unsat => Answer::Unsat,
                Status::Unknown => Answer::Unknown,
            },
        }
    }

    /// Computes the abstraction of kind `kind`. `None` while a query is
    /// pending (the transfer is redone once the oracle knows the answer).
    pub fn compute(&self, kind: AbstractionKind) -> Option<Computed> {
        let mut queries = 0;
        // Is ψ ∧ φ satisfiable at all?
        let model = match self.ask(Vec::new(), true, &mut queries) {
            Answer::Pending => return None,
            Answer::Unsat => return Some(Computed { region: Region::bottom(), queries, note: None, kind }),
            Answer::Unknown => {
                return Some(Computed {
                    region: Region::top(),
                    queries,
                    note: Some("the solver could not decide whether the block is feasible: ψ' = true".into()),
                    kind,
                })
            }
            Answer::Sat(m) => m,
        };
        if self.predicates.is_empty() {
            return Some(Computed { region: Region::top(), queries, note: None, kind });
        }
        match kind {
            AbstractionKind::Cartesian => self.cartesian(model, queries),
            AbstractionKind::Boolean => self.boolean(queries),
        }
    }

    /// The predicates whose value the base states outright: `p` or `¬p`
    /// (instantiated) is one of its conjuncts — typically a literal of ψ
    /// over variables the block did not assign, or the block's own
    /// assumption. They need no query: ψ ∧ φ implies them.
    fn stated(&self) -> Vec<Option<bool>> {
        fn conjuncts<'t>(t: &'t Term, out: &mut HashSet<&'t Term>) {
            match t.node() {
                smt::Node::App { op: smt::Op::And, args } => args.iter().for_each(|a| conjuncts(a, out)),
                _ => {
                    out.insert(t);
                }
            }
        }
        let mut facts = HashSet::new();
        self.base.iter().for_each(|t| conjuncts(t, &mut facts));
        self.predicates
            .iter()
            .map(|(_, inst)| {
                if facts.contains(inst) {
                    Some(true)
                } else if facts.contains(&Term::not(inst.clone())) {
                    Some(false)
                } else {
                    None
                }
            })
            .collect()
    }

    fn cartesian(&self, first_model: Option<Arc<smt::Response>>, mut queries: u32) -> Option<Computed> {
        let mut cube = Vec::new();
        let mut models: Vec<Arc<smt::Response>> = first_model.into_iter().collect();
        let mut undecided = 0;
        let stated = self.stated();
        for ((p, inst), stated) in self.predicates.iter().zip(stated) {
            if let Some(pos) = stated {
                cube.push((p.clone(), pos));
                continue;
            }
            let holds_in = |m: &smt::Response| -> Option<bool> {
                match inst.eval(&|n| m.model.get(n).copied()) {
                    Some(Value::Bool(b)) => Some(b),
                    _ => None,
                }
            };
            let seen_true = models.iter().any(|m| holds_in(m) == Some(true));
            let seen_false = models.iter().any(|m| holds_in(m) == Some(false));
            // p is implied iff ψ ∧ φ ∧ ¬p is unsat (skip when a model has ¬p).
            let mut implied = None;
            if !seen_false {
                match self.ask(vec![Term::not(inst.clone())], true, &mut queries) {
                    Answer::Pending => return None,
                    Answer::Unsat => implied = Some(true),
                    Answer::Sat(Some(m)) => models.push(m),
                    Answer::Sat(None) => {}
                    Answer::Unknown => undecided += 1,
                }
            }
            if implied.is_none() && !seen_true {
                match self.ask(vec![inst.clone()], true, &mut queries) {
                    Answer::Pending => return None,
                    Answer::Unsat => implied = Some(false),
                    Answer::Sat(Some(m)) => models.push(m),
                    Answer::Sat(None) => {}
                    Answer::Unknown => undecided += 1,
                }
            }
            if let Some(pos) = implied {
                cube.push((p.clone(), pos));
            }
        }
        cube.sort();
        let note = (undecided > 0).then(|| format!("{undecided} predicate queries were answered unknown and left out"));
        Some(Computed { region: Region { cubes: vec![cube] }, queries, note, kind: AbstractionKind::Cartesian })
    }

    fn boolean(&self, mut queries: u32) -> Option<Computed> {
        // Predicates the base states are in every cube; the all-SAT runs
        // over the others (with none left, the one cube needs no query).
        let stated = self.stated();
        let fixed: Vec<Literal> =
            self.predicates.iter().zip(&stated).filter_map(|((p, _), s)| s.map(|pos| (p.clone(), pos))).collect();
        let free: Vec<&(Term, Term)> = self.predicates.iter().zip(&stated).filter(|(_, s)| s.is_none()).map(|(p, _)| p).collect();
        if free.is_empty() {
            let mut cube = fixed;
            cube.sort();
            return Some(Computed { region: Region { cubes: vec![cube] }, queries, note: None, kind: AbstractionKind::Boolean });
        }
        let names: Vec<String> = (0..free.len()).map(|i| format!("pred@{i}")).collect();
        let mut extra: Vec<Term> =
            free.iter().zip(&names).map(|((_, inst), b)| Term::eq(Term::var(b, Sort::Bool), inst.clone())).collect();
        let mut cubes: Vec<Vec<Literal>> = Vec::new();
        loop {
            if cubes.len() >= MAX_CUBES {
                let mut c = self.cartesian(None, queries)?;
                c.note = Some(format!("more than {MAX_CUBES} cubes: the Cartesian abstraction was used instead"));
                return Some(c);
            }
            match self.ask(extra.clone(), true, &mut queries) {
                Answer::Pending => return None,
                Answer::Unsat => break,
                Answer::Unknown | Answer::Sat(None) => {
                    let mut c = self.cartesian(None, queries)?;
                    c.note = Some("the all-SAT enumeration got an unknown answer: the Cartesian abstraction was used".into());
                    return Some(c);
                }
                Answer::Sat(Some(m)) => {
                    let mut cube: Vec<Literal> = Vec::new();
                    for ((p, inst), b) in free.iter().copied().zip(&names) {
                        let value = match m.model.get(b.as_str()) {
                            Some(Value::Bool(v)) => Some(*v),
                            _ => match inst.eval(&|n| m.model.get(n).copied()) {
                                Some(Value::Bool(v)) => Some(v),
                                _ => None,
                            },
                        };
                        if let Some(v) = value {
                            cube.push((p.clone(), v));
                        }
                    }
                    cube.sort();
                    let blocking = Term::not(Term::and(
                        cube.iter()
                            .map(|(p, v)| {
                                let i = free.iter().position(|(q, _)| q == p).unwrap_or(0);
                                let b = Term::var(&names[i], Sort::Bool);
                                if *v {
                                    b
                                } else {
                                    Term::not(b)
                                }
                            })
                            .collect(),
                    ));
                    if cube.is_empty() || cubes.contains(&cube) {
                        // No progress possible (a model without the b's):
                        // the abstraction is everything the cubes say so far or true.
                        cubes.push(Vec::new());
                        break;
                    }
                    cubes.push(cube);
                    extra.push(blocking);
                }
            }
        }
        for cube in &mut cubes {
            cube.extend(fixed.iter().cloned());
            cube.sort();
        }
        cubes.sort();
        Some(Computed { region: Region { cubes }, queries, note: None, kind: AbstractionKind::Boolean })
    }
}

/// The instantiated predicate `p` at the versions of `phi`, and its sort check.
pub fn instantiate_at(p: &Term, phi: &super::pathformula::PathFormula) -> Term {
    instantiate(p, &|v| phi.current.get(&v).copied().unwrap_or(0))
}

/// Whether `t` is a usable predicate: Boolean, over program variables only.
pub fn is_predicate(t: &Term, program: &Program) -> bool {
    t.sort() == Sort::Bool
        && t.as_value().is_none()
        && t.vars()
            .keys()
            .all(|n| super::pathformula::parse_var_name(n).is_some_and(|v| (v.0 as usize) < program.variables.len()))
}

/// The types of variables, for sort lookups when parsing solver output.
pub fn sort_of_ssa(program: &Program, enc: Encoding) -> impl Fn(&str) -> Option<Sort> + '_ {
    move |name: &str| {
        let v = parse_ssa_name(name).map(|(v, _)| v).or_else(|| super::pathformula::parse_var_name(name))?;
        ((v.0 as usize) < program.variables.len()).then(|| enc.sort(var_type(program, v)))
    }
}
