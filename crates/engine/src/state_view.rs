//! What the trace shows of an abstract state: each component CPA's part of a
//! state as serializable, display-ready data ([`ComponentView`], the whole
//! composite state as a [`StateView`]). A CPA builds these in its `view`;
//! every `StateCreated` event of the [`crate::trace`] carries one, so the UI
//! never needs the CPA to show a state.

use cfa::NodeId;
use serde::{Deserialize, Serialize};
use std::fmt;

/// What one component CPA says about its part of a state, for display.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ViewContent {
    /// Location CPA: the CFA node.
    Location {
        /// The CFA node.
        node: NodeId,
    },
    /// Callstack CPA: the call sites, outermost first.
    Callstack {
        /// The call sites, outermost first.
        call_sites: Vec<NodeId>,
    },
    /// Value CPA: the variables with a known value (all others are ⊤).
    /// Sorted by variable id.
    Values {
        /// The known bindings.
        values: Vec<ValueBinding>,
    },
    /// A conjunction of constraints as text (`x - y <= 3`), e.g. octagons.
    Constraints {
        /// The constraints.
        constraints: Vec<String>,
    },
    /// Octagon CPA: readable constraints, the DBM and per-variable bounds.
    Octagon {
        /// The octagon.
        octagon: OctagonView,
    },
    /// SymbolicValue CPA: the symbolic memory — each known variable with
    /// its constant or symbolic expression over identifiers `α1`, `α2`, …
    /// (all others are unknown). Sorted by variable id.
    SymbolicValues {
        /// The bindings.
        values: Vec<SymbolicBinding>,
    },
    /// Predicate CPA: the abstraction formula ψ and the path formula φ
    /// since the last block end, in mini-C.
    Predicate {
        /// ψ (`true`, `x <= y && !(y < 0)`).
        abstraction: String,
        /// φ's conjuncts, SSA versions as subscripts (`x₂ == x₁ + 1`).
        path: Vec<String>,
        /// Whether the state is an abstraction state (a block end).
        abstraction_state: bool,
        /// Edges since the block start.
        block_length: u32,
        /// For an abstraction state: the predicates ψ was computed over.
        predicates: Vec<String>,
        /// The memory part of φ: per memory region, the cells the path
        /// formula has introduced since the block start (empty when memory
        /// is not modelled or not touched in this block).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        memory: Vec<RegionCellsView>,
    },
    /// SymExec CPA: a state of symbolic execution — the symbolic memory,
    /// the whole path condition, and what the history of the path says
    /// (visits of abstraction locations).
    SymbolicExecution {
        /// The symbolic memory (variables of the current activation and
        /// globals; unknown variables are absent). Sorted by variable id.
        memory: Vec<SymbolicBinding>,
        /// The path condition's conjuncts over symbolic identifiers.
        path_condition: Vec<String>,
        /// How often each location of dom(p) was visited on the path
        /// before this state (including this state's location).
        visits: Vec<LocationVisits>,
        /// Whether the transfer into this state abstracted the memory.
        abstraction_point: bool,
        /// The number of edges from the root of the tree (path length).
        depth: u32,
    },
    /// Anything else, as text.
    Text {
        /// The text.
        text: String,
    },
}

/// How often a location was visited along a path (the history of
/// symbolic execution, as far as ABSTRACT? asks it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LocationVisits {
    /// The location.
    pub location: NodeId,
    /// Visits on the path up to and including the state.
    pub visits: u32,
}

/// Why a branch of symbolic execution has no successor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PruneReason {
    /// The path condition became unsatisfiable: no execution takes the
    /// branch.
    Infeasible,
    /// The path is not p-simple: its predicate valuation at an abstraction
    /// location repeats an earlier abstraction there on the same path.
    NotSimple,
}

impl PruneReason {
    /// In words: `infeasible` or `not p-simple`.
    pub fn describe(self) -> &'static str {
        match self {
            PruneReason::Infeasible => "infeasible",
            PruneReason::NotSimple => "not p-simple",
        }
    }
}

/// What a symbolic-execution transfer reports when its branch has no
/// successor (see [`crate::trace::Event::BranchPruned`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PruneView {
    /// Infeasible or not p-simple.
    pub reason: PruneReason,
    /// What decided it, in words.
    pub detail: String,
}

/// One abstraction point of symbolic execution with implicit predicate
/// abstraction, for the trace: the memory m became fresh m_A and the path
/// condition got eq(P, m, m_A) ∧ simple(P, l, m_A, h).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AbstractionPointView {
    /// The abstraction location l.
    pub location: NodeId,
    /// Visits of l on the path before this one.
    pub visits: u32,
    /// Its threshold c in the precision.
    pub threshold: u32,
    /// P(l), in mini-C.
    pub predicates: Vec<String>,
    /// eq's conjuncts over program variables, the fresh values primed by
    /// their identifier's number (`(x <= y) == (x₁ <= y₁)`); empty = true.
    pub eq: Vec<String>,
    /// simple's conjuncts, one per earlier abstraction at l on the path
    /// (`false` when P(l) is empty); empty = true (the first abstraction).
    pub simple: Vec<String>,
    /// How many abstractions at l (with the same call stack) came before
    /// on this path.
    pub earlier: u32,
}

/// One memory region of a predicate-analysis path formula
/// (`cpa.predicate.memoryRegions`): its known cells, each the value the
/// formula gives the address (Ackermann's reduction of the region's
/// function `f_R`), in mini-C with SSA subscripts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegionCellsView {
    /// The region's name (`memory`, `int`, `struct S.f`).
    pub region: String,
    /// How many stores to the region the block has made (the version of
    /// its function).
    pub stores: u32,
    /// The known cells: `(address term, value term)`, e.g. `(p₁ + 8, mem@3)`.
    pub cells: Vec<(String, String)>,
}

/// One binding of the symbolic memory: `name = value`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SymbolicBinding {
    /// The variable's id in the program.
    pub var: cfa::VarId,
    /// Its qualified name (`x`, `main::i`).
    pub name: String,
    /// Its value as readable text (`α1 + 1`, `5`).
    pub value: String,
    /// The value when it is an explicit constant.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "opt_wide_int")]
    pub constant: Option<i128>,
}

/// Serde for `Option<i128>` in the style of [`wide_int`].
pub mod opt_wide_int {
    use serde::{Deserialize, Deserializer, Serializer};

    /// Writes `Some(v)` as [`super::wide_int`] does, `None` as null.
    pub fn serialize<S: Serializer>(v: &Option<i128>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(x) => super::wide_int::serialize(x, s),
            None => s.serialize_none(),
        }
    }

    #[derive(Deserialize)]
    struct W(#[serde(with = "super::wide_int")] i128);

    /// Reads null, a number or a decimal string.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i128>, D::Error> {
        Ok(Option::<W>::deserialize(d)?.map(|w| w.0))
    }
}

/// One known value of the Value CPA: `name = value`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ValueBinding {
    /// The variable's id in the program.
    pub var: cfa::VarId,
    /// Its qualified name (`x`, `main::i`).
    pub name: String,
    /// Its value (JSON: a number when it fits in 64 bits, else a string).
    #[serde(with = "wide_int")]
    pub value: i128,
}

/// Serde for `i128` that survives serde's buffering of internally tagged
/// enums (which cannot hold 128-bit integers): a JSON number when the value
/// fits in `i64`, otherwise a decimal string.
pub mod wide_int {
    use serde::de::{self, Visitor};
    use serde::{Deserializer, Serializer};
    use std::fmt;

    /// Writes `v` as an `i64` when it fits, else as a string.
    pub fn serialize<S: Serializer>(v: &i128, s: S) -> Result<S::Ok, S::Error> {
        match i64::try_from(*v) {
            Ok(small) => s.serialize_i64(small),
            Err(_) => s.serialize_str(&v.to_string()),
        }
    }

    struct V;
    impl Visitor<'_> for V {
        type Value = i128;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an integer or a decimal string")
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<i128, E> {
            Ok(v as i128)
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<i128, E> {
            Ok(v as i128)
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<i128, E> {
            v.parse().map_err(E::custom)
        }
    }

    /// Reads a number or a decimal string.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<i128, D::Error> {
        d.deserialize_any(V)
    }
}

/// What the UI shows of an octagon state (Octagon CPA).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OctagonView {
    /// The constraints of the closed octagon, readable (`ticks >= 0`,
    /// `b - a <= 1`); `false` for ⊥, empty for ⊤.
    pub constraints: Vec<String>,
    /// The bounds of every variable that has some constraint (for plotting).
    pub bounds: Vec<VarBounds>,
    /// Row/column labels of the DBM: `+x`, `-x`, … for the variables of
    /// `bounds`, in that order.
    pub labels: Vec<String>,
    /// The closed DBM: `cells[i][j] = Some(c)` means `labels[j] - labels[i] <= c`
    /// (`None` = +∞).
    pub cells: Vec<Vec<Option<i64>>>,
    /// Whether the octagon is ⊥ (no concrete state).
    pub bottom: bool,
}

/// The interval of one variable in an octagon (`None` = unbounded side).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VarBounds {
    /// The variable's display name.
    pub name: String,
    /// Lower bound.
    pub lo: Option<i64>,
    /// Upper bound.
    pub hi: Option<i64>,
}

/// One component CPA's view of a state: which CPA, and what it shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ComponentView {
    /// The CPA's short name (`LocationCPA`, `ValueAnalysisCPA`, …).
    pub cpa: String,
    /// What the state holds.
    pub content: ViewContent,
}

/// A serializable picture of an abstract state: one part per component CPA,
/// so the UI can show a state without re-running anything.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateView {
    /// The components, in the order of `CompositeCPA.cpas`.
    pub components: Vec<ComponentView>,
}

impl fmt::Display for ViewContent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ViewContent::Location { node } => write!(f, "@{node}"),
            ViewContent::Callstack { call_sites } => {
                write!(f, "[")?;
                for (i, c) in call_sites.iter().enumerate() {
                    if i > 0 {
                        write!(f, " ")?;
                    }
                    write!(f, "{c}")?;
                }
                write!(f, "]")
            }
            ViewContent::Values { values } => {
                write!(f, "{{")?;
                for (i, b) in values.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{}={}", b.name, b.value)?;
                }
                write!(f, "}}")
            }
            ViewContent::Constraints { constraints } => write!(f, "{{{}}}", constraints.join(", ")),
            ViewContent::Predicate { abstraction, path, abstraction_state, .. } => {
                if *abstraction_state || path.is_empty() {
                    write!(f, "ψ: {abstraction}")
                } else {
                    write!(f, "ψ: {abstraction}; φ: {}", path.join(" && "))
                }
            }
            ViewContent::Octagon { octagon } => write!(f, "{{{}}}", octagon.constraints.join(", ")),
            ViewContent::SymbolicValues { values } => {
                let parts: Vec<String> = values.iter().map(|b| format!("{}={}", b.name, b.value)).collect();
                write!(f, "{{{}}}", parts.join(", "))
            }
            ViewContent::SymbolicExecution { memory, path_condition, abstraction_point, .. } => {
                let parts: Vec<String> = memory.iter().map(|b| format!("{}={}", b.name, b.value)).collect();
                let mark = if *abstraction_point { "abstraction point " } else { "" };
                if path_condition.is_empty() {
                    write!(f, "{mark}{{{}}}", parts.join(", "))
                } else {
                    write!(f, "{mark}{{{}}} PC: {}", parts.join(", "), path_condition.join(" && "))
                }
            }
            ViewContent::Text { text } => f.write_str(text),
        }
    }
}

impl fmt::Display for StateView {
    /// `@N5 [] {x=1, y=2}`: the components separated by spaces.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.components.iter().enumerate() {
            if i > 0 {
                write!(f, " ")?;
            }
            write!(f, "{}", c.content)?;
        }
        Ok(())
    }
}

/// One abstraction computation of predicate analysis, for the trace.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AbstractionView {
    /// The block end (abstraction location).
    pub location: NodeId,
    /// `boolean` or `cartesian`.
    pub kind: String,
    /// The predicates of the location (mini-C).
    pub predicates: Vec<String>,
    /// ψ', the new abstraction formula (mini-C).
    pub result: String,
    /// How many solver queries it asked.
    pub queries: u32,
    /// A remark (a fallback, unknown answers); empty when none.
    #[serde(default)]
    pub note: String,
    /// The block's path formula φ that was abstracted (conjuncts, SSA
    /// versions as subscripts).
    #[serde(default)]
    pub block: Vec<String>,
}
