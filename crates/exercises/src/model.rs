//! The exercise model: what an exercise file says once it is validated, the
//! question kinds with their parameters, and the student's answers.
//!
//! The same serde types describe the TOML files (see `docs/exercises.md`),
//! so the page can also serialize an exercise skeleton ("make an exercise
//! from what I see") with them.

use engine::{Config, ConfigError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A validated exercise set: the set index plus every exercise that loaded.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExerciseSet {
    /// The set's id (`cpa-basics`), unique among the sets of a course.
    pub id: String,
    /// The set's title.
    pub title: String,
    /// A Markdown description shown above the list of exercises.
    pub description: String,
    /// The exercises in the order of the index.
    pub exercises: Vec<Exercise>,
    /// After how many checked answers to an exercise the page may show its
    /// reference answer even if none was right (`reveal_after = N` in
    /// `set.toml`); `None` (the default): only after a right answer.
    pub reveal_after: Option<u32>,
}

impl ExerciseSet {
    /// The exercise with this id.
    pub fn exercise(&self, id: &str) -> Option<&Exercise> {
        self.exercises.iter().find(|e| e.id == id)
    }

    /// The most points a student can get in this set.
    pub fn max_points(&self) -> u32 {
        self.exercises.iter().map(|e| e.points).sum()
    }
}

/// One validated exercise: a question about what a CPA configuration does
/// on a program. It holds no answer; checking runs the analysis.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Exercise {
    /// Unique within the set: `[a-z0-9-]+`.
    pub id: String,
    /// One line.
    pub title: String,
    /// The question in Markdown (the page renders it with its safe
    /// Markdown renderer: no raw HTML, no script).
    pub prompt: String,
    /// Points for a fully right answer.
    pub points: u32,
    /// The mini-C program the question is about (for `separate`: the
    /// starting text of the student's program).
    pub program: String,
    /// The program's file beside the exercise, when it came from one.
    pub program_file: Option<String>,
    /// The configuration the analysis runs with.
    pub config: ConfigSpec,
    /// What is asked, with its parameters.
    pub question: Question,
    /// Hints, shown one by one on request.
    pub hints: Vec<String>,
    /// The exercise file, relative to the set directory (for messages).
    pub file: String,
}

/// A configuration as an exercise names it: an engine preset plus
/// overrides (`key = value` properties, CPAchecker-style keys).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigSpec {
    /// A preset of `static/config/` (`value`, `octagon-join`, …).
    pub preset: String,
    /// Overrides applied after the preset, in key order.
    #[serde(default)]
    pub set: BTreeMap<String, String>,
    /// Whether the student may change the configuration in the playground
    /// below the exercise (`false`: "open"). Checking always uses this
    /// configuration, except for `choose-configuration`, whose point is the
    /// student's choice.
    #[serde(default = "yes")]
    pub locked: bool,
}

fn yes() -> bool {
    true
}

impl ConfigSpec {
    /// The engine configuration: the preset with the overrides applied.
    pub fn to_config(&self) -> Result<Config, ConfigError> {
        let mut c = Config::preset(&self.preset)?;
        for (k, v) in &self.set {
            c.set(k, v)
                .map_err(|e| ConfigError { message: e.message.strip_prefix("--set: ").unwrap_or(&e.message).to_string() })?;
        }
        Ok(c)
    }

    /// A short name for explanations: `octagon-join` or
    /// `octagon-join + cpa.octagon.mergeop.onlyMergeAtLoopHeads=true`.
    pub fn describe(&self) -> String {
        let mut s = self.preset.clone();
        for (k, v) in &self.set {
            s.push_str(&format!(" + {k}={v}"));
        }
        s
    }
}

/// Which count a `count` question asks for (counted from the run's events,
/// [`engine::view::Statistics`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Measure {
    /// The final size of the reached set.
    Reached,
    /// Abstract states created (successors, merge results, adjusted states).
    Created,
    /// Waitlist pops.
    Steps,
    /// CEGAR refinements.
    Refinements,
    /// Symbolic execution with predicate abstraction: abstraction points
    /// (transfers that replaced the memory by fresh values and added eq and
    /// simple to the path condition), over every CEGAR iteration.
    AbstractionPoints,
    /// Symbolic execution with predicate abstraction: branches pruned
    /// because their path is not p-simple, over every CEGAR iteration.
    PrunedNotSimple,
    /// Predicate analysis with memory: the retention disjuncts of the
    /// solver queries, summed over the queries of every CEGAR iteration
    /// (`cpa.predicate.memoryRegions` decides how many a store creates).
    RetentionDisjuncts,
    /// Block-abstraction memoization: calls whose block summary was found
    /// in the cache (reused), over every CEGAR iteration.
    CacheHits,
    /// Block-abstraction memoization: calls whose block had to be analysed
    /// (a new cache entry), over every CEGAR iteration.
    CacheMisses,
}

impl Measure {
    /// The measure in words.
    pub fn words(self) -> &'static str {
        match self {
            Measure::Reached => "states in the final reached set",
            Measure::Created => "abstract states created",
            Measure::Steps => "steps (waitlist pops)",
            Measure::Refinements => "CEGAR refinements",
            Measure::AbstractionPoints => "abstraction points (all CEGAR iterations)",
            Measure::PrunedNotSimple => "branches pruned as not p-simple (all CEGAR iterations)",
            Measure::RetentionDisjuncts => "retention disjuncts of the solver queries (all CEGAR iterations)",
            Measure::CacheHits => "BAM cache hits (all CEGAR iterations)",
            Measure::CacheMisses => "BAM cache misses (all CEGAR iterations)",
        }
    }

    /// Its value in a run's statistics.
    pub fn of(self, s: &engine::view::Statistics) -> u64 {
        match self {
            Measure::Reached => s.reached,
            Measure::Created => s.created,
            Measure::Steps => s.steps,
            Measure::Refinements => s.refinements,
            Measure::AbstractionPoints => s.abstraction_points,
            Measure::PrunedNotSimple => s.pruned_not_simple,
            Measure::RetentionDisjuncts => s.retention_disjuncts,
            Measure::CacheHits => s.cache_hits,
            Measure::CacheMisses => s.cache_misses,
        }
    }

    /// Whether the measure only means something for symbolic execution
    /// with predicate abstraction (`symexec.abstraction = true`).
    pub fn needs_symexec_abstraction(self) -> bool {
        matches!(self, Measure::AbstractionPoints | Measure::PrunedNotSimple)
    }
}

/// A CFA location an exercise points at. Exactly one field is set.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LocationSpec {
    /// The CFA node `N<node>` (stable as long as the program is).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node: Option<u32>,
    /// The k-th loop head of the program (1-based, in node order).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loop_head: Option<u32>,
    /// The loop head on this source line, or else the first node of this line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
}

impl LocationSpec {
    /// The CFA node this names in `program`, or why there is none.
    pub fn resolve(&self, program: &cfa::Program) -> Result<cfa::NodeId, String> {
        match (self.node, self.loop_head, self.line) {
            (Some(n), None, None) => program
                .nodes
                .iter()
                .find(|x| x.id.0 == n)
                .map(|x| x.id)
                .ok_or_else(|| format!("the program has no node N{n} ({} nodes)", program.nodes.len())),
            (None, Some(k), None) => {
                let heads: Vec<cfa::NodeId> = program.nodes.iter().filter(|x| x.loop_head).map(|x| x.id).collect();
                (k as usize)
                    .checked_sub(1)
                    .and_then(|i| heads.get(i).copied())
                    .ok_or_else(|| format!("loop_head = {k}, but the program has {} loop head(s)", heads.len()))
            }
            (None, None, Some(l)) => program
                .nodes
                .iter()
                .find(|x| x.line == l && x.loop_head)
                .or_else(|| program.nodes.iter().find(|x| x.line == l))
                .map(|x| x.id)
                .ok_or_else(|| format!("no CFA node is on line {l}")),
            _ => Err("a location names exactly one of `node`, `loop_head`, `line`".into()),
        }
    }
}

/// The domain in which a student writes an abstract state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StateDomain {
    /// Explicit values (Value CPA): `x = 3, y = 5`; variables not named are ⊤.
    Value,
    /// Octagons (Octagon CPA): `0 <= x <= 10, x - y <= 2`.
    Octagon,
    /// Intervals, read off the Octagon CPA's states: bounds per variable only.
    Interval,
}

/// One of the three predict-mode questions of a `next-step` exercise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StepQuestion {
    /// Which state is popped from the waitlist.
    Popped,
    /// What merge does: kept apart / joined / widened (replacing a reached state).
    Merge,
    /// Whether stop covers the new state(s).
    Stop,
}

/// What an exercise asks, with its parameters (the `[question]` table; its
/// `kind` selects the variant).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Question {
    /// TRUE / FALSE / UNKNOWN of the exercise's configuration on the program.
    Verdict,
    /// A count of the run (reached, created, steps, refinements), exact or
    /// within `tolerance`.
    Count {
        /// Which count.
        measure: Measure,
        /// Accepted distance from the real count (0: exact).
        #[serde(default)]
        tolerance: u64,
    },
    /// The student picks a configuration (a preset of `presets`, values for
    /// the `open` keys) that proves the program TRUE, optionally with a
    /// final reached set of at most `max_states` states.
    ChooseConfiguration {
        /// Presets the student may start from (empty: only the exercise's).
        #[serde(default)]
        presets: Vec<String>,
        /// Keys the student may set, each with its allowed values (an empty
        /// list: any value the engine accepts).
        #[serde(default)]
        open: BTreeMap<String, Vec<String>>,
        /// At most this many states in the final reached set.
        #[serde(default)]
        max_states: Option<u64>,
    },
    /// The student writes a program that configuration `a` proves TRUE and
    /// configuration `b` does not (FALSE or UNKNOWN).
    Separate {
        /// The configuration that must prove the program.
        a: ConfigSpec,
        /// The configuration that must fail to.
        b: ConfigSpec,
    },
    /// The student enters the abstract state at a location after the
    /// analysis: the join of the reached states there, compared by ⊑ in
    /// both directions.
    AbstractState {
        /// Where.
        location: LocationSpec,
        /// In which domain the student writes it.
        domain: StateDomain,
    },
    /// The variables value-analysis CEGAR must track: checked by running the
    /// value analysis with exactly that static precision (at every
    /// location), which must prove the program TRUE.
    Precision {
        /// Also require that no variable can be left out (each subset with
        /// one variable fewer fails to prove the program).
        #[serde(default)]
        minimal: bool,
    },
    /// At step `step` of the run: which state is popped, what merge does,
    /// whether stop covers.
    NextStep {
        /// The step (waitlist pop number, 1-based).
        step: u64,
        /// The questions asked (default: all three).
        #[serde(default = "all_step_questions")]
        ask: Vec<StepQuestion>,
    },
    /// A loop invariant at a loop head, as a mini-C boolean expression,
    /// checked with an SMT solver for initiation, consecution and
    /// sufficiency (it implies that the error location is unreachable).
    Invariant {
        /// The loop head.
        location: LocationSpec,
    },
    /// Predicate analysis: the predicates that the `refinement`-th CEGAR
    /// refinement adds at a location (mini-C comparisons; a predicate and
    /// its negation count as one), compared with the run's as a set.
    Predicates {
        /// Where (usually a loop head, an abstraction location).
        location: LocationSpec,
        /// Which refinement (1-based; default: the first).
        #[serde(default = "first")]
        refinement: u32,
    },
    /// Predicate analysis: which of `choices` is the abstraction formula ψ'
    /// computed for abstraction state `s<state>` (its `Abstraction` event),
    /// compared as Boolean combinations of the predicates — so the same
    /// question tells the Boolean from the Cartesian abstraction.
    Abstraction {
        /// The abstraction state's number (`s63` is 63).
        state: u32,
        /// The formulas offered (2 to 8), exactly one of them ψ'.
        choices: Vec<String>,
    },
    /// Abstraction as a program transformation: which of `choices` is what
    /// the transformation (the exercise configuration's `transform.domain`
    /// and `transform.lift`) makes of the statement on source line `line`
    /// — graded against the transformed program itself (`transform`), so
    /// the question asks what value propagation lifts, where a value is
    /// frozen or thawed, or what a statement's transformed line is.
    TransformedLine {
        /// The original statement's line (1-based).
        line: u32,
        /// The transformed operations offered (2 to 8), exactly one of them
        /// the transformation's for that line.
        choices: Vec<String>,
    },
}

fn first() -> u32 {
    1
}

fn all_step_questions() -> Vec<StepQuestion> {
    vec![StepQuestion::Popped, StepQuestion::Merge, StepQuestion::Stop]
}

impl Question {
    /// The kind's name as in the files (`verdict`, `count`, …).
    pub fn kind(&self) -> &'static str {
        match self {
            Question::Verdict => "verdict",
            Question::Count { .. } => "count",
            Question::ChooseConfiguration { .. } => "choose-configuration",
            Question::Separate { .. } => "separate",
            Question::AbstractState { .. } => "abstract-state",
            Question::Precision { .. } => "precision",
            Question::NextStep { .. } => "next-step",
            Question::Invariant { .. } => "invariant",
            Question::Predicates { .. } => "predicates",
            Question::Abstraction { .. } => "abstraction",
            Question::TransformedLine { .. } => "transformed-line",
        }
    }
}

/// Every question kind's name, in the order of the docs.
pub const KINDS: &[&str] = &[
    "verdict",
    "count",
    "choose-configuration",
    "separate",
    "abstract-state",
    "precision",
    "next-step",
    "invariant",
    "predicates",
    "abstraction",
    "transformed-line",
];

/// A student's answer to one exercise. Its `kind` must match the question's.
/// The same JSON/TOML shape is used in the answers file, the solutions
/// file and between the page's widgets and the checkers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Answer {
    /// `true`, `false` or `unknown` (case-insensitive).
    Verdict {
        /// The predicted verdict.
        verdict: String,
    },
    /// A number.
    Count {
        /// The predicted count.
        value: u64,
    },
    /// A configuration: a preset (default: the exercise's) and values for
    /// the question's open keys.
    ChooseConfiguration {
        /// The preset chosen (must be among the question's `presets`).
        #[serde(default)]
        preset: Option<String>,
        /// Values for open keys.
        #[serde(default)]
        set: BTreeMap<String, String>,
    },
    /// A mini-C program.
    Separate {
        /// The program text.
        program: String,
    },
    /// An abstract state as text: `x = 3, y = 5` or `0 <= x <= 10, x - y <= 2`
    /// (`true` for ⊤, `false` for ⊥).
    AbstractState {
        /// The state.
        state: String,
    },
    /// Variable names (short or qualified `main::i`).
    Precision {
        /// The variables to track.
        variables: Vec<String>,
    },
    /// A prediction of step k; questions left out are not graded.
    NextStep {
        /// The popped state's number (`s7` is 7).
        #[serde(default)]
        popped: Option<u32>,
        /// `kept`, `joined` or `widened`.
        #[serde(default)]
        merge: Option<String>,
        /// `covered`, `not-covered`, `some` or `none`.
        #[serde(default)]
        stop: Option<String>,
    },
    /// A mini-C boolean expression over the program's variables.
    Invariant {
        /// The invariant.
        expression: String,
    },
    /// Predicates as mini-C comparisons (`x == 2 * y`, `n <= i`), one per
    /// entry or separated by `,` / `;`.
    Predicates {
        /// The predicates.
        predicates: Vec<String>,
    },
    /// The chosen formula's number among the question's `choices` (1-based).
    Abstraction {
        /// The choice.
        choice: u32,
    },
    /// The chosen transformed operation's number among the question's
    /// `choices` (1-based).
    TransformedLine {
        /// The choice.
        choice: u32,
    },
}

impl Answer {
    /// The kind's name (`verdict`, …), as [`Question::kind`].
    pub fn kind(&self) -> &'static str {
        match self {
            Answer::Verdict { .. } => "verdict",
            Answer::Count { .. } => "count",
            Answer::ChooseConfiguration { .. } => "choose-configuration",
            Answer::Separate { .. } => "separate",
            Answer::AbstractState { .. } => "abstract-state",
            Answer::Precision { .. } => "precision",
            Answer::NextStep { .. } => "next-step",
            Answer::Invariant { .. } => "invariant",
            Answer::Predicates { .. } => "predicates",
            Answer::Abstraction { .. } => "abstraction",
            Answer::TransformedLine { .. } => "transformed-line",
        }
    }
}
