//! CEGAR's refinement for predicate analysis: from an infeasible error
//! path to new predicates at the path's abstraction locations, through
//! *sequence interpolants* computed by quantifier elimination (lazy
//! abstraction with interpolants: Henzinger, Jhala, Majumdar, McMillan).
//!
//! The path is cut at its block ends (the same `cpa.predicate.blk.*` rule
//! the analysis used) into block formulas B₁ … Bₘ over one SSA numbering
//! ([`PathFormulaBuilder`]); B₁ ∧ … ∧ Bₘ is unsatisfiable. At cut i the
//! variables shared by the prefix and the suffix are the SSA versions
//! current there. A sequence I₁ … Iₘ₋₁ with B₁ ⇒ I₁, Iᵢ ∧ Bᵢ₊₁ ⇒ Iᵢ₊₁ and
//! Iₘ₋₁ ∧ Bₘ unsatisfiable is computed inductively, one quantifier
//! elimination per cut (`(apply (then qe simplify))`, which both the native
//! z3 and the page's z3-solver answer):
//!
//! * **STRONGEST** (forwards): Sᵢ = ∃ (not shared). Sᵢ₋₁ ∧ Bᵢ — the
//!   strongest postconditions;
//! * **WEAKEST** (backwards, the default): Wᵢ = ¬∃ (not shared).
//!   Bᵢ₊₁ ∧ ¬Wᵢ₊₁ with Wₘ = false — the weakest preconditions of the
//!   error; they often generalize better (for `x == y` after a lockstep
//!   prefix the strongest gives `x == 1 && y == 1`, the weakest `x == y`).
//! * **Z3** (forwards, for comparison, native only): Zᵢ = z3's own
//!   interpolant `(get-interpolant (Zᵢ₋₁ ∧ Bᵢ) (Bᵢ₊₁ ∧ … ∧ Bₘ))`, which
//!   Debian's z3 4.8 answers; the page's Z3 answers `unsupported`, so
//!   there every cut fails and the refinement falls back to WEAKEST
//!   ([`next_attempt`]).
//!
//! The atoms of each interpolant, with SSA versions dropped, become
//! predicates of the cut's location (or function, or everywhere:
//! `cpa.predicate.refinement.sharePredicates`). The solver's answers are
//! parsed into this project's own terms ([`smt::parse_qe_answer`]), so the
//! command line and the page derive the same predicates from the same
//! answers. A failed elimination leaves its cut without predicates (the
//! refinement may then make no progress: UNKNOWN, never unsound).

use crate::cpas::predicate::abstraction::{is_predicate, sort_of_ssa, uninstantiate};
use crate::cpas::predicate::pathformula::{
    block_start_ranges, parse_ssa_name, ssa_name, var_type, PathFormula, PathFormulaBuilder,
};
use crate::cpas::predicate::precision::{PredicatePrecision, PredicateScope};
use crate::cpas::predicate::{show_predicate, show_ssa, BlockOptions};
use crate::trace::{InterpolantView, PredicateEntry};
use cfa::{EdgeId, FuncId, NodeId, Program};
use smt::{Elimination, Encoding, QeAnswer, Term};
use std::collections::BTreeSet;
use std::sync::Arc;

/// How interpolants are computed (`cpa.predicate.refinement.interpolation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Backwards: ¬∃. suffix.
    Weakest,
    /// Forwards: ∃. prefix.
    Strongest,
    /// Forwards: z3's `(get-interpolant A B)` (native z3 only).
    Z3,
}

impl Direction {
    /// The option value.
    pub fn parse(s: &str) -> Direction {
        if s.eq_ignore_ascii_case("STRONGEST") {
            Direction::Strongest
        } else if s.eq_ignore_ascii_case("Z3") {
            Direction::Z3
        } else {
            Direction::Weakest
        }
    }
    /// `WEAKEST`, `STRONGEST` or `Z3`.
    pub fn name(self) -> &'static str {
        match self {
            Direction::Weakest => "WEAKEST",
            Direction::Strongest => "STRONGEST",
            Direction::Z3 => "Z3",
        }
    }
}

impl Direction {
    /// The other direction (after z3's interpolants: WEAKEST).
    pub fn other(self) -> Direction {
        match self {
            Direction::Weakest => Direction::Strongest,
            Direction::Strongest | Direction::Z3 => Direction::Weakest,
        }
    }
}

/// The interpolation to try after `done` found no new predicate, if any:
/// over mathematical integers in the `configured` direction, then over the
/// `exact` encoding (a path infeasible only by an overflow — C's wrapped
/// `x == 2 * y`), then both in the other direction (the two see different
/// atoms: WEAKEST the error's precondition, STRONGEST the initial values —
/// a loop whose first iteration differs needs both). The encoding is
/// switched first: the other direction over mathematical integers can keep
/// finding new constant bounds (`y <= 7`, `y <= 8`, …) on a path that only
/// the wrapped encoding refutes once and for all.
pub fn next_attempt(configured: Direction, exact: Encoding, done: (Encoding, Direction)) -> Option<(Encoding, Direction)> {
    let math = Encoding::wrapped(minic::IntModel::Math);
    let mut order = vec![(math, configured)];
    if exact != math {
        order.push((exact, configured));
    }
    order.push((math, configured.other()));
    if exact != math {
        order.push((exact, configured.other()));
    }
    let at = order.iter().position(|a| *a == done)?;
    order.get(at + 1).copied()
}

/// One cut of the error path: an abstraction location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cut {
    /// The path position of the edge that ends the block (0-based).
    pub position: usize,
    /// That edge.
    pub edge: EdgeId,
    /// The abstraction location (the edge's target).
    pub location: NodeId,
    /// Its function.
    pub function: FuncId,
    /// The SSA names current there (shared by prefix and suffix).
    pub shared: BTreeSet<Arc<str>>,
}

/// The error path cut into blocks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockPath {
    /// B₁ … Bₘ, each a list of conjuncts.
    pub blocks: Vec<Vec<Term>>,
    /// The m − 1 cuts between them.
    pub cuts: Vec<Cut>,
    /// The retention disjuncts of memory stores in each block (see
    /// [`crate::cpas::predicate::memory`]).
    pub retention: Vec<u32>,
}

/// Cuts `path` (edges from `main`'s entry) into blocks as the analysis did.
pub fn block_path(program: &Program, path: &[EdgeId], blocks: BlockOptions, enc: Encoding) -> BlockPath {
    cut_path(program, path, enc, blocks.memory_regions, &|_, edge, length| blocks.ends_block(program, edge, length))
}

/// Cuts `path` after the edges at the given `positions` (0-based; the
/// last edge is never a cut): the abstraction points of symbolic
/// execution with predicate abstraction.
pub fn block_path_at(program: &Program, path: &[EdgeId], positions: &[usize], enc: Encoding) -> BlockPath {
    cut_path(program, path, enc, None, &|i, _, _| positions.contains(&i))
}

/// Cuts `path` after each edge `i` for which `is_cut(i, edge, block length)`.
/// Memory (when `memory` models it) is forgotten at each cut, as the
/// analysis forgets it at an abstraction, so no memory cell is shared
/// between blocks.
fn cut_path(
    program: &Program,
    path: &[EdgeId],
    enc: Encoding,
    memory: Option<cfa::RegionModel>,
    is_cut: &dyn Fn(usize, &cfa::Edge, u32) -> bool,
) -> BlockPath {
    let builder = PathFormulaBuilder { program, encoding: enc, memory };
    let mut pf = PathFormula::default();
    let mut out = BlockPath { blocks: vec![Vec::new()], cuts: Vec::new(), retention: Vec::new() };
    let mut taken = 0;
    for (i, id) in path.iter().enumerate() {
        let Some(edge) = program.edges.get(id.0 as usize) else { continue };
        match builder.step(&pf, edge) {
            Some(next) => pf = next,
            None => {
                pf.conjuncts.push(Term::bool(false));
                pf.length += 1;
            }
        }
        let last = i + 1 == path.len();
        if !last && is_cut(i, edge, pf.length) {
            let current = out.blocks.last_mut().expect("one block");
            current.extend(pf.conjuncts[taken..].iter().cloned());
            taken = pf.conjuncts.len();
            let shared = program
                .variables
                .iter()
                .map(|v| Arc::from(ssa_name(v.id, pf.current.get(&v.id).copied().unwrap_or(0)).as_str()))
                .collect();
            let function = program.nodes.get(edge.target.0 as usize).map(|n| n.function).unwrap_or(FuncId(0));
            out.cuts.push(Cut { position: i, edge: *id, location: edge.target, function, shared });
            out.blocks.push(Vec::new());
            pf.length = 0;
            out.retention.push(pf.memory.retention);
            pf.memory = crate::cpas::predicate::memory::Memory { cells: pf.memory.cells, ..Default::default() };
        }
    }
    out.blocks.last_mut().expect("one block").extend(pf.conjuncts[taken..].iter().cloned());
    out.retention.push(pf.memory.retention);
    out
}

/// The comment line reporting a query's retention disjuncts (with its
/// leading newline), empty when there are none.
fn retention_line(n: u32) -> String {
    if n == 0 {
        String::new()
    } else {
        format!("\n{}{n}", crate::cpas::predicate::memory::RETENTION_COMMENT)
    }
}

/// z3's answer to `(get-interpolant A B)`: one Boolean term; an error,
/// `unsupported` (the page's Z3) or anything else is a failure.
fn parse_interpolant(output: &str, sort_of: &dyn Fn(&str) -> Option<smt::Sort>) -> QeAnswer {
    let text = output.trim();
    if text.is_empty() {
        return QeAnswer::Failed("the solver printed nothing".into());
    }
    if text.starts_with("(error") || text == "unsupported" || text == "unknown" {
        return QeAnswer::Failed(format!("the solver answered `{}`", text.lines().next().unwrap_or(text)));
    }
    match smt::parse_term(text, sort_of) {
        Ok(t) if t.sort() == smt::Sort::Bool => QeAnswer::Formula(t),
        Ok(_) => QeAnswer::Failed("the interpolant is not a formula".into()),
        Err(e) => QeAnswer::Failed(format!("unreadable interpolant: {e}")),
    }
}

/// A refinement in progress: one quantifier elimination per cut, asked
/// one at a time (so the page can park on each).
#[derive(Clone, Debug)]
pub struct InterpolationJob {
    program: Arc<Program>,
    enc: Encoding,
    direction: Direction,
    path: BlockPath,
    /// The cut whose interpolant the next query computes.
    next: usize,
    /// The interpolant of each cut, once computed (SSA terms).
    interpolants: Vec<Option<Term>>,
    /// Why a cut has none.
    failures: Vec<String>,
    /// The previous interpolant of the induction (Sᵢ₋₁ or Wᵢ₊₁).
    previous: Term,
    /// The time each elimination may take (`None`: no limit).
    budget_ms: Option<u64>,
}

impl InterpolationJob {
    /// The job for the infeasible `path`.
    pub fn new(program: Arc<Program>, path: &[EdgeId], blocks: BlockOptions, enc: Encoding, direction: Direction) -> Self {
        let bp = block_path(&program, path, blocks, enc);
        Self::for_blocks(program, bp, enc, direction)
    }

    /// The job for the infeasible `path` cut at explicit `positions` (see
    /// [`block_path_at`]), for symbolic execution's abstraction points.
    pub fn with_cuts(program: Arc<Program>, path: &[EdgeId], positions: &[usize], enc: Encoding, direction: Direction) -> Self {
        let bp = block_path_at(&program, path, positions, enc);
        Self::for_blocks(program, bp, enc, direction)
    }

    fn for_blocks(program: Arc<Program>, bp: BlockPath, enc: Encoding, direction: Direction) -> Self {
        let n = bp.cuts.len();
        let (next, previous) = match direction {
            Direction::Strongest | Direction::Z3 => (0, Term::bool(true)),
            Direction::Weakest => (n.wrapping_sub(1), Term::bool(false)),
        };
        InterpolationJob {
            program,
            enc,
            direction,
            path: bp,
            next,
            interpolants: vec![None; n],
            failures: Vec::new(),
            previous,
            budget_ms: None,
        }
    }

    /// The job with each elimination limited to `ms` milliseconds (0: no
    /// limit; `cpa.predicate.refinement.eliminationTimeMs`). One that runs
    /// out fails like any other: its cut gets no predicates, and when the
    /// refinement then finds nothing new the next attempt runs
    /// ([`next_attempt`]) instead of the refinement waiting for an
    /// elimination over C's wrap-around that may not finish.
    pub fn with_elimination_budget(mut self, ms: u64) -> Self {
        self.budget_ms = (ms > 0).then_some(ms);
        self
    }

    /// The blocks and cuts.
    pub fn block_path(&self) -> &BlockPath {
        &self.path
    }

    /// The encoding of the block formulas.
    pub fn encoding(&self) -> Encoding {
        self.enc
    }

    /// The direction.
    pub fn direction(&self) -> Direction {
        self.direction
    }

    fn done(&self) -> bool {
        self.next >= self.path.cuts.len()
    }

    /// The elimination the next query asks, `None` when all cuts are done.
    pub fn next_elimination(&self) -> Option<Elimination> {
        if self.done() {
            return None;
        }
        let i = self.next;
        let cut = &self.path.cuts[i];
        let block = match self.direction {
            Direction::Strongest | Direction::Z3 => i,
            Direction::Weakest => i + 1,
        };
        let retention = self.path.retention.get(block).copied().unwrap_or(0);
        let mut conj: Vec<Term> = match self.direction {
            Direction::Strongest | Direction::Z3 => {
                let mut c = vec![self.previous.clone()];
                c.extend(self.path.blocks[i].iter().cloned());
                c
            }
            Direction::Weakest => {
                let mut c = self.path.blocks[i + 1].clone();
                c.push(Term::not(self.previous.clone()));
                c
            }
        };
        let ranges = block_start_ranges(conj.iter(), &self.program, self.enc);
        conj.extend(ranges);
        for name in smt::term::var_names(conj.iter()) {
            if let Some((v, _)) = parse_ssa_name(&name) {
                if cut.shared.contains(&name) {
                    let ty = var_type(&self.program, v);
                    let r = self.enc.range_constraint(&Term::var(&name, self.enc.sort(ty)), ty);
                    if r != Term::bool(true) && !conj.contains(&r) {
                        conj.push(r);
                    }
                }
            }
        }
        let formula = Term::and(conj);
        let eliminate: BTreeSet<Arc<str>> = formula.vars().into_keys().filter(|n| !cut.shared.contains(n)).collect();
        Some(Elimination {
            formula,
            eliminate,
            comment: Some(
                format!(
                    "{} interpolant at {} (cut {} of {} of the error path, {})",
                    self.direction.name(),
                    cut.location,
                    i + 1,
                    self.path.cuts.len(),
                    if self.enc.model == minic::IntModel::C { "C integers" } else { "mathematical integers" }
                ) + &retention_line(retention),
            ),
        })
    }

    /// The next query's SMT-LIB2 script, `None` when all cuts are done:
    /// the elimination's, or for [`Direction::Z3`] a `get-interpolant` of
    /// the same prefix formula against the rest of the path.
    pub fn next_query(&self) -> Option<String> {
        let e = self.next_elimination()?;
        if self.direction != Direction::Z3 {
            return Some(e.to_smtlib_within(self.budget_ms));
        }
        let mut rest: Vec<Term> = self.path.blocks[self.next + 1..].iter().flatten().cloned().collect();
        let ranges = block_start_ranges(rest.iter(), &self.program, self.enc);
        rest.extend(ranges);
        let b = Term::and(rest);
        let comment = e.comment.unwrap_or_default().replacen("Z3 interpolant", "z3's own interpolant", 1);
        let mut script: String = comment.lines().map(|l| format!("; {l}\n")).collect();
        for (name, sort) in smt::term::vars_of([&e.formula, &b]) {
            script.push_str(&format!("(declare-fun {} () {sort})\n", Term::var(&name, sort)));
        }
        script.push_str(&format!("(get-interpolant {} {b})\n", e.formula));
        Some(script)
    }

    /// Takes the solver's output for [`Self::next_query`] and moves on;
    /// returns what the solver log shows as its answer (`eliminated: …` in
    /// mini-C, or `failed: …`; empty when no query was pending).
    pub fn answer(&mut self, output: &str) -> String {
        if self.done() {
            return String::new();
        }
        let sort_of = sort_of_ssa(&self.program, self.enc);
        let i = self.next;
        let answer = if output.len() > MAX_INTERPOLANT_TEXT {
            QeAnswer::Failed(format!("the eliminated formula is too large ({} characters)", output.len()))
        } else {
            let parsed = if self.direction == Direction::Z3 {
                parse_interpolant(output, &sort_of)
            } else {
                smt::parse_qe_answer(output, &sort_of)
            };
            match parsed {
                QeAnswer::Formula(t) if !within_size(&t, MAX_INTERPOLANT_NODES) => QeAnswer::Failed(format!(
                    "the eliminated formula is too large (more than {MAX_INTERPOLANT_NODES} term nodes)"
                )),
                a => a,
            }
        };
        let (result, log) = match answer {
            QeAnswer::Formula(t) => {
                let what = if self.direction == Direction::Z3 { "interpolant" } else { "eliminated" };
                let log = format!("{what}: {}", show_ssa(&self.program, &t));
                let interpolant = match self.direction {
                    Direction::Strongest | Direction::Z3 => t,
                    Direction::Weakest => Term::not(t),
                };
                (Some(interpolant), log)
            }
            QeAnswer::Failed(why) => {
                self.failures.push(format!("cut {}: {why}", i + 1));
                (None, format!("failed: {why}"))
            }
        };
        // A failed elimination breaks the induction: go on from the
        // weakest sound choice (true forwards, false backwards are not
        // sound links, so restart the chain from this cut's block alone).
        self.previous = match (&result, self.direction) {
            (Some(t), _) => t.clone(),
            (None, Direction::Strongest | Direction::Z3) => Term::bool(true),
            (None, Direction::Weakest) => Term::bool(false),
        };
        self.interpolants[i] = result;
        self.next = match self.direction {
            Direction::Strongest | Direction::Z3 => i + 1,
            Direction::Weakest => i.wrapping_sub(1),
        };
        if self.direction == Direction::Weakest && i == 0 {
            self.next = usize::MAX;
        }
        log
    }

    /// The interpolants per cut (SSA terms), once done.
    pub fn interpolants(&self) -> &[Option<Term>] {
        &self.interpolants
    }

    /// Why some eliminations failed.
    pub fn failures(&self) -> &[String] {
        &self.failures
    }

    /// The predicates each cut's interpolant yields (unindexed atoms).
    pub fn predicates(&self) -> Vec<(Cut, Vec<Term>)> {
        self.path
            .cuts
            .iter()
            .zip(&self.interpolants)
            .map(|(cut, it)| (cut.clone(), it.as_ref().map(|t| predicates_of(&self.program, t, &cut.shared)).unwrap_or_default()))
            .collect()
    }

    /// The interpolants for display on the CFA.
    pub fn views(&self) -> Vec<InterpolantView> {
        self.path
            .cuts
            .iter()
            .zip(&self.interpolants)
            .map(|(cut, it)| InterpolantView {
                position: cut.position,
                edge: cut.edge,
                location: cut.location,
                text: match it {
                    Some(t) => show_predicate(&self.program, &uninstantiate(t)),
                    None => "?".into(),
                },
            })
            .collect()
    }

    /// The block formulas in mini-C, for the refinement's explanation.
    pub fn blocks_text(&self) -> Vec<String> {
        self.path.blocks.iter().map(|b| b.iter().map(|c| show_ssa(&self.program, c)).collect::<Vec<_>>().join(" && ")).collect()
    }
}

/// The longest quantifier-elimination answer (characters) a refinement
/// reads: along a path through a recursion the eliminated formulas can grow
/// exponentially, and one that large yields no useful predicate anyway.
pub const MAX_INTERPOLANT_TEXT: usize = 100_000;

/// The most term nodes (counted as a tree, as it is printed) an
/// interpolant may have; a larger one counts as a failed elimination.
pub const MAX_INTERPOLANT_NODES: usize = 20_000;

/// Whether `t`, counted as a tree, has at most `limit` nodes (stops
/// counting at the limit: a shared DAG may be exponentially large).
fn within_size(t: &Term, limit: usize) -> bool {
    fn count(t: &Term, left: &mut usize) -> bool {
        if *left == 0 {
            return false;
        }
        *left -= 1;
        t.args().iter().all(|a| count(a, left))
    }
    let mut left = limit;
    count(t, &mut left)
}

/// The atoms of `t` over the variables in `shared` (a Boolean structure's
/// leaves; negations dropped), as predicates without SSA versions. Atoms
/// that only restate a variable's type range are left out.
pub fn predicates_of(program: &Program, t: &Term, shared: &BTreeSet<Arc<str>>) -> Vec<Term> {
    let mut raw = Vec::new();
    collect_atoms(t, &mut raw);
    let mut atoms = Vec::new();
    for a in raw {
        lift_ite(program, &a, &mut atoms, 8);
    }
    let mut out: Vec<Term> = Vec::new();
    for a in atoms {
        if !a.vars().keys().all(|n| shared.contains(n)) {
            continue;
        }
        if is_range_atom(program, &a) || is_constant_over_range(program, &a) {
            continue;
        }
        // An atom with a shifted `div`/`mod` is reduced and normalised
        // with its non-linear parts as variables; others keep the solver's
        // form (more readable: `x - 2 * (x div 2) == 0`).
        let reduced = normalize_div(&a);
        let canonical = if reduced == a { canonical_atom(&a) } else { canonical_atom_opaque(&reduced) };
        let p = uninstantiate(&canonical);
        if is_predicate(&p, program) && !out.contains(&p) {
            out.push(p);
        }
    }
    out.sort();
    out
}

fn collect_atoms(t: &Term, out: &mut Vec<Term>) {
    use smt::{Node, Op, Sort};
    match t.node() {
        Node::App { op: Op::And | Op::Or | Op::Not, args } => {
            for a in args {
                collect_atoms(a, out);
            }
        }
        Node::App { op: Op::Ite, args } if t.sort() == Sort::Bool => {
            for a in args {
                collect_atoms(a, out);
            }
        }
        Node::App { op: Op::Eq, args } if args.first().is_some_and(|a| a.sort() == Sort::Bool) => {
            for a in args {
                collect_atoms(a, out);
            }
        }
        Node::App { .. } if t.sort() == Sort::Bool => out.push(t.clone()),
        _ => {}
    }
}

/// The atoms of `atom` without `ite` terms inside (the wrap-around of the
/// encoding shows up as `ite(y + 1 > MAX, y + 1 - 2^32, y + 1)` in
/// eliminated formulas): the atom with the `ite` replaced by either branch,
/// and the atoms of its condition, recursively (at most `depth` levels).
fn lift_ite(program: &Program, atom: &Term, out: &mut Vec<Term>, depth: u32) {
    use smt::{Node, Op, Sort};
    fn find_ite(t: &Term) -> Option<Term> {
        match t.node() {
            Node::App { op: Op::Ite, args } if t.sort() != Sort::Bool && args.len() == 3 => Some(t.clone()),
            Node::App { args, .. } => args.iter().find_map(find_ite),
            _ => None,
        }
    }
    fn replace(t: &Term, target: &Term, with: &Term) -> Term {
        if t == target {
            return with.clone();
        }
        match t.node() {
            Node::App { op, args } => Term::app(*op, args.iter().map(|a| replace(a, target, with)).collect()),
            _ => t.clone(),
        }
    }
    let Some(ite) = find_ite(atom).filter(|_| depth > 0) else {
        if !out.contains(atom) {
            out.push(atom.clone());
        }
        return;
    };
    let args = ite.args().to_vec();
    // The encoding's wrap-around, `ite(MAX < t, t - 2^w, …)`: the branches
    // differ by a power of two; follow the one without the wrap (the else
    // branch) only, so an overflow case does not double the predicates.
    if let Some(d) = Term::sub(args[1].clone(), args[2].clone()).as_signed() {
        let m = d.unsigned_abs();
        if m >= 256 && m.is_power_of_two() {
            let a = replace(atom, &ite, &args[2]);
            if a.as_value().is_none() {
                lift_ite(program, &a, out, depth - 1);
            }
            return;
        }
    }
    // A condition that holds for every value of its variable's type
    // (`0 <= x` for an unsigned `x`, from C's division) picks its branch.
    let branches: &[Term] = match constant_truth(program, &args[0]) {
        Some(true) => &args[1..2],
        Some(false) => &args[2..3],
        None => {
            let mut cond_atoms = Vec::new();
            collect_atoms(&args[0], &mut cond_atoms);
            for c in cond_atoms {
                lift_ite(program, &c, out, depth - 1);
            }
            &args[1..]
        }
    };
    for branch in branches {
        let a = replace(atom, &ite, branch);
        if a.as_value().is_none() {
            lift_ite(program, &a, out, depth - 1);
        }
    }
}

/// A linear atom that has the same truth value for every value of its
/// variables' types (`-5 <= y + 1` for an unsigned `y`;
/// `-15032385537 <= x + 2 * y` for `int`s `x` and `y`, a remnant of the
/// wrap-around cases in an interpolant over C's integers): it says nothing
/// a predicate could use. Over one variable it is decided for `<=` and `<`
/// by the two ends of the range (a linear atom's truth set is a
/// half-line), for `=` by whether a solution lies in the range; over
/// several, by the least and greatest value of the linear term over the
/// box of their ranges ([`box_truth`]).
fn is_constant_over_range(program: &Program, a: &Term) -> bool {
    constant_truth(program, a).is_some()
}

/// The truth value `a` has for every value of its variables' types,
/// if it has one (see [`is_constant_over_range`]).
fn constant_truth(program: &Program, a: &Term) -> Option<bool> {
    use smt::{Node, Op, Value};
    if let Node::App { op: Op::Not, args } = a.node() {
        return match args.as_slice() {
            [inner] => constant_truth(program, inner).map(|b| !b),
            _ => None,
        };
    }
    let vars = a.vars();
    if vars.is_empty() || !a.args().iter().all(is_linear) {
        return None;
    }
    if vars.len() > 1 {
        return box_truth(program, a);
    }
    let (name, _) = vars.iter().next()?;
    let ty = symbol_type(program, name)?;
    let at = |x: i128| match a.eval(&|n| (n == &**name).then_some(Value::Int(x))) {
        Some(Value::Bool(b)) => Some(b),
        _ => None,
    };
    match a.node() {
        Node::App { op: Op::Le | Op::Lt, .. } => {
            let (lo, hi) = (at(ty.min_value())?, at(ty.max_value())?);
            (lo == hi).then_some(lo)
        }
        Node::App { op: Op::Eq, args } if args.len() == 2 => {
            // a·x + b = c: solve with two evaluations of the difference.
            let diff = Term::sub(args[0].clone(), args[1].clone());
            let d = |x: i128| match diff.eval(&|n| (n == &**name).then_some(Value::Int(x))) {
                Some(Value::Int(i)) => Some(i),
                _ => None,
            };
            let (d0, d1) = (d(0)?, d(1)?);
            let slope = d1 - d0;
            if slope == 0 {
                return Some(d0 == 0);
            }
            if d0 % slope != 0 {
                return Some(false); // no integer solution
            }
            let x = -d0 / slope;
            (!(ty.min_value()..=ty.max_value()).contains(&x)).then_some(false)
        }
        _ => None,
    }
}

/// The C type of the program variable a symbol names: an SSA name
/// (`main::x@3`) or an unindexed predicate variable (`main::x`).
fn symbol_type(program: &Program, name: &str) -> Option<minic::IntType> {
    let (v, _) = parse_ssa_name(name).or_else(|| crate::cpas::predicate::pathformula::parse_var_name(name).map(|v| (v, 0)))?;
    Some(var_type(program, v))
}

/// The truth value of the linear atom `a` (`<=`, `<` or `=` over several
/// variables) for every point of the box its variables' type ranges span,
/// if it has one: `d = l − r = Σ cᵢ·xᵢ + k` ranges exactly over
/// `[Σ min(cᵢ·loᵢ, cᵢ·hiᵢ) + k, Σ max(…) + k]` (the ranges are
/// independent), so `d <= 0` is always true when the greatest value is at
/// most 0 and always false when the least is above 0. None when some name
/// is not a program variable or an arithmetic step overflows.
fn box_truth(program: &Program, a: &Term) -> Option<bool> {
    use smt::{Node, Op, Value};
    let Node::App { op, args } = a.node() else { return None };
    let [l, r] = args.as_slice() else { return None };
    let d = Term::sub(l.clone(), r.clone());
    let at = |point: &dyn Fn(&str) -> i128| match d.eval(&|n| Some(Value::Int(point(n)))) {
        Some(Value::Int(i)) => Some(i),
        _ => None,
    };
    let k = at(&|_| 0)?;
    let (mut lo, mut hi) = (k, k);
    for name in d.vars().into_keys() {
        let ty = symbol_type(program, &name)?;
        let c = at(&|n| if n == &*name { 1 } else { 0 })?.checked_sub(k)?;
        let (x, y) = (c.checked_mul(ty.min_value())?, c.checked_mul(ty.max_value())?);
        lo = lo.checked_add(x.min(y))?;
        hi = hi.checked_add(x.max(y))?;
    }
    match op {
        Op::Le if hi <= 0 => Some(true),
        Op::Le if lo > 0 => Some(false),
        Op::Lt if hi < 0 => Some(true),
        Op::Lt if lo >= 0 => Some(false),
        Op::Eq if lo == 0 && hi == 0 => Some(true),
        Op::Eq if lo > 0 || hi < 0 => Some(false),
        _ => None,
    }
}

/// `t` with the constant of each `div`/`mod` by a positive constant k
/// reduced below k: `(-x - 2) div 2` becomes `(-x) div 2 - 1` and
/// `(x + 5) mod 2` becomes `(x + 1) mod 2` (SMT-LIB's division is
/// Euclidean, so `(a + q·k) div k = a div k + q`). The interpolants of a
/// loop unrolled once more differ only in such shifted constants; reduced,
/// the linear normalisation ([`canonical_atom_opaque`]) makes them equal.
fn normalize_div(t: &Term) -> Term {
    use smt::{Node, Op};
    let Node::App { op, args } = t.node() else { return t.clone() };
    let args: Vec<Term> = args.iter().map(normalize_div).collect();
    if let (Op::Div | Op::Mod, [a, k]) = (op, args.as_slice()) {
        if let (Some(k), Some((c, rest))) = (k.as_signed().filter(|k| *k > 0), split_constant(a)) {
            let (q, r) = (c.div_euclid(k), c.rem_euclid(k));
            if q != 0 {
                let reduced = if r == 0 { rest } else { Term::add(rest, Term::int(r)) };
                return match op {
                    Op::Div => Term::add(Term::div(reduced, Term::int(k)), Term::int(q)),
                    _ => Term::modulo(reduced, Term::int(k)),
                };
            }
        }
    }
    Term::app(*op, args)
}

/// A linear term as (its constant, the term without it), when it has a
/// nonzero constant and at least one variable.
fn split_constant(t: &Term) -> Option<(i128, Term)> {
    use smt::Value;
    if !is_linear(t) || t.vars().is_empty() {
        return None;
    }
    let c = match t.eval(&|_| Some(Value::Int(0))) {
        Some(Value::Int(c)) if c != 0 => c,
        _ => return None,
    };
    let mut rest = Term::int(0);
    for (name, sort) in t.vars() {
        let coefficient = match t.eval(&|n| Some(Value::Int(if n == &*name { 1 } else { 0 }))) {
            Some(Value::Int(v)) => v - c,
            _ => return None,
        };
        let x = Term::var(&name, sort);
        rest = match coefficient {
            0 => rest,
            1 => Term::add(rest, x),
            -1 => Term::sub(rest, x),
            m => Term::add(rest, Term::mul(Term::int(m), x)),
        };
    }
    Some((c, rest))
}

/// [`canonical_atom`] for atoms with non-linear parts (`x div 2`,
/// `x * y`): each maximal non-linear subterm counts as one variable, so
/// `x + 2 * (x div 2 - 1) <= -3` and `x + 2 * (x div 2) <= -1` read the same.
fn canonical_atom_opaque(a: &Term) -> Term {
    use smt::{Node, Op, Sort};
    fn hide(t: &Term, hidden: &mut Vec<Term>) -> Term {
        match t.node() {
            Node::Int(_) | Node::Var { .. } => t.clone(),
            Node::App { op, args }
                if matches!(op, Op::Add | Op::Sub | Op::Neg)
                    || (*op == Op::Mul && args.iter().filter(|x| !x.is_const()).count() <= 1) =>
            {
                Term::app(*op, args.iter().map(|x| hide(x, hidden)).collect())
            }
            _ if t.sort() == Sort::Int => {
                let i = hidden.iter().position(|h| h == t).unwrap_or_else(|| {
                    hidden.push(t.clone());
                    hidden.len() - 1
                });
                Term::var(&format!("opaque@{i}"), Sort::Int)
            }
            _ => t.clone(),
        }
    }
    let Node::App { op, args } = a.node() else { return a.clone() };
    if !matches!(op, Op::Le | Op::Lt | Op::Eq) || args.len() != 2 || args[0].sort() != Sort::Int {
        return a.clone();
    }
    let mut hidden = Vec::new();
    let linear = Term::app(*op, args.iter().map(|x| hide(x, &mut hidden)).collect());
    if hidden.is_empty() {
        return canonical_atom(a);
    }
    canonical_atom(&linear)
        .substitute(&|n| n.strip_prefix("opaque@").and_then(|i| i.parse::<usize>().ok()).and_then(|i| hidden.get(i).cloned()))
}

/// A predicate (over unindexed variables) in the normal form refinement
/// gives interpolant atoms (variables on one side, the constant on the
/// other), so a path invariant
/// and an interpolant that say the same read the same.
pub fn normalize_predicate(p: &Term) -> Term {
    canonical_atom(p)
}

/// A linear integer atom with the variables on one side and the constant on
/// the other, the first variable's coefficient positive where the
/// comparison allows: `1023 <= y + 1` and `-4294966273 <= y - 4294967295`
/// both become `1022 <= y`, so equal predicates look equal.
fn canonical_atom(a: &Term) -> Term {
    use smt::{Node, Op, Sort, Value};
    let Node::App { op, args } = a.node() else { return a.clone() };
    let [l, r] = args.as_slice() else { return a.clone() };
    if l.sort() != Sort::Int || !matches!(op, Op::Le | Op::Lt | Op::Eq) {
        return a.clone();
    }
    if !is_linear(l) || !is_linear(r) {
        return a.clone();
    }
    // d = l - r, linear: d = Σ cᵢ·xᵢ + k; the atom is d <= 0, d < 0 or d == 0.
    let d = Term::sub(l.clone(), r.clone());
    let at = |point: &dyn Fn(&str) -> i128| match d.eval(&|n| Some(Value::Int(point(n)))) {
        Some(Value::Int(i)) => Some(i),
        _ => None,
    };
    let Some(k) = at(&|_| 0) else { return a.clone() };
    let mut left = Term::int(0);
    let mut right = Term::int(0);
    for (name, sort) in d.vars() {
        let Some(c) = at(&|n| if n == &*name { 1 } else { 0 }).map(|v| v - k) else { return a.clone() };
        let x = Term::var(&name, sort);
        let term = |m: i128| if m == 1 { x.clone() } else { Term::mul(Term::int(m), x.clone()) };
        match c {
            0 => {}
            c if c > 0 => left = Term::add(left, term(c)),
            c => right = Term::add(right, term(-c)),
        }
    }
    // Σ⁺ − Σ⁻ + k ⋈ 0  ⇔  Σ⁺ ⋈ Σ⁻ − k; a lone constant goes to the side
    // without variables' sign trouble.
    let bound = if *op == Op::Lt { -k - 1 } else { -k };
    match (op, left.as_value().is_some()) {
        // Only Σ⁻ has variables: 0 ⋈ Σ⁻ + bound.
        (Op::Eq, true) => Term::eq(right, Term::int(-bound)),
        (_, true) => Term::le(Term::int(-bound), right),
        // An equality reads with the variable that sorts first on the left.
        (Op::Eq, false) if right.as_value().is_none() && smallest_var(&right) < smallest_var(&left) => {
            Term::eq(right, Term::sub(left, Term::int(bound)))
        }
        (Op::Eq, false) => Term::eq(left, Term::add(right, Term::int(bound))),
        (_, false) => Term::le(left, Term::add(right, Term::int(bound))),
    }
}

/// Whether `t` is a linear integer term (sums, differences, negations and
/// products with a constant of variables and constants).
fn is_linear(t: &Term) -> bool {
    use smt::{Node, Op};
    match t.node() {
        Node::Int(_) | Node::Var { .. } => true,
        Node::App { op: Op::Add | Op::Sub | Op::Neg, args } => args.iter().all(is_linear),
        Node::App { op: Op::Mul, args } => args.iter().filter(|a| !a.is_const()).count() <= 1 && args.iter().all(is_linear),
        _ => false,
    }
}

/// The name of the first variable of `t` in name order.
fn smallest_var(t: &Term) -> Option<std::sync::Arc<str>> {
    t.vars().into_keys().next()
}

/// `x <= MAX`, `MIN <= x` and the like: true of every value of x's type.
fn is_range_atom(program: &Program, a: &Term) -> bool {
    use smt::{Node, Op};
    let Node::App { op: Op::Le | Op::Lt, args } = a.node() else { return false };
    let [l, r] = args.as_slice() else { return false };
    let bound = |var: &Term, c: &Term, upper: bool| -> bool {
        let (Some(name), Some(k)) = (var.as_var(), c.as_signed()) else { return false };
        let Some((v, _)) = parse_ssa_name(name) else { return false };
        let ty = var_type(program, v);
        if upper {
            k >= ty.max_value()
        } else {
            k <= ty.min_value()
        }
    };
    bound(l, r, true) || bound(r, l, false)
}

/// What a finished job adds to `old`: the new precision and the entries
/// added (for the trace).
pub fn refine_precision(
    program: &Program,
    old: &PredicatePrecision,
    found: &[(Cut, Vec<Term>)],
    scope: PredicateScope,
) -> (PredicatePrecision, Vec<PredicateEntry>) {
    let mut new = old.clone();
    let mut added = Vec::new();
    for (cut, preds) in found {
        for p in preds {
            if new.add(scope, cut.location, cut.function, p.clone()) {
                let (location, where_) = match scope {
                    PredicateScope::Location => (Some(cut.location), format!("at {}", cut.location)),
                    PredicateScope::Function => (
                        None,
                        format!("in {}", program.functions.get(cut.function.0 as usize).map(|f| f.name.as_str()).unwrap_or("?")),
                    ),
                    PredicateScope::Global => (None, "everywhere".into()),
                };
                added.push(PredicateEntry { location, scope: where_, predicate: show_predicate(program, p) });
            }
        }
    }
    (new, added)
}

/// What path invariants add to `old`: the predicates of each loop head
/// `(location, its function, an edge into it, predicates)` there (in
/// `scope`), as [`refine_precision`] adds an interpolant's at its cut.
pub fn refine_precision_at_loop_heads(
    program: &Program,
    old: &PredicatePrecision,
    invariants: &[(NodeId, FuncId, EdgeId, Vec<Term>)],
    scope: PredicateScope,
) -> (PredicatePrecision, Vec<PredicateEntry>) {
    let found: Vec<(Cut, Vec<Term>)> = invariants
        .iter()
        .map(|(location, function, edge, predicates)| {
            let cut = Cut { position: 0, edge: *edge, location: *location, function: *function, shared: BTreeSet::new() };
            (cut, predicates.clone())
        })
        .collect();
    refine_precision(program, old, &found, scope)
}

/// The whole precision as trace entries.
pub fn precision_entries(program: &Program, p: &PredicatePrecision) -> Vec<PredicateEntry> {
    p.entries(program).into_iter().map(|(location, scope, predicate)| PredicateEntry { location, scope, predicate }).collect()
}
