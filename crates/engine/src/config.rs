//! Configurations, the way CPAchecker users know them: `key = value`
//! properties files with `#include other.properties` and `#` comments.
//!
//! Every option is declared once in [`OPTIONS`] with its key, default,
//! allowed values and documentation (a table the UI can list). Unknown keys
//! and bad values are errors naming the key, the file and the line.
//! Later settings override earlier ones; `--set key=value` (see
//! [`Config::set`]) overrides everything read from files.
//!
//! Named presets live in `static/config/` and are embedded here
//! ([`PRESETS`]), so the command line and the web page have the same ones:
//! [`Config::load`] resolves a name (`value`) against them and anything
//! ending in `.properties` against the file system.
//!
//! Checking a configuration is [`crate::validate`]; building the analysis
//! it names is [`crate::build`].

use crate::algorithm::AlgorithmOptions;
use crate::waitlist::TraversalOrder;
use minic::IntModel;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// What values an option accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionType {
    /// `true` or `false`.
    Bool,
    /// A non-negative integer, within the option's [`uint_range`].
    UInt,
    /// One of these words (case-insensitive; stored upper-case).
    Enum(&'static [&'static str]),
    /// A comma-separated list of CPA class names (see [`KNOWN_CPAS`]).
    CpaList,
    /// One of these class names.
    Class(&'static [&'static str]),
    /// A comma-separated list of configurations (preset names or
    /// `.properties` files); may be empty.
    Names,
}

/// The declaration of one configuration option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionDecl {
    /// The key, as CPAchecker spells it where it has one.
    pub key: &'static str,
    /// The default value (as text).
    pub default: &'static str,
    /// The allowed values.
    pub ty: OptionType,
    /// What the option means.
    pub doc: &'static str,
}

/// The CPA class names `CompositeCPA.cpas` may list.
pub const KNOWN_CPAS: &[&str] = &[
    "cpa.location.LocationCPA",
    "cpa.callstack.CallstackCPA",
    "cpa.value.ValueAnalysisCPA",
    "cpa.octagon.OctagonCPA",
    "cpa.value.symbolic.SymbolicValueCPA",
    "cpa.constraints.ConstraintsCPA",
    "cpa.predicate.PredicateCPA",
    "cpa.symexec.SymExecCPA",
];

/// Every option the engine understands.
pub const OPTIONS: &[OptionDecl] = &[
    OptionDecl {
        key: "cpa",
        default: "cpa.composite.CompositeCPA",
        ty: OptionType::Class(&["cpa.composite.CompositeCPA"]),
        doc: "The top-level CPA. Only the composite (product) CPA is offered; list its components in CompositeCPA.cpas.",
    },
    OptionDecl {
        key: "CompositeCPA.cpas",
        default: "cpa.location.LocationCPA, cpa.callstack.CallstackCPA, cpa.value.ValueAnalysisCPA",
        ty: OptionType::CpaList,
        doc: "The component CPAs of the composite, in order. Must include cpa.location.LocationCPA (the reached set is partitioned by location).",
    },
    OptionDecl {
        key: "analysis.traversal.order",
        default: "DFS",
        ty: OptionType::Enum(&["DFS", "BFS"]),
        doc: "Waitlist order: depth-first (newest state first) or breadth-first (oldest first).",
    },
    OptionDecl {
        key: "analysis.traversal.useReversePostorder",
        default: "false",
        ty: OptionType::Bool,
        doc: "Pop the state whose location comes first in the CFA's reverse postorder (ties broken by the order above), so loop heads are processed after all paths into them.",
    },
    OptionDecl {
        key: "analysis.intModel",
        default: "C",
        ty: OptionType::Enum(&["MATH", "C"]),
        doc: "Integer semantics: C (ILP32 fixed-width two's complement, wrapping, as SV-COMP; the default) or MATH (unbounded mathematical integers, a teaching option: a TRUE under MATH names the first operation whose C result could differ).",
    },
    OptionDecl {
        key: "cpa.value.merge",
        default: "SEP",
        ty: OptionType::Enum(&["SEP", "JOIN"]),
        doc: "Merge operator of the Value CPA: merge^sep keeps states apart, merge^join keeps the values both states agree on.",
    },
    OptionDecl {
        key: "cpa.value.precision",
        default: "FULL",
        ty: OptionType::Enum(&["FULL", "EMPTY"]),
        doc: "Initial precision of the Value CPA: track all variables (FULL) or none (EMPTY, for CEGAR to refine).",
    },
    OptionDecl {
        key: "cpa.octagon.precision",
        default: "FULL",
        ty: OptionType::Enum(&["FULL", "EMPTY"]),
        doc: "Initial precision of the Octagon CPA: the octagon relates all variables (FULL) or none (EMPTY, for CEGAR to refine).",
    },
    OptionDecl {
        key: "cpa.bam.enabled",
        default: "false",
        ty: OptionType::Bool,
        doc: "Block-abstraction memoization (BAM): each function call is a block, analysed once per reduced entry state (what the function can see) and precision; the block's exit states are cached and reused at every call with the same reduced state.",
    },
    OptionDecl {
        key: "cpa.bam.blockHeuristic",
        default: "FUNCTIONPARTITIONING",
        ty: OptionType::Enum(&["FUNCTIONPARTITIONING", "LOOPPARTITIONING", "FUNCTIONANDLOOPPARTITIONING"]),
        doc: "How BAM cuts the program into blocks: one block per function body (FunctionPartitioning), one per loop (LoopPartitioning: entered at the loop head from outside, left by the edges leaving the loop; reduce keeps the variables the loop reads or writes, and the globals and callees' variables when it calls functions; calls inside are analysed inline), or both (FunctionAndLoopPartitioning: calls are function blocks, also inside loop blocks).",
    },
    OptionDecl {
        key: "cpa.callstack.depth",
        default: "32",
        ty: OptionType::UInt,
        doc: "How many activations of one function may be on the call stack at once; deeper recursion ends the analysis with UNKNOWN (1 to 1000000).",
    },
    OptionDecl {
        key: "cpa.octagon.mergeop.type",
        default: "SEP",
        ty: OptionType::Enum(&["SEP", "JOIN", "WIDENING"]),
        doc: "Merge operator of the Octagon CPA: merge^sep, merge^join (octagon hull) or merge^widening.",
    },
    OptionDecl {
        key: "cpa.octagon.mergeop.onlyMergeAtLoopHeads",
        default: "false",
        ty: OptionType::Bool,
        doc: "Octagon CPA: apply the merge operator only at loop heads (merge^sep elsewhere).",
    },
    OptionDecl {
        key: "cpa.octagon.wideningThresholds",
        default: "true",
        ty: OptionType::Bool,
        doc: "Octagon CPA: merge^widening first raises a growing bound to the next constant of the program (each constant c, c-1, c+1 and their negations) before giving it up to infinity.",
    },
    OptionDecl {
        key: "analysis.algorithm.CEGAR",
        default: "false",
        ty: OptionType::Bool,
        doc: "Counterexample-guided abstraction refinement: when a target is reached, check the error path; a feasible one (confirmed by concrete replay) gives FALSE, an infeasible one refines the precision (explicit-value interpolation) and the analysis restarts. Needs cpa.value.precision = EMPTY (Value CPA) or cpa.octagon.precision = EMPTY (Octagon CPA): a full precision has nothing to refine.",
    },
    OptionDecl {
        key: "analysis.algorithm.transformExplorer",
        default: "false",
        ty: OptionType::Bool,
        doc: "Abstraction as a program transformation instead of a CPA: the program is transformed to compute on abstract values (transform.domain; lift, a_op, freeze/thaw) and an explicit-state explorer runs it — explicit control, concrete data, abstract values; visited states stored and compared (parity/sign: equal values; term: a solver equivalence check). CompositeCPA.cpas is not used; CEGAR, counterexample checks and restarts cannot be combined with it.",
    },
    OptionDecl {
        key: "transform.domain",
        default: "TERM",
        ty: OptionType::Enum(&["TERM", "PARITY", "SIGN"]),
        doc: "The transformation's value domain: TERM (free term algebra over the inputs, path conditions checked by the solver, an error path confirmed by a model and a concrete replay), PARITY (even/odd) or SIGN (negative/zero/positive).",
    },
    OptionDecl {
        key: "transform.lift",
        default: "INPUTS",
        ty: OptionType::Enum(&["INPUTS", "ALL", "NONE"]),
        doc: "Which values start abstract: INPUTS (every nondet input; value propagation lifts what they flow into), ALL (also every variable, so all data is abstract and the finite domains terminate on loops), NONE (nothing: inputs become abstract only when no concrete input list is given, as the explorer never guesses a value).",
    },
    OptionDecl {
        key: "cegar.maxIterations",
        default: "50",
        ty: OptionType::UInt,
        doc: "CEGAR: give up with UNKNOWN after this many refinements.",
    },
    OptionDecl {
        key: "cegar.restart",
        default: "ROOT",
        ty: OptionType::Enum(&["ROOT", "PIVOT"]),
        doc: "CEGAR: after a refinement, start over from the initial state (ROOT: empty reached set) or from the pivot (PIVOT: remove only the ARG subtree below the first state on the error path whose precision grew and re-explore from its parent; merge^sep only, otherwise ROOT). With PIVOT the step limit counts over all iterations.",
    },
    OptionDecl {
        key: "cegar.backupRefiner",
        default: "ASSUMPTIONS",
        ty: OptionType::Enum(&["ASSUMPTIONS", "NONE"]),
        doc: "CEGAR: when explicit-value interpolation cannot refute an infeasible path (the octagon or SMT check can), track the variables of the path's assumptions and those they depend on, everywhere (the octagon thesis's backup refiner); NONE gives up with UNKNOWN.",
    },
    OptionDecl {
        key: "analysis.checkCounterexamples",
        default: "false",
        ty: OptionType::Bool,
        doc: "Counterexample check: when a target is reached, recheck its error path (with counterexample.checker.config on the path's edges, then precisely: SSA path formula, SMT solver, concrete replay). FALSE only when replay confirms it; a spurious path gives UNKNOWN.",
    },
    OptionDecl {
        key: "counterexample.checker.config",
        default: "",
        ty: OptionType::Names,
        doc: "The second configuration that rechecks an error path, run on the CFA restricted to the path's edges (e.g. octagon-sep); empty: only the precise check.",
    },
    OptionDecl {
        key: "analysis.restartAfterUnknown",
        default: "false",
        ty: OptionType::Bool,
        doc: "Restart algorithm (sequential combination): run the configurations of restartAlgorithm.configFiles one after another until one gives TRUE or a confirmed FALSE.",
    },
    OptionDecl {
        key: "restartAlgorithm.configFiles",
        default: "",
        ty: OptionType::Names,
        doc: "The stages of the restart algorithm, in order (preset names or .properties files).",
    },
    OptionDecl {
        key: "restartAlgorithm.stageSteps",
        default: "0",
        ty: OptionType::UInt,
        doc: "Restart algorithm: the step limit (waitlist pops) of each stage's analysis (0: limits.steps when set on the restart configuration, e.g. by --max-steps, else each stage's own).",
    },
    OptionDecl {
        key: "restartAlgorithm.stageTimeMs",
        default: "0",
        ty: OptionType::UInt,
        doc: "Restart algorithm: the wall-clock limit of each stage in milliseconds (0: none; natively and in the page, where it includes waiting for the page's Z3; makes the trace depend on the machine's speed). Every solver query of the stage (the analysis's, the counterexample check's, the refinement's; natively and in the page) gets at most what is left of it (solver.timeout otherwise).",
    },
    OptionDecl {
        key: "solver.theory",
        default: "AUTO",
        ty: OptionType::Enum(&["AUTO", "INTEGER", "BITVECTOR"]),
        doc: "SMT theory for symbolic values and constraints: INTEGER (unbounded integers: faster, but ignores C's overflow) or BITVECTOR (fixed-width, exact for C). AUTO picks the one that is sound for analysis.intModel: BITVECTOR for C, INTEGER for MATH.",
    },
    OptionDecl {
        key: "cpa.constraints.checkTargets",
        default: "true",
        ty: OptionType::Bool,
        doc: "Symbolic execution (with the ConstraintsCPA): when a target is reached, check it precisely before reporting — all of the target state's path constraints at once (the per-step queries ask a window of them), then the SSA path formula and a concrete replay of the model's inputs. A target whose constraints are unsatisfiable leaves the reached set and the search goes on; FALSE only when the replay reaches the error location, UNKNOWN when neither is decided. false: the first target ends the run with an unconfirmed FALSE.",
    },
    OptionDecl {
        key: "cpa.constraints.decideOneInput",
        default: "true",
        ty: OptionType::Bool,
        doc: "Symbolic execution (with the ConstraintsCPA): a query whose constraints all have one free input, bit-vector or integer (a branch on one nondeterministic value, a loop unrolled over it), is decided in the engine, exactly, by interval arithmetic: the answer the solver would give, with a model that is checked by evaluating every constraint. Natively and in the page, where such a run needs no Z3. false: every query goes to the solver (in the page, to Z3 and its Solver log).",
    },
    OptionDecl {
        key: "cpa.predicate.blk.alwaysAtLoops",
        default: "true",
        ty: OptionType::Bool,
        doc: "Predicate analysis (adjustable-block encoding): end a block, and compute an abstraction, at every loop head (ABE-lf with the other options off).",
    },
    OptionDecl {
        key: "cpa.predicate.blk.alwaysAtFunctions",
        default: "false",
        ty: OptionType::Bool,
        doc: "Predicate analysis: end a block at every function entry and at every return site.",
    },
    OptionDecl {
        key: "cpa.predicate.blk.alwaysAtFunctionHeads",
        default: "false",
        ty: OptionType::Bool,
        doc: "Predicate analysis: end a block at every function entry.",
    },
    OptionDecl {
        key: "cpa.predicate.blk.threshold",
        default: "0",
        ty: OptionType::UInt,
        doc: "Predicate analysis: end a block after this many edges (0: never; 1 is single-block encoding, an abstraction after every edge).",
    },
    OptionDecl {
        key: "cpa.predicate.blk.alwaysAtRecursion",
        default: "true",
        ty: OptionType::Bool,
        doc: "Predicate analysis: end a block at the entry of a function called recursively (a call along a cycle of the call graph), so every activation of a recursion gets an abstraction that can cut off deeper calls and a place for the predicates CEGAR finds on a path into the recursion bound.",
    },
    OptionDecl {
        key: "cpa.predicate.memoryRegions",
        default: "BNB",
        ty: OptionType::Enum(&["SINGLE", "TYPE", "BNB"]),
        doc: "Predicate analysis: how memory is split into regions, each a function from addresses to values that a store updates with one retention disjunct (p = a ∨ f'(a) = f(a)) per address the path formula knows in that region. SINGLE: one region (no aliasing assumption); TYPE: one region per type of the value accessed; BNB (Bornat–Burstall, CPAchecker's default): a struct field whose address is never taken (no &s.f or &p->f in the program) gets its own region `struct S.f`, everything else the region of its type. Fewer lvalues per region, fewer retention disjuncts. TYPE and BNB assume a memory cell is always accessed at the same type: a program that uses a `void *` other than a fresh allocation as a typed pointer gets one region under every setting.",
    },
    OptionDecl {
        key: "cpa.predicate.abstraction.cartesian",
        default: "false",
        ty: OptionType::Bool,
        doc: "Predicate analysis: Cartesian abstraction (one solver query per predicate and polarity; the conjunction of what is implied) instead of Boolean abstraction (all-SAT over the predicates with blocking clauses; any Boolean combination).",
    },
    OptionDecl {
        key: "cpa.predicate.merge",
        default: "ABE",
        ty: OptionType::Enum(&["ABE", "SEP"]),
        doc: "Predicate analysis: inside a block, merge states with the same abstraction formula by the disjunction of their path formulas (ABE), or keep them apart (SEP). Abstraction states are never merged.",
    },
    OptionDecl {
        key: "cpa.predicate.refinement.interpolation",
        default: "WEAKEST",
        ty: OptionType::Enum(&["WEAKEST", "STRONGEST", "Z3"]),
        doc: "Predicate analysis with CEGAR: how interpolants are computed along the infeasible error path — by quantifier elimination, WEAKEST (backwards: not ∃ suffix-locals. suffix) or STRONGEST (forwards: ∃ prefix-locals. prefix), or Z3 (z3's own get-interpolant, forwards; native only, for comparison: the page's Z3 answers unsupported and the refinement falls back to WEAKEST); their atoms become predicates.",
    },
    OptionDecl {
        key: "cpa.predicate.refinement.pathInvariants",
        default: "BOTH",
        ty: OptionType::Enum(&["NONE", "AFFINE", "OCTAGON", "BOTH"]),
        doc: "Predicate analysis with CEGAR: when the infeasible error path enters a loop head at least twice, also run an invariant generator on the path program (the CFA restricted to the nodes and edges of the error paths refined so far, so it keeps the loops they unroll, plus the whole body of each such loop) over mathematical integers and add the atoms of the invariant at each such loop head as predicates there: AFFINE (affine equalities, Karr: a + b == 3*i), OCTAGON (octagons with widening: x <= y + c), BOTH, or NONE (interpolants only). Predicates are only precision: the abstraction still checks them under the run's integer model.",
    },
    OptionDecl {
        key: "cpa.predicate.refinement.acceleration",
        default: "true",
        ty: OptionType::Bool,
        doc: "Predicate analysis (and symbolic execution with predicate abstraction) with CEGAR: at the first infeasible error path that enters a loop head at least twice, replay the program concretely with zero inputs, jumping over the iterations of each loop whose iteration is a translation (every variable changes by a constant, affine guards, no input), checked exactly without wrap-around at its first and last iteration; when the replay jumps over loop iterations and reaches the error location the verdict is FALSE, confirmed by that accelerated replay (a loop needing millions of iterations that lazy abstraction unrolls one refinement at a time). Otherwise the refinement goes on as without it. Only ever adds confirmed FALSE verdicts.",
    },
    OptionDecl {
        key: "cpa.predicate.refinement.eliminationTimeMs",
        default: "1000",
        ty: OptionType::UInt,
        doc: "Predicate analysis with CEGAR: the time each quantifier elimination of an interpolation may take, in milliseconds (the solver's try-for; 0: no limit). One that runs out fails like any other — its cut gets no predicates — so when the refinement then finds nothing new, the next attempt (the other encoding or direction) runs instead of the refinement waiting on an elimination over C's wrap-around that may not finish. Only precision: never affects soundness; like solver.timeout it makes an elimination near the limit depend on the machine's speed (natively and in the page, which is slower).",
    },
    OptionDecl {
        key: "cpa.predicate.refinement.sharePredicates",
        default: "LOCATION",
        ty: OptionType::Enum(&["LOCATION", "FUNCTION", "GLOBAL"]),
        doc: "Predicate analysis with CEGAR: a predicate found at an abstraction location is used there only (LOCATION), at every location of its function (FUNCTION) or everywhere (GLOBAL).",
    },
    OptionDecl {
        key: "cpa.composite.stop",
        default: "SEP",
        ty: OptionType::Enum(&["SEP", "NEVER"]),
        doc: "The composite's stop operator: SEP (stop^sep: a state covered by a reached one is not added) or NEVER (stop^never: no state is ever covered, every path is explored on its own — symbolic execution's tree; needed by cpa.symexec.SymExecCPA).",
    },
    OptionDecl {
        key: "symexec.abstraction",
        default: "false",
        ty: OptionType::Bool,
        doc: "SymExecCPA: implicit predicate abstraction (SYMEXPA). false: standard symbolic execution (SYMEX: every path, the whole path condition checked after each assumption); true: at a loop head visited at least symexec.abstraction.threshold times before on the path, the memory is replaced by fresh symbolic values constrained only to agree with the old ones on the location's predicates, and a path whose predicate valuation repeats an earlier abstraction at that location (not p-simple) is pruned.",
    },
    OptionDecl {
        key: "symexec.abstraction.threshold",
        default: "0",
        ty: OptionType::UInt,
        doc: "SymExecCPA with symexec.abstraction: the initial threshold c of every loop head (abstract once the location was visited at least c times before on the path). CEGAR raises it (doubling, at least 1) at the error path's abstraction locations when interpolation finds no new predicate.",
    },
    OptionDecl {
        key: "solver.timeout",
        default: "10000",
        ty: OptionType::UInt,
        doc: "Time limit per solver query in milliseconds (the native z3, and Z3 in the page); a query that runs out is answered unknown and treated as satisfiable (1 to 86400000). A query also gets no more than what is left of restartAlgorithm.stageTimeMs.",
    },
    OptionDecl {
        key: "limits.steps",
        default: "100000",
        ty: OptionType::UInt,
        doc: "Stop with UNKNOWN after this many waitlist pops (0: no limit). The default keeps a page or a batch run from hanging on a loop the analysis unrolls forever.",
    },
    OptionDecl {
        key: "limits.states",
        default: "0",
        ty: OptionType::UInt,
        doc: "Stop with UNKNOWN when the reached set grows beyond this many states (0: no limit; at most 4294967295).",
    },
];

/// The embedded presets: `(name, file name, text)`.
pub const PRESETS: &[(&str, &str, &str)] = &[
    ("value", "value.properties", include_str!("../../../static/config/value.properties")),
    ("value-join", "value-join.properties", include_str!("../../../static/config/value-join.properties")),
    ("octagon-base", "octagon-base.properties", include_str!("../../../static/config/octagon-base.properties")),
    ("octagon-sep", "octagon-sep.properties", include_str!("../../../static/config/octagon-sep.properties")),
    ("octagon-join", "octagon-join.properties", include_str!("../../../static/config/octagon-join.properties")),
    ("octagon-widening", "octagon-widening.properties", include_str!("../../../static/config/octagon-widening.properties")),
    ("value-cegar", "value-cegar.properties", include_str!("../../../static/config/value-cegar.properties")),
    ("octagon-cegar", "octagon-cegar.properties", include_str!("../../../static/config/octagon-cegar.properties")),
    ("octagon-join-cex", "octagon-join-cex.properties", include_str!("../../../static/config/octagon-join-cex.properties")),
    (
        "octagon-widening-cex",
        "octagon-widening-cex.properties",
        include_str!("../../../static/config/octagon-widening-cex.properties"),
    ),
    (
        "octagon-seq-widening-cegar",
        "octagon-seq-widening-cegar.properties",
        include_str!("../../../static/config/octagon-seq-widening-cegar.properties"),
    ),
    ("symbolic", "symbolic.properties", include_str!("../../../static/config/symbolic.properties")),
    ("predicate", "predicate.properties", include_str!("../../../static/config/predicate.properties")),
    ("symexec", "symexec.properties", include_str!("../../../static/config/symexec.properties")),
    ("symexec-predabs", "symexec-predabs.properties", include_str!("../../../static/config/symexec-predabs.properties")),
    (
        "predicate-cartesian",
        "predicate-cartesian.properties",
        include_str!("../../../static/config/predicate-cartesian.properties"),
    ),
    ("bam-value", "bam-value.properties", include_str!("../../../static/config/bam-value.properties")),
    ("bam-predicate", "bam-predicate.properties", include_str!("../../../static/config/bam-predicate.properties")),
    (
        "bam-value-predicate",
        "bam-value-predicate.properties",
        include_str!("../../../static/config/bam-value-predicate.properties"),
    ),
    ("transform-term", "transform-term.properties", include_str!("../../../static/config/transform-term.properties")),
    ("transform-parity", "transform-parity.properties", include_str!("../../../static/config/transform-parity.properties")),
    ("transform-sign", "transform-sign.properties", include_str!("../../../static/config/transform-sign.properties")),
];

/// The preset used when no `--config` is given: `value` (explicit values,
/// merge^sep, DFS — CPAchecker's value analysis).
pub const DEFAULT_PRESET: &str = "value";

/// A configuration problem: unknown key, bad value, missing file, a CPA
/// that is not available. The message names the key, the file and the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    /// The message, e.g. `value.properties:3: unknown option \`foo\``.
    pub message: String,
}

impl ConfigError {
    /// An error with `message`.
    pub fn new(message: impl Into<String>) -> Self {
        ConfigError { message: message.into() }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ConfigError {}

/// The declaration of `key`, if it is an option.
pub fn option(key: &str) -> Option<&'static OptionDecl> {
    OPTIONS.iter().find(|o| o.key == key)
}

/// The values a numeric option ([`OptionType::UInt`]) accepts, inclusive:
/// `cpa.callstack.depth` and `solver.timeout` at least 1 (0 would forbid
/// every call or every solver answer), `limits.states` within 32 bits (the
/// page counts states in a 32-bit `usize`), and every limit small enough
/// that no sum or conversion of it overflows.
pub fn uint_range(key: &str) -> (u64, u64) {
    const HUGE: u64 = 1 << 53;
    match key {
        "cpa.callstack.depth" => (1, 1_000_000),
        "solver.timeout" => (1, 86_400_000),
        "cpa.predicate.refinement.eliminationTimeMs" => (0, 86_400_000),
        "cegar.maxIterations" => (0, 1_000_000),
        "limits.states" => (0, u32::MAX as u64),
        "symexec.abstraction.threshold" => (0, 1_000_000),
        _ => (0, HUGE),
    }
}

/// Checks `value` against the option's type and returns its normal form.
fn normalize(decl: &OptionDecl, value: &str) -> Result<String, String> {
    let v = value.trim();
    match decl.ty {
        OptionType::Bool => match v.to_ascii_lowercase().as_str() {
            "true" => Ok("true".into()),
            "false" => Ok("false".into()),
            _ => Err(format!("expected `true` or `false`, found `{v}`")),
        },
        OptionType::UInt => {
            let n = v.parse::<u64>().map_err(|_| format!("expected a non-negative integer, found `{v}`"))?;
            let (min, max) = uint_range(decl.key);
            if n < min || n > max {
                return Err(format!("expected a number from {min} to {max}, found `{v}`"));
            }
            Ok(n.to_string())
        }
        OptionType::Enum(allowed) => {
            let up = v.to_ascii_uppercase();
            if allowed.contains(&up.as_str()) {
                Ok(up)
            } else {
                Err(format!("expected one of {}, found `{v}`", allowed.join(", ")))
            }
        }
        OptionType::Class(allowed) => {
            let full = allowed.iter().find(|a| **a == v || a.rsplit('.').next() == Some(v));
            full.map(|s| s.to_string()).ok_or_else(|| format!("expected one of {}, found `{v}`", allowed.join(", ")))
        }
        OptionType::Names => {
            let items: Vec<&str> = v.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
            if let Some(bad) = items.iter().find(|s| s.contains(char::is_whitespace)) {
                return Err(format!("`{bad}` is not a configuration name"));
            }
            Ok(items.join(", "))
        }
        OptionType::CpaList => {
            let mut out = Vec::new();
            for item in v.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                let full = KNOWN_CPAS.iter().find(|a| **a == item || a.rsplit('.').next() == Some(item));
                match full {
                    Some(f) => out.push(f.to_string()),
                    None => return Err(format!("unknown CPA `{item}` (known: {})", KNOWN_CPAS.join(", "))),
                }
            }
            if out.is_empty() {
                return Err("expected at least one CPA".into());
            }
            Ok(out.join(", "))
        }
    }
}

/// A configuration: the options set explicitly (with where they were set),
/// everything else at its default.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Config {
    values: BTreeMap<String, String>,
    origins: BTreeMap<String, String>,
    /// The name or path it was loaded from (for messages and reports).
    pub source: String,
}

/// Where `#include` looks for files.
enum Base {
    /// Among the embedded presets.
    Embedded,
    /// In this directory of the file system (then among the presets).
    Dir(PathBuf),
}

impl Config {
    /// The configuration with every option at its default.
    pub fn defaults() -> Self {
        Config::default()
    }

    /// An embedded preset by name (`value`, `octagon-widening`, …).
    pub fn preset(name: &str) -> Result<Config, ConfigError> {
        let (_, file, text) = PRESETS.iter().find(|(n, f, _)| *n == name || *f == name).ok_or_else(|| {
            let names: Vec<&str> = PRESETS.iter().map(|p| p.0).filter(|n| *n != "octagon-base").collect();
            ConfigError::new(format!("unknown configuration `{name}` (presets: {})", names.join(", ")))
        })?;
        let mut c = Config { source: name.to_string(), ..Config::default() };
        c.read(text, file, &Base::Embedded, 0)?;
        Ok(c)
    }

    /// A properties file from disk.
    pub fn from_file(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| ConfigError::new(format!("{}: cannot read configuration: {e}", path.display())))?;
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let mut c = Config { source: path.display().to_string(), ..Config::default() };
        c.read(&text, &path.display().to_string(), &Base::Dir(dir), 0)?;
        Ok(c)
    }

    /// Parses properties text (named `file` in messages); `#include`s are
    /// resolved among the embedded presets.
    pub fn parse(text: &str, file: &str) -> Result<Config, ConfigError> {
        let mut c = Config { source: file.to_string(), ..Config::default() };
        c.read(text, file, &Base::Embedded, 0)?;
        Ok(c)
    }

    /// `--config NAME|FILE.properties`: a file when it ends in
    /// `.properties`, otherwise a preset name.
    pub fn load(name_or_path: &str) -> Result<Config, ConfigError> {
        if name_or_path.ends_with(".properties") {
            Config::from_file(Path::new(name_or_path))
        } else {
            Config::preset(name_or_path)
        }
    }

    fn read(&mut self, text: &str, file: &str, base: &Base, depth: usize) -> Result<(), ConfigError> {
        if depth > 16 {
            return Err(ConfigError::new(format!("{file}: #include nested too deeply (a cycle?)")));
        }
        let mut lines = text.lines().enumerate();
        while let Some((i, raw)) = lines.next() {
            let line_no = i + 1;
            let mut line = raw.trim().to_string();
            // A trailing backslash continues the value on the next line.
            while line.ends_with('\\') {
                line.pop();
                match lines.next() {
                    Some((_, more)) => line.push_str(more.trim()),
                    None => break,
                }
            }
            if line.is_empty() {
                continue;
            }
            if let Some(rest) = line.strip_prefix("#include") {
                let target = rest.trim();
                if target.is_empty() {
                    return Err(ConfigError::new(format!("{file}:{line_no}: #include needs a file name")));
                }
                self.include(target, file, line_no, base, depth)?;
                continue;
            }
            if line.starts_with('#') || line.starts_with("//") {
                continue;
            }
            let Some((key, value)) = line.split_once('=') else {
                return Err(ConfigError::new(format!("{file}:{line_no}: expected `key = value`, found `{line}`")));
            };
            self.set_at(key.trim(), value.trim(), &format!("{file}:{line_no}"))?;
        }
        Ok(())
    }

    fn include(&mut self, target: &str, file: &str, line_no: usize, base: &Base, depth: usize) -> Result<(), ConfigError> {
        if let Base::Dir(dir) = base {
            let path = dir.join(target);
            if path.exists() {
                let text = std::fs::read_to_string(&path)
                    .map_err(|e| ConfigError::new(format!("{file}:{line_no}: cannot read `{target}`: {e}")))?;
                let sub = Base::Dir(path.parent().map(Path::to_path_buf).unwrap_or_default());
                return self.read(&text, &path.display().to_string(), &sub, depth + 1);
            }
        }
        let name = Path::new(target).file_name().and_then(|n| n.to_str()).unwrap_or(target);
        match PRESETS.iter().find(|(_, f, _)| *f == name) {
            Some((_, f, text)) => self.read(text, f, &Base::Embedded, depth + 1),
            None => Err(ConfigError::new(format!("{file}:{line_no}: cannot find included file `{target}`"))),
        }
    }

    fn set_at(&mut self, key: &str, value: &str, origin: &str) -> Result<(), ConfigError> {
        let decl = option(key).ok_or_else(|| ConfigError::new(format!("{origin}: unknown option `{key}`")))?;
        let v = normalize(decl, value).map_err(|m| ConfigError::new(format!("{origin}: bad value for `{key}`: {m}")))?;
        self.values.insert(key.to_string(), v);
        self.origins.insert(key.to_string(), origin.to_string());
        Ok(())
    }

    /// Sets `key` to `value` (as `--set key=value` does), checking both.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), ConfigError> {
        self.set_at(key, value, "--set")
    }

    /// Parses and applies one `key=value` override.
    pub fn set_pair(&mut self, pair: &str) -> Result<(), ConfigError> {
        let Some((k, v)) = pair.split_once('=') else {
            return Err(ConfigError::new(format!("--set: expected `key=value`, found `{pair}`")));
        };
        self.set(k.trim(), v.trim())
    }

    /// The effective value of an option (its default when not set).
    /// Unknown keys give the empty string.
    pub fn get(&self, key: &str) -> &str {
        match self.values.get(key) {
            Some(v) => v,
            None => option(key).map(|o| o.default).unwrap_or(""),
        }
    }

    /// The value of a `bool` option (`true` or not).
    pub fn get_bool(&self, key: &str) -> bool {
        self.get(key) == "true"
    }

    /// The value of an unsigned option (0 when unset and without default).
    pub fn get_u64(&self, key: &str) -> u64 {
        self.get(key).parse().unwrap_or(0)
    }

    /// Where `key` was set (`file:line` or `--set`), if it was.
    pub fn origin(&self, key: &str) -> Option<&str> {
        self.origins.get(key).map(String::as_str)
    }

    /// The options set explicitly.
    pub fn explicit(&self) -> &BTreeMap<String, String> {
        &self.values
    }

    /// Every option with its effective value (the "effective properties").
    pub fn effective(&self) -> BTreeMap<String, String> {
        OPTIONS.iter().map(|o| (o.key.to_string(), self.get(o.key).to_string())).collect()
    }

    /// The effective properties as properties text.
    pub fn to_properties(&self) -> String {
        self.effective().iter().map(|(k, v)| format!("{k} = {v}\n")).collect()
    }

    /// `analysis.intModel`.
    pub fn int_model(&self) -> IntModel {
        if self.get("analysis.intModel") == "MATH" {
            IntModel::Math
        } else {
            IntModel::C
        }
    }

    /// The component CPAs of `CompositeCPA.cpas`.
    pub fn cpas(&self) -> Vec<String> {
        self.get("CompositeCPA.cpas").split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect()
    }

    /// The algorithm options this configuration selects.
    pub fn algorithm_options(&self) -> AlgorithmOptions {
        let nonzero = |n: u64| (n > 0).then_some(n);
        AlgorithmOptions {
            order: if self.get("analysis.traversal.order") == "BFS" { TraversalOrder::Bfs } else { TraversalOrder::Dfs },
            reverse_postorder: self.get_bool("analysis.traversal.useReversePostorder"),
            max_steps: nonzero(self.get_u64("limits.steps")),
            max_states: nonzero(self.get_u64("limits.states")).map(|n| n as usize),
            record_views: true,
            coverage_index: true,
            bam: self.get_bool("cpa.bam.enabled"),
            bam_blocks: crate::block::BlockHeuristic::from_option(self.get("cpa.bam.blockHeuristic")),
        }
    }
}

/// The configuration of the restart stage `name` of the restart
/// configuration `parent`: the stage's own file, with the integer model and
/// the limits of the parent.
pub fn stage_config(name: &str, parent: &Config) -> Result<Config, ConfigError> {
    let mut c = Config::load(name)?;
    if c.get("analysis.restartAfterUnknown") == "true" {
        return Err(ConfigError { message: format!("restartAlgorithm.configFiles: `{name}` is itself a restart configuration") });
    }
    c.set("analysis.intModel", parent.get("analysis.intModel"))?;
    // Stage limits: restartAlgorithm.stageSteps, else a limit set on the
    // restart configuration itself (e.g. --max-steps), else the stage's own.
    let stage_steps = parent.get("restartAlgorithm.stageSteps");
    if stage_steps != "0" {
        c.set("limits.steps", stage_steps)?;
    } else if parent.origin("limits.steps").is_some() {
        c.set("limits.steps", parent.get("limits.steps"))?;
    }
    if parent.origin("limits.states").is_some() {
        c.set("limits.states", parent.get("limits.states"))?;
    }
    c.set("restartAlgorithm.stageTimeMs", parent.get("restartAlgorithm.stageTimeMs"))?;
    Ok(c)
}
