//! Path formulas in SSA form, the "φ" half of a predicate-analysis state
//! (Beyer, Keremoglu, Wendler: *Predicate Abstraction with
//! Adjustable-Block Encoding*): the strongest postcondition of the edges
//! since the last abstraction, as a conjunction of constraints over SSA
//! versions of the program variables.
//!
//! * Variable `v3` at version `k` is the SMT constant `v3@k`
//!   ([`ssa_name`]); version 0 is its value at the start of the block,
//!   where the abstraction formula ψ holds (instantiated at version 0).
//! * An assignment makes a new version (`v3@4 = v3@3 + 1`); an assumption
//!   is a conjunct; a nondeterministic value, an uninitialized local and
//!   a callee's locals at its entry are new versions with no constraint
//!   but their type's range.
//! * Memory (`cpa.predicate.memoryRegions`, [`super::memory`]): a load
//!   assigns the value of a memory cell, a store makes a new version of its
//!   region with retention disjuncts, an allocation is a fresh non-null
//!   address different from the block's earlier ones; memory is forgotten
//!   with φ at an abstraction.
//! * Calls save the callee's variables of the caller's activation in a
//!   frame and returns restore them (recursion keeps activations apart).
//! * Versions only grow along a path (`next` is the high-water mark per
//!   variable), so a version restored from a frame is never reused.
//!
//! The same builder encodes a whole error path for refinement (without
//! resetting at block ends), so the CPA and the refiner cannot disagree on
//! what an edge means.

use super::memory::Memory;
use cfa::{Edge, EdgeKind, Expr, Program, RegionModel, Rhs, VarId};
use minic::IntType;
use smt::{encode_cast, encode_condition, encode_expr, EncodeEnv, Encoding, Term};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The SMT name of program variable `var` at SSA version `k`: `v{id}@{k}`.
pub fn ssa_name(var: VarId, k: u32) -> String {
    format!("v{}@{k}", var.0)
}

/// The SMT name of program variable `var` in a predicate (no version).
pub fn var_name(var: VarId) -> String {
    format!("v{}", var.0)
}

/// The program variable and version of an SSA name (`v3@2` → (3, 2)).
pub fn parse_ssa_name(name: &str) -> Option<(VarId, u32)> {
    let rest = name.strip_prefix('v')?;
    let (id, k) = rest.split_once('@')?;
    Some((VarId(id.parse().ok()?), k.parse().ok()?))
}

/// The program variable of an unindexed name (`v3` → 3).
pub fn parse_var_name(name: &str) -> Option<VarId> {
    let rest = name.strip_prefix('v')?;
    if rest.contains('@') {
        return None;
    }
    Some(VarId(rest.parse().ok()?))
}

/// The SSA bookkeeping and constraints of a path since the block start.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PathFormula {
    /// The constraints (their conjunction is φ). After a merge, one
    /// disjunction.
    pub conjuncts: Vec<Term>,
    /// The current SSA version of each variable (absent: version 0).
    pub current: BTreeMap<VarId, u32>,
    /// The highest version of each variable used so far on the path.
    pub next: BTreeMap<VarId, u32>,
    /// For each active call, the callee's variables' versions in the
    /// caller's activation (`None`: forgotten at an abstraction).
    pub frames: Vec<BTreeMap<VarId, Option<u32>>>,
    /// Fresh values made so far (names `fresh@k`).
    pub fresh: u32,
    /// Edges since the block start (for `cpa.predicate.blk.threshold`).
    pub length: u32,
    /// The memory regions' known cells since the block start (see
    /// [`super::memory`]).
    pub memory: Memory,
    /// The path formulas merged into this one at this location (directly
    /// or transitively): each is a disjunct of it, so a state with one of
    /// them is covered by a state with this one (CPAchecker's
    /// "merged into"). Empty after a transfer.
    pub merged_from: Vec<Arc<PathFormula>>,
}

impl PathFormula {
    /// φ as one term.
    pub fn formula(&self) -> Term {
        Term::and(self.conjuncts.clone())
    }

    /// The term of `var`'s current version.
    pub fn current_term(&self, var: VarId, enc: Encoding, program: &Program) -> Term {
        let k = self.current.get(&var).copied().unwrap_or(0);
        Term::var(&ssa_name(var, k), enc.sort(var_type(program, var)))
    }

    /// The same path formula after an abstraction: empty, every variable at
    /// version 0, the frames' versions forgotten (their constraints are
    /// gone with φ).
    pub fn reset(&self) -> PathFormula {
        PathFormula {
            frames: self.frames.iter().map(|f| f.keys().map(|v| (*v, None)).collect()).collect(),
            ..PathFormula::default()
        }
    }

    /// φ₁ ∨ φ₂ with the versions unified: a variable whose current
    /// versions differ gets a new version equal to each side's
    /// (merge of ABE: the disjunction of the path formulas). `None` when
    /// the call stacks differ.
    pub fn merge(&self, other: &PathFormula, enc: Encoding, program: &Program) -> Option<PathFormula> {
        if self.frames != other.frames {
            return None;
        }
        let mut next = self.next.clone();
        for (v, k) in &other.next {
            let e = next.entry(*v).or_insert(0);
            *e = (*e).max(*k);
        }
        let vars: std::collections::BTreeSet<VarId> = self.current.keys().chain(other.current.keys()).copied().collect();
        let (mut left, mut right) = (self.conjuncts.clone(), other.conjuncts.clone());
        let mut current = BTreeMap::new();
        for v in vars {
            let (a, b) = (self.current.get(&v).copied().unwrap_or(0), other.current.get(&v).copied().unwrap_or(0));
            if a == b {
                current.insert(v, a);
                continue;
            }
            let n = next.entry(v).or_insert(0);
            *n += 1;
            let k = *n;
            let sort = enc.sort(var_type(program, v));
            let new = Term::var(&ssa_name(v, k), sort);
            left.push(Term::eq(new.clone(), Term::var(&ssa_name(v, a), sort)));
            right.push(Term::eq(new, Term::var(&ssa_name(v, b), sort)));
            current.insert(v, k);
        }
        let memory = self.memory.merge(&other.memory, enc, &mut left, &mut right);
        let disjunction = Term::or(vec![Term::and(left), Term::and(right)]);
        let mut merged_from: Vec<Arc<PathFormula>> = Vec::new();
        for pf in [self, other] {
            for m in pf.merged_from.iter().cloned().chain(std::iter::once(Arc::new(pf.clone()))) {
                if !merged_from.contains(&m) {
                    merged_from.push(m);
                }
            }
        }
        Some(PathFormula {
            merged_from,
            conjuncts: vec![disjunction],
            current,
            next,
            frames: self.frames.clone(),
            fresh: self.fresh.max(other.fresh),
            length: self.length.max(other.length),
            memory,
        })
    }
}

/// The C type of a program variable.
pub fn var_type(program: &Program, var: VarId) -> IntType {
    program.variables.get(var.0 as usize).map(|v| v.ty).unwrap_or(IntType::Int)
}

/// Extends path formulas by one CFA edge (the strongest postcondition).
pub struct PathFormulaBuilder<'p> {
    /// The program.
    pub program: &'p Program,
    /// The encoding (Int with exact wrap-around under C, see
    /// [`smt::Encoding::wrapped`]).
    pub encoding: Encoding,
    /// How memory is split into regions (`cpa.predicate.memoryRegions`);
    /// `None`: memory is not modelled, a load is an arbitrary value.
    pub memory: Option<RegionModel>,
}

struct Env<'a> {
    pf: &'a mut PathFormula,
    program: &'a Program,
    enc: Encoding,
    memory: Option<RegionModel>,
}

impl Env<'_> {
    /// A new, unconstrained version of `var` (but its type's range).
    fn new_version(&mut self, var: VarId) -> Term {
        let n = self.pf.next.entry(var).or_insert(0);
        *n += 1;
        let k = *n;
        self.pf.current.insert(var, k);
        let ty = var_type(self.program, var);
        Term::var(&ssa_name(var, k), self.enc.sort(ty))
    }

    /// `var := value` (a value of type `from`).
    fn assign(&mut self, var: VarId, value: Term, from: IntType) {
        let ty = var_type(self.program, var);
        let value = if from == ty { value } else { encode_cast(value, from, ty, self.enc) };
        let t = self.new_version(var);
        self.pf.conjuncts.push(Term::eq(t, value));
    }

    /// `var := arbitrary value of its type`.
    fn havoc(&mut self, var: VarId) {
        let t = self.new_version(var);
        let range = self.enc.range_constraint(&t, var_type(self.program, var));
        if range != Term::bool(true) {
            self.pf.conjuncts.push(range);
        }
    }

    fn value(&mut self, e: &Expr) -> Term {
        let enc = self.enc;
        encode_expr(e, enc, self)
    }
}

impl EncodeEnv for Env<'_> {
    fn var(&mut self, var: VarId, _ty: IntType) -> Term {
        self.pf.current_term(var, self.enc, self.program)
    }
    fn fresh(&mut self, ty: IntType, _why: &str) -> Term {
        self.pf.fresh += 1;
        let t = Term::var(&format!("fresh@{}", self.pf.fresh), self.enc.sort(ty));
        let range = self.enc.range_constraint(&t, ty);
        if range != Term::bool(true) {
            self.pf.conjuncts.push(range);
        }
        t
    }
}

impl PathFormulaBuilder<'_> {
    /// φ extended by `edge`: the constraints it adds and the new versions.
    /// An assume edge whose condition folds to `false` gives `None`.
    pub fn step(&self, pf: &PathFormula, edge: &Edge) -> Option<PathFormula> {
        let mut next = pf.clone();
        next.merged_from.clear();
        next.length += 1;
        let mut env = Env { pf: &mut next, program: self.program, enc: self.encoding, memory: self.memory };
        match &edge.kind {
            // `free` changes no cell.
            EdgeKind::Blank | EdgeKind::Terminate | EdgeKind::ReachError | EdgeKind::Free { .. } => {}
            EdgeKind::Store { addr, value, bytes, access } => {
                if let Some(model) = env.memory {
                    let a = env.value(addr);
                    let v = env.value(value);
                    let mut out = Vec::new();
                    let enc = env.enc;
                    env.pf.memory.store(model, access, a, v, value.ty(), *bytes, enc, &mut out);
                    env.pf.conjuncts.extend(out);
                }
            }
            EdgeKind::Declare { var, init: None } => env.havoc(*var),
            EdgeKind::Declare { var, init: Some(rhs) } | EdgeKind::Assign { var, rhs } => match rhs {
                Rhs::Expr(e) => {
                    let t = env.value(e);
                    env.assign(*var, t, e.ty());
                }
                Rhs::Load { addr, ty, bytes, access } if env.memory.is_some() => {
                    let a = env.value(addr);
                    let mut out = Vec::new();
                    let (enc, model) = (env.enc, env.memory.unwrap_or_default());
                    let v = env.pf.memory.load(model, access, a, *ty, *bytes, enc, &mut out);
                    env.pf.conjuncts.extend(out);
                    env.assign(*var, v, *ty);
                }
                Rhs::Alloc { .. } if env.memory.is_some() => {
                    env.havoc(*var);
                    let t = env.pf.current_term(*var, env.enc, env.program);
                    let mut out = Vec::new();
                    let enc = env.enc;
                    env.pf.memory.allocate(t, enc, &mut out);
                    env.pf.conjuncts.extend(out);
                }
                // Without a memory model, a read of memory or a new object
                // is an unconstrained new version.
                Rhs::Nondet(_) | Rhs::Load { .. } | Rhs::Alloc { .. } => env.havoc(*var),
            },
            EdgeKind::Assume { cond, positive } => {
                let enc = env.enc;
                let c = encode_condition(cond, enc, &mut env);
                let c = if *positive { c } else { Term::not(c) };
                if c == Term::bool(false) {
                    return None;
                }
                if c != Term::bool(true) {
                    env.pf.conjuncts.push(c);
                }
            }
            EdgeKind::Call { callee, args, .. } => {
                let params = self.program.functions.get(callee.0 as usize).map(|f| f.params.clone()).unwrap_or_default();
                let values: Vec<(Term, IntType)> = args.iter().map(|a| (env.value(a), a.ty())).collect();
                let vars = self.program.frame_variables(*callee);
                let saved: BTreeMap<VarId, Option<u32>> =
                    vars.iter().map(|v| (*v, Some(env.pf.current.get(v).copied().unwrap_or(0)))).collect();
                env.pf.frames.push(saved);
                for v in &vars {
                    env.havoc(*v);
                }
                for (p, (t, ty)) in params.into_iter().zip(values) {
                    env.assign(p, t, ty);
                }
            }
            EdgeKind::Return { callee, result, .. } => {
                let ret = self.program.functions.get(callee.0 as usize).and_then(|f| f.ret);
                let value = match (result, ret) {
                    (Some(_), Some(r)) => Some((env.pf.current_term(r, env.enc, self.program), var_type(self.program, r))),
                    _ => None,
                };
                if let Some(saved) = env.pf.frames.pop() {
                    for (v, k) in saved {
                        match k {
                            Some(k) => {
                                env.pf.current.insert(v, k);
                            }
                            None => env.havoc(v),
                        }
                    }
                }
                if let (Some(res), Some((t, ty))) = (result, value) {
                    env.assign(*res, t, ty);
                }
            }
            EdgeKind::ReturnStatement { value } => {
                let slot = self.program.return_slot_at(edge.source);
                if let Some(slot) = slot {
                    match value {
                        Some(e) => {
                            let t = env.value(e);
                            env.assign(slot, t, e.ty());
                        }
                        None => env.havoc(slot),
                    }
                }
            }
        }
        Some(next)
    }
}

/// The range constraints of the block-start versions (`v@0`) that occur in
/// `terms`: values a variable can hold under the run's integer model.
pub fn block_start_ranges<'a>(terms: impl IntoIterator<Item = &'a Term>, program: &Program, enc: Encoding) -> Vec<Term> {
    let mut out = Vec::new();
    for name in smt::term::var_names(terms) {
        if let Some((v, 0)) = parse_ssa_name(&name) {
            let ty = var_type(program, v);
            let r = enc.range_constraint(&Term::var(&name, enc.sort(ty)), ty);
            if r != Term::bool(true) {
                out.push(r);
            }
        }
    }
    out
}
