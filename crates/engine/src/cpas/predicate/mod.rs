//! The Predicate CPA (CPAchecker's `cpa.predicate.PredicateCPA`):
//! predicate abstraction with adjustable-block encoding (Beyer,
//! Keremoglu, Wendler 2010) and lazy abstraction.
//!
//! An abstract state is a pair (ψ, φ):
//!
//! * ψ, the **abstraction formula** — a Boolean combination of the
//!   location's predicates ([`abstraction::Region`]), computed at the last
//!   *block end*;
//! * φ, the **path formula** — the strongest postcondition of the edges
//!   since then, in SSA form ([`pathformula::PathFormula`]), no solver
//!   involved.
//!
//! Block ends (`cpa.predicate.blk.*`): loop heads (`alwaysAtLoops`,
//! default true), function entries and return sites
//! (`alwaysAtFunctions`), function entries only (`alwaysAtFunctionHeads`),
//! entries of recursive calls (`alwaysAtRecursion`, default true: calls
//! along a cycle of the call graph, so a recursion gets abstractions that
//! can cut off deeper calls and a place for CEGAR's predicates when a path
//! into `cpa.callstack.depth` is refuted, see [`crate::cegar`]),
//! every `threshold` edges (0 = off), and always the error location. The
//! transfer to a block end computes the abstraction there
//! ([`abstraction::Problem::compute`]: ψ' = the Boolean or Cartesian
//! abstraction of ψ ∧ φ over the predicates the precision gives that
//! location) and starts a new block (φ = true); ψ' = false means the block
//! is infeasible: no successor. (CPAchecker computes it in the precision
//! adjustment; here the transfer does, so solver queries can park the run
//! as every transfer's do, see [`crate::solver`].)
//!
//! * ⊑: between abstraction states, ψ ⇒ ψ' decided propositionally over
//!   the predicates (as CPAchecker's BDDs); between states inside a block,
//!   the same ψ and the same φ, or φ was merged into φ' (a disjunct of
//!   it). Stop is stop^sep with it, so a state merged into a reached one is
//!   covered by the merge result. Each covering `Stop` event says which
//!   check decided ([`coverage_check`]).
//!
//!   Why not ask the solver whether ψ ⇒ ψ' modulo the theory? Propositional
//!   implication is sound (it implies theory implication), and for Boolean
//!   abstractions over one location's predicates it is also complete: the
//!   all-SAT enumeration only yields cubes consistent in the theory, so
//!   `x < 3` comes with `x < 5` whenever both are predicates there.
//!   It can miss a coverage only for Cartesian abstractions or regions
//!   computed under different precisions — a lost coverage costs states,
//!   never soundness. And the stop operator cannot wait for a solver: only
//!   a transfer can park the run on a query ([`crate::solver`]), which the
//!   page's Z3 needs to answer without blocking.
//! * Merge (`cpa.predicate.merge = ABE | SEP`): inside a block, states
//!   with the same ψ are merged by φ ∨ φ' (ABE); abstraction states are
//!   never merged.
//! * Soundness: φ is exact (the encoding wraps every C result under the
//!   `c` model, over-approximates only with fresh values), ψ' is implied
//!   by ψ ∧ φ (every `unknown` answer weakens it), so γ only grows.

pub mod abstraction;
pub mod memory;
pub mod pathformula;
pub mod precision;

use crate::cpa::{AbstractDomain, Cpa, MergeKind, MergeOperator, StopOperator, StopSep, TransferError, TransferRelation};
use crate::solver::SolverOracle;
use crate::state_view::{ComponentView, ViewContent};
use abstraction::{base_constraints, instantiate_at, AbstractionKind, Problem, Region};
use cfa::{Edge, EdgeKind, NodeId, NodeKind, Program};
use pathformula::{parse_ssa_name, parse_var_name, PathFormula, PathFormulaBuilder};
use precision::PredicatePrecision;
use smt::{Encoding, Term};
use std::sync::Arc;

/// Where blocks end (`cpa.predicate.blk.*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BlockOptions {
    /// `alwaysAtLoops`: at loop heads.
    pub at_loops: bool,
    /// `alwaysAtFunctions`: at function entries and at return sites.
    pub at_functions: bool,
    /// `alwaysAtFunctionHeads`: at function entries.
    pub at_function_heads: bool,
    /// `threshold`: after this many edges (0 = never).
    pub threshold: u32,
    /// `alwaysAtRecursion`: at the entry of a function called along a
    /// cycle of the call graph (a recursive call), so each activation of a
    /// recursion starts a block: its abstraction can refute a deeper call,
    /// and refinement puts predicates there that bound the recursion.
    pub at_recursion: bool,
    /// `cpa.predicate.memoryRegions`: not where blocks end but how a
    /// block's path formula encodes memory (see [`memory`]); here so the
    /// refiner cuts and encodes an error path exactly as the analysis
    /// did. `None`: memory is not modelled (a load is an arbitrary value).
    pub memory_regions: Option<cfa::RegionModel>,
}

impl Default for BlockOptions {
    fn default() -> Self {
        BlockOptions {
            at_loops: true,
            at_functions: false,
            at_function_heads: false,
            threshold: 0,
            at_recursion: true,
            memory_regions: Some(cfa::RegionModel::default()),
        }
    }
}

impl BlockOptions {
    /// Whether the transfer along `edge` ends a block (its target is an
    /// abstraction location), `length` edges into the block.
    pub fn ends_block(&self, program: &Program, edge: &Edge, length: u32) -> bool {
        let Some(target) = program.nodes.get(edge.target.0 as usize) else { return false };
        if target.error {
            return true;
        }
        if self.at_loops && target.loop_head {
            return true;
        }
        if (self.at_functions || self.at_function_heads)
            && target.kind == NodeKind::Entry
            && matches!(edge.kind, EdgeKind::Call { .. })
        {
            return true;
        }
        if self.at_functions && matches!(edge.kind, EdgeKind::Return { .. }) {
            return true;
        }
        if let EdgeKind::Call { callee, .. } = edge.kind {
            if self.at_recursion && target.kind == NodeKind::Entry {
                let caller = program.nodes.get(edge.source.0 as usize).map(|n| n.function);
                if caller.is_some_and(|caller| calls_reach(program, callee, caller)) {
                    return true;
                }
            }
        }
        self.threshold > 0 && length >= self.threshold
    }
}

/// Whether `from` reaches `to` in the call graph (`from == to` counts):
/// a call from `to` to `from` then lies on a cycle, a recursion.
pub fn calls_reach(program: &Program, from: cfa::FuncId, to: cfa::FuncId) -> bool {
    let mut seen = vec![false; program.functions.len()];
    let mut stack = vec![from];
    while let Some(f) = stack.pop() {
        if f == to {
            return true;
        }
        match seen.get_mut(f.0 as usize) {
            Some(s) if !*s => *s = true,
            _ => continue,
        }
        for e in &program.edges {
            if let EdgeKind::Call { callee, .. } = e.kind {
                if program.nodes.get(e.source.0 as usize).is_some_and(|n| n.function == f) {
                    stack.push(callee);
                }
            }
        }
    }
    false
}

/// The options of the Predicate CPA.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PredicateOptions {
    /// Where blocks end.
    pub blocks: BlockOptions,
    /// Boolean or Cartesian abstraction.
    pub kind: AbstractionKind,
    /// Whether states inside a block are merged (ABE) or kept apart.
    pub merge_abe: bool,
    /// The encoding of path formulas.
    pub encoding: Encoding,
}

/// What the last abstraction computation was, for the trace.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AbstractionReport {
    /// The location.
    pub location: NodeId,
    /// The predicates it used (mini-C).
    pub predicates: Vec<String>,
    /// ψ' in mini-C.
    pub result: String,
    /// Boolean or Cartesian.
    pub kind: AbstractionKind,
    /// Queries asked.
    pub queries: u32,
    /// A remark (fallbacks, unknown answers).
    pub note: Option<String>,
    /// The block's path formula φ that was abstracted (mini-C conjuncts).
    pub block: Vec<String>,
}

/// A Predicate state (ψ, φ).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PredicateState {
    /// ψ: the abstraction formula of the last block end.
    pub abstraction: Arc<Region>,
    /// φ: the path formula since then.
    pub path: Arc<PathFormula>,
    /// Whether this state is at a block end (its φ is `true`).
    pub is_abstraction: bool,
    /// For an abstraction state: how ψ was computed.
    pub report: Option<Arc<AbstractionReport>>,
}

impl PredicateState {
    /// The initial state: ψ = true, φ = true, an abstraction state.
    pub fn initial() -> Self {
        PredicateState {
            abstraction: Arc::new(Region::top()),
            path: Arc::new(PathFormula::default()),
            is_abstraction: true,
            report: None,
        }
    }
}

/// The predicate domain: ⊑ as in the module docs.
#[derive(Clone, Copy, Debug, Default)]
pub struct PredicateDomain;

impl AbstractDomain for PredicateDomain {
    type State = PredicateState;
    fn is_less_or_equal(&self, a: &PredicateState, b: &PredicateState) -> bool {
        match (a.is_abstraction, b.is_abstraction) {
            (true, true) => a.path.frames.len() == b.path.frames.len() && a.abstraction.implies(&b.abstraction),
            (false, false) => {
                a.abstraction == b.abstraction && (a.path == b.path || b.path.merged_from.iter().any(|m| **m == *a.path))
            }
            _ => false,
        }
    }
    /// Not used by the merge (which needs the encoding): the less precise
    /// of the two when one covers the other, else `true` with φ = true.
    fn join(&self, a: &PredicateState, b: &PredicateState) -> PredicateState {
        if self.is_less_or_equal(a, b) {
            return b.clone();
        }
        if self.is_less_or_equal(b, a) {
            return a.clone();
        }
        PredicateState {
            abstraction: Arc::new(Region::top()),
            path: Arc::new(a.path.reset()),
            is_abstraction: true,
            report: None,
        }
    }
}

/// merge of ABE: φ ∨ φ' for two states inside a block with the same ψ;
/// merge^sep otherwise.
pub struct PredicateMerge {
    program: Arc<Program>,
    encoding: Encoding,
    abe: bool,
}

impl MergeOperator<PredicateState, Arc<PredicatePrecision>> for PredicateMerge {
    fn kind(&self) -> MergeKind {
        if self.abe {
            MergeKind::Join
        } else {
            MergeKind::Sep
        }
    }
    fn kind_for(&self, new: &PredicateState, reached: &PredicateState) -> MergeKind {
        if self.abe
            && !new.is_abstraction
            && !reached.is_abstraction
            && new.abstraction == reached.abstraction
            && new.path.frames == reached.path.frames
            && new.path != reached.path
        {
            MergeKind::Join
        } else {
            MergeKind::Sep
        }
    }
    fn merge(&self, new: &PredicateState, reached: &PredicateState, _p: &Arc<PredicatePrecision>) -> PredicateState {
        if self.kind_for(new, reached) != MergeKind::Join {
            return reached.clone();
        }
        match reached.path.merge(&new.path, self.encoding, &self.program) {
            Some(path) => PredicateState {
                abstraction: reached.abstraction.clone(),
                path: Arc::new(path),
                is_abstraction: false,
                report: None,
            },
            None => reached.clone(),
        }
    }
}

/// The Predicate CPA.
pub struct PredicateCpa {
    program: Arc<Program>,
    options: PredicateOptions,
    precision: Arc<PredicatePrecision>,
    oracle: Arc<SolverOracle>,
    merge: PredicateMerge,
    stop: StopSep<PredicateDomain>,
}

impl PredicateCpa {
    /// The CPA for `program` with the initial precision `precision`
    /// (empty at the first CEGAR iteration), asking `oracle`.
    pub fn new(
        program: Arc<Program>,
        options: PredicateOptions,
        precision: Arc<PredicatePrecision>,
        oracle: Arc<SolverOracle>,
    ) -> Self {
        let merge = PredicateMerge { program: program.clone(), encoding: options.encoding, abe: options.merge_abe };
        PredicateCpa { program, options, precision, oracle, merge, stop: StopSep(PredicateDomain) }
    }

    /// The options.
    pub fn options(&self) -> &PredicateOptions {
        &self.options
    }

    fn builder(&self) -> PathFormulaBuilder<'_> {
        PathFormulaBuilder { program: &self.program, encoding: self.options.encoding, memory: self.options.blocks.memory_regions }
    }

    /// The abstraction at the block end `loc`: `None` while a query is
    /// pending; a state with ψ' = false when the block is infeasible.
    fn abstract_at(
        &self,
        state: &PredicateState,
        phi: &PathFormula,
        loc: NodeId,
        precision: &PredicatePrecision,
    ) -> Option<PredicateState> {
        let func = self.program.nodes.get(loc.0 as usize).map(|n| n.function).unwrap_or(cfa::FuncId(0));
        let predicates = precision.at(loc, func);
        let enc = self.options.encoding;
        let problem = Problem {
            program: &self.program,
            encoding: enc,
            base: base_constraints(&self.program, enc, &state.abstraction, phi),
            predicates: predicates.iter().map(|p| (p.clone(), instantiate_at(p, phi))).collect(),
            oracle: &self.oracle,
            comment: format!(
                "{} abstraction at {loc} over {} predicate{}{}",
                self.options.kind.name(),
                predicates.len(),
                if predicates.len() == 1 { "" } else { "s" },
                if phi.memory.versions.is_empty() {
                    String::new()
                } else {
                    format!("\n{}{}", memory::RETENTION_COMMENT, phi.memory.retention)
                }
            ),
        };
        let computed = problem.compute(self.options.kind)?;
        let report = AbstractionReport {
            location: loc,
            predicates: predicates.iter().map(|p| show_predicate(&self.program, p)).collect(),
            result: show_region(&self.program, &computed.region),
            kind: computed.kind,
            queries: computed.queries,
            note: computed.note,
            block: phi.conjuncts.iter().map(|c| show_ssa(&self.program, c)).collect(),
        };
        Some(PredicateState {
            abstraction: Arc::new(computed.region),
            path: Arc::new(phi.reset()),
            is_abstraction: true,
            report: Some(Arc::new(report)),
        })
    }
}

impl TransferRelation for PredicateCpa {
    type State = PredicateState;
    type Precision = Arc<PredicatePrecision>;

    fn successors(
        &self,
        state: &PredicateState,
        edge: &Edge,
        precision: &Arc<PredicatePrecision>,
    ) -> Result<Vec<PredicateState>, TransferError> {
        let Some(phi) = self.builder().step(&state.path, edge) else { return Ok(Vec::new()) };
        if !self.options.blocks.ends_block(&self.program, edge, phi.length) {
            return Ok(vec![PredicateState {
                abstraction: state.abstraction.clone(),
                path: Arc::new(phi),
                is_abstraction: false,
                report: None,
            }]);
        }
        match self.abstract_at(state, &phi, edge.target, precision) {
            // Pending: any sound result; it is thrown away.
            None => Ok(vec![state.clone()]),
            Some(s) if s.abstraction.is_false() => Ok(Vec::new()),
            Some(s) => Ok(vec![s]),
        }
    }
}

impl Cpa for PredicateCpa {
    type State = PredicateState;
    type Precision = Arc<PredicatePrecision>;
    fn name(&self) -> &'static str {
        "PredicateCPA"
    }
    fn domain(&self) -> &dyn AbstractDomain<State = PredicateState> {
        &PredicateDomain
    }
    fn transfer_relation(&self) -> &dyn TransferRelation<State = PredicateState, Precision = Arc<PredicatePrecision>> {
        self
    }
    fn merge_operator(&self) -> &dyn MergeOperator<PredicateState, Arc<PredicatePrecision>> {
        &self.merge
    }
    fn stop_operator(&self) -> &dyn StopOperator<PredicateState, Arc<PredicatePrecision>> {
        &self.stop
    }
    fn initial_state(&self, _entry: NodeId) -> PredicateState {
        PredicateState::initial()
    }
    fn initial_precision(&self, _entry: NodeId) -> Arc<PredicatePrecision> {
        self.precision.clone()
    }
    /// BAM: at an abstraction state (φ = true), ψ forgets the predicates
    /// only about variables the block cannot see ([`crate::block::Block::sees`]:
    /// the caller's, or those a loop does not touch; as
    /// CPAchecker's BAM, a predicate relating the caller's and the block's
    /// variables stays): each cube of the DNF drops those literals (∃ over
    /// them, exact for a DNF). Inside
    /// a block (φ ≠ true) ψ and φ stay. The saved versions of suspended
    /// activations other than the block's own go, and so does the report
    /// of how ψ was computed, so calls with the same reduced ψ share one
    /// cache entry.
    fn reduce(&self, state: &PredicateState, _program: &Program, block: &crate::block::Block) -> PredicateState {
        let mut path = (*state.path).clone();
        let keep = path.frames.len().saturating_sub(1);
        path.frames.drain(..keep);
        let abstraction = if state.is_abstraction {
            let visible = |v: cfa::VarId| block.sees(v);
            Arc::new(project(&state.abstraction, &|p| !mentions_none(p, &visible)))
        } else {
            state.abstraction.clone()
        };
        PredicateState { abstraction, path: Arc::new(path), report: None, ..state.clone() }
    }
    /// BAM: the exit state's ψ and φ, ψ conjoined with what the entry's ψ
    /// said about the caller's variables alone (the block cannot change
    /// them; reduce dropped those literals), under the suspended
    /// activations that reduce took away.
    fn expand(
        &self,
        entry: &PredicateState,
        exit: &PredicateState,
        _program: &Program,
        block: &crate::block::Block,
    ) -> PredicateState {
        let mut path = (*exit.path).clone();
        let outer = entry.path.frames.len().saturating_sub(1);
        let mut frames = entry.path.frames[..outer].to_vec();
        frames.append(&mut path.frames);
        path.frames = frames;
        let abstraction = if entry.is_abstraction {
            let visible = |v: cfa::VarId| block.sees(v);
            let caller = project(&entry.abstraction, &|p| mentions_none(p, &visible));
            Arc::new(conjoin(&exit.abstraction, &caller))
        } else {
            exit.abstraction.clone()
        };
        PredicateState { abstraction, path: Arc::new(path), ..exit.clone() }
    }
    fn solver_oracle(&self) -> Option<Arc<SolverOracle>> {
        Some(self.oracle.clone())
    }
    fn view(&self, state: &PredicateState) -> ComponentView {
        ComponentView {
            cpa: "PredicateCPA".into(),
            content: ViewContent::Predicate {
                abstraction: show_region(&self.program, &state.abstraction),
                path: state.path.conjuncts.iter().map(|c| show_ssa(&self.program, c)).collect(),
                abstraction_state: state.is_abstraction,
                block_length: state.path.length,
                predicates: state.report.as_ref().map(|r| r.predicates.clone()).unwrap_or_default(),
                memory: memory_view(&self.program, &state.path.memory),
            },
        }
    }
    fn block_precision_key(
        &self,
        precision: &Arc<PredicatePrecision>,
        program: &Program,
        functions: &std::collections::BTreeSet<cfa::FuncId>,
    ) -> String {
        precision.block_key(program, functions)
    }
    fn describe_precision(&self, precision: &Arc<PredicatePrecision>) -> String {
        precision.describe(&self.program)
    }
    fn coverage_check(&self, covered: &PredicateState, covering: &PredicateState) -> Option<String> {
        coverage_check(covered, covering).map(String::from)
    }
    fn abstraction_report(&self, state: &PredicateState) -> Option<crate::state_view::AbstractionView> {
        let r = state.report.as_ref()?;
        Some(crate::state_view::AbstractionView {
            location: r.location,
            kind: r.kind.name().into(),
            predicates: r.predicates.clone(),
            result: r.result.clone(),
            queries: r.queries,
            note: r.note.clone().unwrap_or_default(),
            block: r.block.clone(),
        })
    }
    /// Abstraction states by the number of frames; inside-block states
    /// apart (they are only ⊑ when equal).
    fn index_shape(&self, state: &PredicateState) -> Vec<u32> {
        vec![state.is_abstraction as u32, state.path.frames.len() as u32]
    }
    fn index_may_cover(&self, covered: &[u32], covering: &[u32]) -> bool {
        covered == covering
    }
}

/// How [`PredicateDomain`] decides `covered ⊑ covering`, in words for the
/// `Stop` event (`None` when it does not hold): syntactic equality of the
/// abstraction formulas, propositional implication over the predicates,
/// or — inside a block — equal or merged path formulas. Never the solver
/// (see the module docs).
pub fn coverage_check(covered: &PredicateState, covering: &PredicateState) -> Option<&'static str> {
    if !PredicateDomain.is_less_or_equal(covered, covering) {
        return None;
    }
    Some(match (covered.is_abstraction, covered.abstraction == covering.abstraction, covered.path == covering.path) {
        (true, true, _) => "syntactic equality of the abstractions (ψ = ψ')",
        (true, false, _) => "propositional implication over the predicates (ψ ⇒ ψ')",
        (false, _, true) => "syntactic equality (same ψ, same path formula φ)",
        (false, _, false) => "syntactic: same ψ, and φ is a disjunct of the merged φ'",
    })
}

/// A predicate (unindexed term) in mini-C: `x <= y`.
pub fn show_predicate(program: &Program, p: &Term) -> String {
    p.rename(&|n| parse_var_name(n).map(|v| Arc::from(variable_label(program, v).as_str()))).pretty()
}

/// A path-formula term in mini-C with SSA versions as subscripts: `x₂ == x₁ + 1`.
pub fn show_ssa(program: &Program, t: &Term) -> String {
    const SUB: [char; 10] = ['₀', '₁', '₂', '₃', '₄', '₅', '₆', '₇', '₈', '₉'];
    t.rename(&|n| {
        if let Some((v, k)) = parse_ssa_name(n) {
            let sub: String = k.to_string().chars().map(|d| SUB[d.to_digit(10).unwrap_or(0) as usize]).collect();
            return Some(Arc::from(format!("{}{sub}", variable_label(program, v)).as_str()));
        }
        n.strip_prefix("fresh@").map(|k| Arc::from(format!("nondet{k}").as_str()))
    })
    .pretty()
}

/// The memory part of a path formula for the state inspector: per region,
/// its known cells as `(address, value)` in mini-C.
fn memory_view(program: &Program, memory: &memory::Memory) -> Vec<crate::state_view::RegionCellsView> {
    memory
        .regions
        .iter()
        .map(|(region, cells)| crate::state_view::RegionCellsView {
            region: region.clone(),
            stores: memory.versions.get(region).copied().unwrap_or(0),
            cells: cells.iter().map(|c| (show_ssa(program, &c.addr), show_ssa(program, &c.value))).collect(),
        })
        .collect()
}

/// An abstraction formula in mini-C (`true`, `false`, `x <= y && !(y < 0)`).
pub fn show_region(program: &Program, r: &Region) -> String {
    show_predicate(program, &r.to_term())
}

/// A variable's qualified name for display (`x`, `main::i` shown as `i`
/// when unambiguous is left to the page; here the qualified name).
fn variable_label(program: &Program, v: cfa::VarId) -> String {
    program.variables.get(v.0 as usize).map(|x| x.qualified.clone()).unwrap_or_else(|| format!("v{}", v.0))
}

/// Whether no program variable of the predicate `p` is `visible` (and it
/// has at least one: a constant predicate is kept by reduce instead).
fn mentions_none(p: &Term, visible: &dyn Fn(cfa::VarId) -> bool) -> bool {
    let vars = p.vars();
    !vars.is_empty() && vars.keys().all(|n| parse_var_name(n).is_some_and(|v| !visible(v)))
}

/// The region with only the literals whose predicates `keep` accepts (the
/// others existentially quantified: dropped from every cube).
fn project(r: &Region, keep: &dyn Fn(&Term) -> bool) -> Region {
    let mut cubes: Vec<Vec<abstraction::Literal>> =
        r.cubes.iter().map(|c| c.iter().filter(|(p, _)| keep(p)).cloned().collect()).collect();
    cubes.sort();
    cubes.dedup();
    if cubes.iter().any(Vec::is_empty) {
        return Region::top();
    }
    Region { cubes }
}

/// The conjunction of two regions (the cubes' pairwise unions, without
/// the contradictory ones).
fn conjoin(a: &Region, b: &Region) -> Region {
    if b.is_true() {
        return a.clone();
    }
    let mut cubes = Vec::new();
    for x in &a.cubes {
        'pair: for y in &b.cubes {
            let mut cube = x.clone();
            for (p, pos) in y {
                match cube.iter().find(|(q, _)| q == p) {
                    Some((_, v)) if v != pos => continue 'pair,
                    Some(_) => {}
                    None => cube.push((p.clone(), *pos)),
                }
            }
            cube.sort();
            cubes.push(cube);
        }
    }
    cubes.sort();
    cubes.dedup();
    Region { cubes }
}
