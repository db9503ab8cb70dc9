//! The Transformation view of a run of the explorer (abstraction as a
//! program transformation, `transform` and `engine::explorer`): the
//! original program and the transformed one side by side, every lifted,
//! frozen or thawed operation marked and linked to its original line, the
//! line the shown step executes, and the explicit state the explorer holds
//! there (location, call stack, each value concrete or abstract, the path
//! condition of the term domain).
//!
//! Everything is read from the run's own trace: the first event's
//! configuration says which domain and which values were lifted, so the
//! transformed program shown is the one the explorer ran (the
//! transformation is deterministic). Nothing here depends on Yew or
//! web-sys: it is tested natively.

use cfa::{EdgeId, Program};
use engine::state_view::ViewContent;
use engine::trace::{RunInfo, StateId};
use engine::view::Snapshot;
use transform::print::Mark;

/// The configuration key that makes a run an exploration of the
/// transformed program instead of the CPA algorithm.
pub const EXPLORER_KEY: &str = "analysis.algorithm.transformExplorer";

/// Whether the run (its first event's configuration) explores a
/// transformed program, so the page offers the Transformation view.
pub fn is_transform_run(info: Option<&RunInfo>) -> bool {
    info.is_some_and(|i| i.properties.get(EXPLORER_KEY).is_some_and(|v| v == "true"))
}

/// What a mark means, for the legend and the marks' tooltips: (CSS class
/// suffix, short badge, words). The badge is text, so a mark never relies
/// on colour alone.
pub fn mark_words(mark: Mark) -> (&'static str, &'static str, &'static str) {
    match mark {
        Mark::Lift => ("lift", "L", "lift: a concrete value or input made abstract"),
        Mark::Operation => ("op", "op", "a_op: the domain's operation replaces C's operator"),
        Mark::Freeze => ("freeze", "F", "freeze: an abstract value stored to the shadow slot of a global or a memory cell"),
        Mark::Thaw => ("thaw", "T", "thaw: an abstract value loaded from the shadow slot of a global or a memory cell"),
        Mark::Choice => ("choice", "?", "choice: a branch on an abstract condition, explored when the domain allows it"),
    }
}

/// The legend's entries, in the order shown.
pub const LEGEND: [Mark; 5] = [Mark::Lift, Mark::Operation, Mark::Freeze, Mark::Thaw, Mark::Choice];

/// What "lower" means and why it has no badge of its own (the legend says
/// it in these words).
pub const NO_LOWER: &str =
    "lower (an abstract value made concrete where C needs one): only an abstract address or allocation size in mini-C — external calls are inputs, branches are choices; written lower(…) in the line, marked as a domain operation (term: the solver's values, one successor each; parity/sign: the path stops and the run is UNKNOWN)";

/// One line of the original program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceLine {
    /// 1-based line number.
    pub number: u32,
    /// The line's text.
    pub text: String,
    /// The marks of the transformed operations of this line (empty: the
    /// line's operations stayed plain C, or it has none).
    pub marks: Vec<Mark>,
    /// Whether any transformed operation comes from this line.
    pub has_ops: bool,
}

/// One line of the transformed program: a function heading or one
/// transformed CFA edge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TransformedLine {
    /// The transformed edge (`None`: a function heading).
    pub edge: Option<EdgeId>,
    /// `N4 → N5`, or the function's heading.
    pub location: String,
    /// The transformed operation (`abstract b = a_mul(a, lift(2));`).
    pub op: String,
    /// The original line it comes from (0: none).
    pub original_line: u32,
    /// What the transformation introduced on it.
    pub marks: Vec<Mark>,
}

impl TransformedLine {
    /// The edge's key as the DOM and the linked selection carry it (`E3`).
    pub fn edge_key(&self) -> Option<String> {
        self.edge.map(|e| format!("E{}", e.0))
    }
}

/// The transformed program of a run, computed once per run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TransformationListing {
    /// The domain's name (`term`, `parity`, `sign`).
    pub domain: String,
    /// What was lifted, in words (the printed program's first line).
    pub header: String,
    /// The original program, line by line.
    pub source: Vec<SourceLine>,
    /// The transformed program: function headings and one line per edge.
    pub lines: Vec<TransformedLine>,
}

impl TransformationListing {
    /// The transformed program the run explores, or why it cannot be shown
    /// (the run is not an exploration, or its configuration does not read).
    pub fn of(program: &Program, source: &str, info: Option<&RunInfo>) -> Result<TransformationListing, String> {
        let info = info.filter(|i| is_transform_run(Some(i))).ok_or("this run is not an exploration of a transformed program")?;
        let get = |key: &str, default: &str| info.properties.get(key).cloned().unwrap_or_else(|| default.to_string());
        let domain: transform::Domain = get("transform.domain", "TERM").parse()?;
        let lift: transform::LiftSet = get("transform.lift", "INPUTS").parse()?;
        let options = transform::Options { domain, lift, variables: Vec::new(), model: info.int_model };
        let transformed = transform::transform(program, &options)?;
        let printed = transform::print::lines(program, &transformed);
        let header = printed.first().map(|l| l.text.trim_start_matches("// ").to_string()).unwrap_or_default();
        let mut lines = Vec::new();
        for l in &printed {
            match l.edge {
                Some(e) => lines.push(TransformedLine {
                    edge: Some(e),
                    location: format!("{} → {}", program.edge(e).source, program.edge(e).target),
                    op: l.op.clone(),
                    original_line: program.edge(e).line,
                    marks: l.marks.clone(),
                }),
                None if l.text.starts_with("function ") => lines.push(TransformedLine {
                    edge: None,
                    location: l.text.clone(),
                    op: String::new(),
                    original_line: 0,
                    marks: Vec::new(),
                }),
                None => {}
            }
        }
        let source = source
            .lines()
            .enumerate()
            .map(|(i, text)| {
                let number = i as u32 + 1;
                let of_line: Vec<&TransformedLine> =
                    lines.iter().filter(|l| l.edge.is_some() && l.original_line == number).collect();
                let mut marks: Vec<Mark> = of_line.iter().flat_map(|l| l.marks.iter().copied()).collect();
                marks.sort_by_key(|m| *m as u8);
                marks.dedup();
                SourceLine { number, text: text.to_string(), marks, has_ops: !of_line.is_empty() }
            })
            .collect();
        Ok(TransformationListing { domain: domain.to_string(), header, source, lines })
    }

    /// How many transformed lines carry `mark`.
    pub fn count(&self, mark: Mark) -> usize {
        self.lines.iter().filter(|l| l.marks.contains(&mark)).count()
    }
}

/// One value of the explicit state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateValue {
    /// The variable (qualified: `main::x`, or a global's name).
    pub name: String,
    /// Its value: a number, or the domain's value (`even`, `{-,0}`, a term).
    pub value: String,
    /// Whether it is an abstract value (else a concrete C value).
    pub is_abstract: bool,
    /// Whether it sits in a global's shadow slot (frozen).
    pub frozen: bool,
}

/// The explicit state the explorer holds at the shown step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplicitState {
    /// The state's id (`s12`).
    pub id: StateId,
    /// Its location (`N5`).
    pub location: String,
    /// Its call stack, outermost first (`[N6]`); empty in `main`.
    pub call_stack: String,
    /// Every variable of the current frame and every global.
    pub values: Vec<StateValue>,
    /// The term domain's path condition (empty otherwise).
    pub path_condition: Vec<String>,
}

impl ExplicitState {
    /// The state to show at the snapshot: the one the current step
    /// expanded, else the newest state created.
    pub fn at(snapshot: &Snapshot) -> Option<ExplicitState> {
        let id = snapshot.current_state.or_else(|| snapshot.states.last().map(|s| s.id))?;
        ExplicitState::of(snapshot, id)
    }

    /// State `id` as the explorer stored it (`None`: no such state, or
    /// the run recorded no views).
    pub fn of(snapshot: &Snapshot, id: StateId) -> Option<ExplicitState> {
        let info = snapshot.states.get(id.0 as usize)?;
        let view = info.view.as_ref()?;
        let mut out = ExplicitState {
            id,
            location: info.location.map(|n| n.to_string()).unwrap_or_default(),
            call_stack: String::new(),
            values: Vec::new(),
            path_condition: Vec::new(),
        };
        for c in &view.components {
            match &c.content {
                ViewContent::Callstack { call_sites } if !call_sites.is_empty() => out.call_stack = c.content.to_string(),
                ViewContent::SymbolicValues { values } => {
                    out.values = values
                        .iter()
                        .map(|b| {
                            let frozen = b.value.ends_with(" (frozen)");
                            StateValue {
                                name: b.name.clone(),
                                value: b.value.trim_end_matches(" (frozen)").to_string(),
                                is_abstract: b.constant.is_none(),
                                frozen,
                            }
                        })
                        .collect()
                }
                ViewContent::Constraints { constraints } if c.cpa == "PathCondition" => out.path_condition = constraints.clone(),
                _ => {}
            }
        }
        Some(out)
    }
}

/// What the view shows at the shown step: the transformed line the step
/// executed (its edge), the lines the shown state may take next, and the
/// original line of the executed one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StepMarks {
    /// The edge of the shown step's latest transfer.
    pub current: Option<EdgeId>,
    /// The edges leaving the shown state's location (what it runs next).
    pub next: Vec<EdgeId>,
    /// The original line of the current edge (0: none).
    pub current_line: u32,
}

impl StepMarks {
    /// The marks at `snapshot` of a run of `program`.
    pub fn at(program: &Program, snapshot: &Snapshot) -> StepMarks {
        let current = snapshot.current_edge;
        let location = snapshot.current_state.and_then(|s| snapshot.states.get(s.0 as usize)).and_then(|s| s.location);
        let next = location.map(|n| program.node(n).outgoing.clone()).unwrap_or_default();
        StepMarks { current, next, current_line: current.map(|e| program.edge(e).line).unwrap_or(0) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::cegar::build_verifier;
    use engine::{Config, Stepper};
    use std::sync::Arc;

    const CHAIN: &str = include_str!("../../../../static/examples/transform-chain.c");
    const FREEZE: &str = include_str!("../../../../static/examples/transform-freeze.c");

    fn run(src: &str, preset: &str, steps: usize) -> (Arc<Program>, Vec<engine::trace::Event>) {
        let program = Arc::new(cfa::from_source(src).unwrap());
        let mut config = Config::preset(preset).unwrap();
        config.set("analysis.intModel", "c").unwrap();
        let mut v = build_verifier(program.clone(), &config, true).unwrap();
        let mut events = Vec::new();
        while events.len() < steps {
            match v.next_event() {
                Some(e) => events.push(e),
                None => break,
            }
        }
        (program, events)
    }

    fn snapshot(events: &[engine::trace::Event]) -> Snapshot {
        let mut c = engine::view::Cursor::new(events.to_vec());
        c.seek(events.len());
        c.snapshot().clone()
    }

    #[test]
    fn only_transform_runs_offer_the_view() {
        let (_, events) = run(CHAIN, "value", 3);
        assert!(!is_transform_run(snapshot(&events).info.as_ref()));
        let (p, events) = run(CHAIN, "transform-parity", 3);
        assert!(is_transform_run(snapshot(&events).info.as_ref()));
        let (_, value_events) = run(CHAIN, "value", 3);
        let err = TransformationListing::of(&p, CHAIN, snapshot(&value_events).info.as_ref()).unwrap_err();
        assert!(err.contains("not an exploration"), "{err}");
    }

    #[test]
    fn the_chain_from_one_input_is_lifted_and_the_rest_stays_c() {
        let (p, events) = run(CHAIN, "transform-term", 2);
        let l = TransformationListing::of(&p, CHAIN, snapshot(&events).info.as_ref()).unwrap();
        assert_eq!(l.domain, "term");
        assert!(l.header.contains("lifted: the inputs"), "{}", l.header);
        let line_of =
            |needle: &str| l.lines.iter().find(|t| t.op.contains(needle)).unwrap_or_else(|| panic!("{needle}: {:?}", l.lines));
        let b = line_of("a_mul(a, lift(2))");
        assert_eq!(b.original_line, 9);
        assert!(b.marks.contains(&Mark::Lift) && b.marks.contains(&Mark::Operation), "{b:?}");
        let m = line_of("int m = k * 5;");
        assert!(m.marks.is_empty(), "m depends on no input: {m:?}");
        // The original side: line 9 (`int b = a * 2;`) is linked and marked,
        // line 13 (`int m = k * 5;`) has an operation but no mark.
        assert!(l.source[8].text.contains("int b = a * 2;") && l.source[8].has_ops);
        assert!(l.source[8].marks.contains(&Mark::Operation));
        assert!(l.source[12].has_ops && l.source[12].marks.is_empty());
        assert!(!l.source[0].has_ops, "a comment line has no operation");
        assert!(l.lines.iter().any(|t| t.edge.is_none() && t.location.starts_with("function main")));
        assert_eq!(b.edge_key().unwrap(), format!("E{}", b.edge.unwrap().0));
    }

    #[test]
    fn a_global_is_frozen_and_thawed_and_the_state_shows_its_shadow_value() {
        let (p, events) = run(FREEZE, "transform-parity", 10_000);
        let l = TransformationListing::of(&p, FREEZE, snapshot(&events).info.as_ref()).unwrap();
        assert!(l.count(Mark::Freeze) >= 2 && l.count(Mark::Thaw) >= 2, "{:?}", l.lines);
        assert_eq!(l.domain, "parity");
        // Somewhere in the run, a state holds g frozen as a parity.
        let mut cursor = engine::view::Cursor::new(events.clone());
        let mut seen_frozen = false;
        for k in 0..=events.len() {
            cursor.seek(k);
            if let Some(s) = ExplicitState::at(cursor.snapshot()) {
                if s.values.iter().any(|v| v.name == "g" && v.frozen && v.is_abstract && v.value == "even") {
                    seen_frozen = true;
                    break;
                }
            }
        }
        assert!(seen_frozen, "g = 2 * x freezes an even value");
        // At the end, the verdict's run: a current edge marks a line.
        let snap = snapshot(&events);
        assert!(snap.finished.is_some());
        let step = StepMarks::at(&p, &snap);
        if let Some(e) = step.current {
            assert!(l.lines.iter().any(|t| t.edge == Some(e)));
            assert_eq!(step.current_line, p.edge(e).line);
        }
    }

    #[test]
    fn the_term_state_carries_its_path_condition() {
        let (p, events) = run(CHAIN, "transform-term", 10_000);
        let mut cursor = engine::view::Cursor::new(events.clone());
        let mut with_pc = None;
        for k in 0..=events.len() {
            cursor.seek(k);
            if let Some(s) = ExplicitState::at(cursor.snapshot()).filter(|s| !s.path_condition.is_empty()) {
                with_pc = Some((s, StepMarks::at(&p, cursor.snapshot())));
                break;
            }
        }
        let (s, marks) = with_pc.expect("a state after the choice on d % 2 has a path condition");
        assert!(s.values.iter().any(|v| v.name.ends_with('a') && v.is_abstract), "{s:?}");
        assert!(s.values.iter().any(|v| v.name.ends_with('k') && !v.is_abstract && v.value == "7"), "{s:?}");
        assert!(!marks.next.is_empty() || marks.current.is_some());
    }

    /// The compare view's summary rows of `transform-term` against
    /// `symbolic` on the chain card: both prove it, and the rows carry the
    /// states stored and the solver queries side by side.
    #[test]
    fn compare_rows_put_transform_term_beside_symbolic() {
        let rows: Vec<crate::model::compare::SummaryRow> = ["transform-term", "symbolic"]
            .iter()
            .map(|preset| {
                let (_, events) = run(CHAIN, preset, 100_000);
                crate::model::compare::SummaryRow::of(preset, &events)
            })
            .collect();
        for r in &rows {
            assert_eq!(r.verdict, "TRUE", "{r:?}");
            assert!(r.reached > 0 && r.solver_queries > 0, "{r:?}");
        }
        assert_eq!(rows[1].equivalence_checks, 0, "a CPA run makes no equivalence checks");
    }
}
