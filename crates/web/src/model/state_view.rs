//! One abstract state made readable, for the state inspector: its
//! location, the values the Value CPA knows, the octagon's constraints as
//! inequalities, its DBM as a table, and the variables that can be plotted
//! (see [`crate::model::octagon_plot`]). Plain Rust over the trace's
//! [`StateView`], tested natively.

use std::sync::Arc;

use engine::trace::{Event, OctagonView, Origin, StateId, StateView, ViewContent};
use engine::view::Snapshot;

/// The DBM as a table of text cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DbmTable {
    /// Row and column labels (`+x`, `-x`, …).
    pub labels: Vec<String>,
    /// `rows[i][j]` bounds `labels[j] − labels[i]`: a number, or `∞`.
    pub rows: Vec<Vec<String>>,
}

impl DbmTable {
    /// The table of an octagon's (closed) DBM.
    pub fn of(octagon: &OctagonView) -> DbmTable {
        let rows = octagon
            .cells
            .iter()
            .map(|row| row.iter().map(|c| c.map_or_else(|| "∞".to_string(), |c| c.to_string())).collect())
            .collect();
        DbmTable { labels: octagon.labels.clone(), rows }
    }
}

/// One component CPA's part of a state, readable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
    /// The Value CPA's known values: `(variable, value)`.
    Values(Vec<(String, String)>),
    /// An octagon: its constraints, its DBM and the variables it bounds.
    Octagon {
        /// Readable inequalities (`0 <= ticks <= 2`, `x - y <= 3`); empty for ⊤.
        constraints: Vec<String>,
        /// The DBM.
        dbm: DbmTable,
        /// The variables with some constraint, the plot's candidates.
        vars: Vec<String>,
        /// Whether the octagon is ⊥.
        bottom: bool,
        /// The octagon itself (for the plot).
        view: OctagonView,
    },
    /// Constraints as text (other domains, e.g. path constraints).
    Constraints(Vec<String>),
    /// The symbolic memory: `(variable, expression over α1, α2, …)`.
    Symbolic(Vec<(String, String)>),
    /// Predicate analysis: ψ and φ, and for an abstraction state how ψ was
    /// computed.
    Predicate(PredicatePart),
    /// Symbolic execution (SymExecCPA): memory, path condition, history,
    /// and at an abstraction point the eq/simple constraints added.
    SymExec(SymExecPart),
    /// Anything else: which CPA and its text.
    Text(String, String),
}

/// A predicate-analysis state made readable: the abstraction formula ψ
/// (a Boolean combination of predicates, computed at the last block end)
/// and the path formula φ (the block's edges since then, in SSA form: one
/// conjunct per line, `x₂ == x₁ + 1`), all in mini-C.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PredicatePart {
    /// ψ (`true`, `x == y && n <= x`).
    pub abstraction: String,
    /// φ's conjuncts; empty for `true` (always so at an abstraction state).
    pub path: Vec<String>,
    /// Whether the state is an abstraction state (a block end).
    pub abstraction_state: bool,
    /// Edges since the block start.
    pub block_length: u32,
    /// For an abstraction state: the predicates ψ was computed over.
    pub predicates: Vec<String>,
    /// For an abstraction state of the shown iteration: how ψ was computed
    /// (Boolean or Cartesian, the solver queries, a note, the block's φ
    /// that was abstracted), from the trace's `Abstraction` event.
    pub computed: Option<engine::trace::AbstractionView>,
    /// The memory part of φ: per region, the cells (address → value) the
    /// path formula introduced since the block start.
    pub memory: Vec<engine::trace::RegionCellsView>,
}

impl PredicatePart {
    /// How ψ came to be, in one sentence (`None` when not an abstraction
    /// state or not computed in the shown iteration).
    pub fn computed_text(&self) -> Option<String> {
        let a = self.computed.as_ref()?;
        let n = a.predicates.len();
        let mut text = format!(
            "{} abstraction at {} over {n} predicate{}: {} solver quer{}",
            a.kind,
            a.location,
            if n == 1 { "" } else { "s" },
            a.queries,
            if a.queries == 1 { "y" } else { "ies" }
        );
        if !a.note.is_empty() {
            text += &format!(" ({})", a.note);
        }
        Some(text)
    }
}

/// A symbolic-execution state made readable, all in mini-C with the
/// engine's identifiers (`n₁`): the symbolic memory, the path condition one
/// conjunct per line, the history (visits per abstraction location) and,
/// at an abstraction point, what the abstraction added.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymExecPart {
    /// `(variable, symbolic value)`.
    pub memory: Vec<(String, String)>,
    /// The path condition's conjuncts; empty for `true`.
    pub path_condition: Vec<String>,
    /// `(location, visits on the path up to this state)`.
    pub visits: Vec<(String, u32)>,
    /// Edges from the root of the tree.
    pub depth: u32,
    /// At an abstraction point of the shown iteration: the abstraction
    /// (location, visits before, threshold, P(l), eq, simple).
    pub point: Option<engine::trace::AbstractionPointView>,
    /// Whether the transfer into the state abstracted the memory (also
    /// when the point's event is not in the shown iteration).
    pub abstraction_point: bool,
}

impl SymExecPart {
    /// The history in one line: `N4 visited 2×, N9 visited 1×`
    /// (`no abstraction location visited yet` when empty).
    pub fn history_text(&self) -> String {
        if self.visits.is_empty() {
            return "no abstraction location visited yet".into();
        }
        self.visits.iter().map(|(l, n)| format!("{l} visited {n}×")).collect::<Vec<_>>().join(", ")
    }

    /// At an abstraction point, in one sentence: where, after how many
    /// visits, against which threshold, over which predicates.
    pub fn point_text(&self) -> Option<String> {
        let p = self.point.as_ref()?;
        let over = if p.predicates.is_empty() {
            "no predicates (every path through it again is not p-simple)".to_string()
        } else {
            format!("the predicates {}", p.predicates.join(", "))
        };
        Some(format!(
            "abstraction point at {}: visited {} time{} before (threshold {}); fresh values for every variable, kept only over {over}",
            p.location,
            p.visits,
            if p.visits == 1 { "" } else { "s" },
            p.threshold
        ))
    }
}

/// A state as the inspector shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateDetail {
    /// `s12`.
    pub id: String,
    /// `N5` (empty when unknown).
    pub location: String,
    /// The call stack, outermost first (empty for `main`).
    pub callstack: Vec<String>,
    /// Where it stands: `in the reached set`, `waiting`, `replaced by s14`, …
    pub status: String,
    /// The components that hold something besides location and call stack.
    pub parts: Vec<Part>,
    /// For a merge result: the merge's operands, the new state and the
    /// reached state it replaced (see [`crate::model::merge_card`]).
    pub merged_from: Option<(StateId, StateId)>,
}

/// The state `id` of `snapshot`, readable; `None` when it does not exist
/// (yet) or its view was not recorded.
pub fn detail(snapshot: &Snapshot, id: StateId) -> Option<StateDetail> {
    let info = snapshot.state(id)?;
    let view: &Arc<StateView> = info.view.as_ref()?;
    let mut parts = Vec::new();
    for c in &view.components {
        match &c.content {
            ViewContent::Location { .. } | ViewContent::Callstack { .. } => {}
            ViewContent::Values { values } => {
                parts.push(Part::Values(values.iter().map(|b| (b.name.clone(), b.value.to_string())).collect()));
            }
            ViewContent::Octagon { octagon } => parts.push(Part::Octagon {
                constraints: octagon.constraints.clone(),
                dbm: DbmTable::of(octagon),
                vars: octagon.bounds.iter().map(|b| b.name.clone()).collect(),
                bottom: octagon.bottom,
                view: octagon.clone(),
            }),
            ViewContent::Constraints { constraints } => parts.push(Part::Constraints(constraints.clone())),
            // Symbolic memory (SymbolicValueCPA): `x = α1 + 1`.
            ViewContent::SymbolicValues { values } => {
                parts.push(Part::Symbolic(values.iter().map(|b| (b.name.clone(), b.value.clone())).collect()));
            }
            ViewContent::Predicate { abstraction, path, abstraction_state, block_length, predicates, memory } => {
                parts.push(Part::Predicate(PredicatePart {
                    abstraction: abstraction.clone(),
                    path: path.clone(),
                    abstraction_state: *abstraction_state,
                    block_length: *block_length,
                    predicates: predicates.clone(),
                    computed: snapshot.abstractions.get(&id).filter(|_| *abstraction_state).cloned(),
                    memory: memory.clone(),
                }))
            }
            ViewContent::SymbolicExecution { memory, path_condition, visits, abstraction_point, depth } => {
                parts.push(Part::SymExec(SymExecPart {
                    memory: memory.iter().map(|b| (b.name.clone(), b.value.clone())).collect(),
                    path_condition: path_condition.clone(),
                    visits: visits.iter().map(|v| (v.location.to_string(), v.visits)).collect(),
                    depth: *depth,
                    point: snapshot.abstraction_points.get(&id).cloned(),
                    abstraction_point: *abstraction_point || info.abstraction_point,
                }))
            }
            ViewContent::Text { text } => parts.push(Part::Text(c.cpa.clone(), text.clone())),
        }
    }
    let status = if let Some(by) = info.replaced_by {
        format!("replaced by {by} (merge)")
    } else if !info.covered_by.is_empty() {
        let by: Vec<String> = info.covered_by.iter().map(|s| s.to_string()).collect();
        format!("covered by {} (stop)", by.join(", "))
    } else if info.in_waitlist {
        "in the reached set, waiting".to_string()
    } else if info.in_reached {
        if info.popped { "in the reached set, processed" } else { "in the reached set" }.to_string()
    } else {
        "not in the reached set".to_string()
    };
    Some(StateDetail {
        id: id.to_string(),
        location: info.location.map(|l| l.to_string()).unwrap_or_default(),
        callstack: info.callstack.iter().map(|n| n.to_string()).collect(),
        status: if info.target { format!("{status}; target") } else { status },
        parts,
        merged_from: match info.origin {
            Origin::Merge { new, reached } => Some((new, reached)),
            _ => None,
        },
    })
}

/// The state worth showing when nothing is selected: the newest state the
/// last shown event is about (a transfer's successor, a merge's result, the
/// checked state of a stop), else the state being processed.
pub fn auto_state(snapshot: &Snapshot, events: &[Event]) -> Option<StateId> {
    let last = snapshot.position.checked_sub(1).and_then(|i| events.get(i));
    let named = match last {
        Some(Event::Merge { result, .. }) => Some(*result),
        Some(Event::Stop { state, .. }) => Some(*state),
        Some(e) => crate::model::analysis::involved_states(e).into_iter().max(),
        None => None,
    };
    named.filter(|&s| snapshot.state(s).is_some()).or(snapshot.current_state)
}

/// The two variables plotted by default: the first two of `vars`, unless
/// `(x, y)` is still a valid choice.
pub fn axes(vars: &[String], x: &str, y: &str) -> Option<(String, String)> {
    if vars.len() < 2 {
        return None;
    }
    let has = |v: &str| vars.iter().any(|w| w == v);
    if has(x) && has(y) && x != y {
        return Some((x.to_string(), y.to_string()));
    }
    let x = if has(x) { x.to_string() } else { vars[0].clone() };
    let y = if has(y) && y != x { y.to_string() } else { vars.iter().find(|v| **v != x).cloned().unwrap_or_default() };
    Some((x, y))
}

/// The states the inspector's chooser offers: the states the shown event
/// is about, the state being processed, the waitlist, and the reached
/// states at the location of the state shown by default (the ones merge
/// and stop compare it with; the newest 30 of them, and the first 30 of the
/// waitlist) — sorted by id.
pub fn choices(snapshot: &Snapshot, events: &[Event], auto: Option<StateId>) -> Vec<(StateId, String)> {
    let mut ids: Vec<StateId> = Vec::new();
    if let Some(e) = snapshot.position.checked_sub(1).and_then(|i| events.get(i)) {
        ids.extend(crate::model::analysis::involved_states(e));
    }
    ids.extend(snapshot.current_state);
    ids.extend(snapshot.waitlist.iter().take(30).copied());
    let at = auto.and_then(|s| snapshot.state(s)).and_then(|s| s.location);
    if let Some(ids_at) = at.and_then(|l| snapshot.reached.get(&l)) {
        ids.extend(ids_at.iter().rev().take(30).copied());
    }
    ids.sort();
    ids.dedup();
    ids.retain(|&s| snapshot.state(s).is_some());
    ids.into_iter()
        .map(|id| {
            let loc = snapshot.state(id).and_then(|s| s.location).map(|l| format!(" @{l}")).unwrap_or_default();
            (id, format!("{id}{loc}"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::analysis::{Run, RunSpec};
    use crate::model::page::EXAMPLE_PROGRAM;

    #[test]
    fn an_octagon_state_reads_as_constraints_dbm_and_plot_variables() {
        let mut run = Run::start(EXAMPLE_PROGRAM, RunSpec::default()).unwrap().complete();
        let n = run.cursor.len();
        run.cursor.seek(n);
        let snap = run.cursor.snapshot();
        // The states at the loop body (N4) relate ticks and __tmp0.
        let n4 = snap.reached.iter().find(|(node, _)| node.to_string() == "N4").map(|(_, ids)| ids.clone()).unwrap();
        let d = detail(snap, n4[1]).unwrap();
        assert_eq!(d.location, "N4");
        assert_eq!(d.status, "in the reached set, processed");
        let Some(Part::Octagon { constraints, dbm, vars, bottom, view }) = d.parts.first() else { panic!("{d:?}") };
        assert_eq!(constraints, &["0 <= ticks <= 1", "__tmp0 == 0"]);
        assert!(!bottom);
        assert_eq!(vars, &["ticks", "__tmp0"]);
        assert_eq!(dbm.labels, ["+ticks", "-ticks", "+__tmp0", "-__tmp0"]);
        assert_eq!(dbm.rows.len(), 4);
        // 2·ticks ≤ 2 sits in row −ticks, column +ticks; ticks ≥ 0 in row +ticks, column −ticks.
        assert_eq!(dbm.rows[1][0], "2");
        assert_eq!(dbm.rows[0][1], "0");
        let (x, y) = axes(vars, "", "").unwrap();
        let p = crate::model::octagon_plot::plot(view, &x, &y).unwrap();
        assert_eq!(p.box_text, "ticks ∈ [0, 1], __tmp0 ∈ [0, 0]");
        let xs: Vec<f64> = p.vertices.iter().map(|v| v[0]).collect();
        assert!(xs.contains(&0.0) && xs.contains(&1.0), "{:?}", p.vertices);
    }

    #[test]
    fn values_and_status_of_a_value_analysis_state() {
        let src = "int main() { int x = 1; int y = x + 2; return y; }";
        let mut run = Run::start(src, RunSpec { preset: "value".into(), ..RunSpec::default() }).unwrap().complete();
        let n = run.cursor.len();
        run.cursor.seek(n);
        let snap = run.cursor.snapshot();
        let last = snap.states.iter().filter(|s| s.in_reached).map(|s| s.id).max().unwrap();
        let d = detail(snap, last).unwrap();
        let vals = [("main::__retval", "3"), ("main::x", "1"), ("main::y", "3")].map(|(n, v)| (n.to_string(), v.to_string()));
        assert_eq!(d.parts, [Part::Values(vals.to_vec())]);
        assert!(detail(snap, StateId(9999)).is_none());
    }

    #[test]
    fn the_auto_state_follows_the_shown_event() {
        let mut run = Run::start(EXAMPLE_PROGRAM, RunSpec::default()).unwrap().complete();
        run.cursor.seek(0);
        assert_eq!(auto_state(run.cursor.snapshot(), run.cursor.events()), None);
        for k in 1..=run.cursor.len() {
            run.cursor.seek(k);
            let snap = run.cursor.snapshot();
            if let Some(s) = auto_state(snap, run.cursor.events()) {
                assert!(snap.state(s).is_some(), "event {k}");
            }
            if let Some(Event::Merge { result, .. }) = run.cursor.events().get(k - 1) {
                assert_eq!(auto_state(snap, run.cursor.events()), Some(*result));
            }
        }
    }

    #[test]
    fn the_chooser_offers_the_shown_states_and_their_neighbours_newest_first() {
        let spec = RunSpec { preset: "octagon-sep".into(), max_steps: 300, ..RunSpec::default() };
        let mut run = Run::start(EXAMPLE_PROGRAM, spec).unwrap().complete();
        let n = run.cursor.len();
        run.cursor.seek(n - 1);
        let snap = run.cursor.snapshot();
        let auto = auto_state(snap, run.cursor.events());
        let c = choices(snap, run.cursor.events(), auto);
        let ids: Vec<StateId> = c.iter().map(|(id, _)| *id).collect();
        assert!(ids.windows(2).all(|w| w[0] < w[1]), "sorted, no duplicates");
        assert!(c.len() <= 62, "{}", c.len());
        if let Some(cur) = snap.current_state {
            assert!(ids.contains(&cur), "the state being processed is offered");
        }
        // The newest reached state at the auto state's location is offered.
        let loc = auto.and_then(|s| snap.state(s)).and_then(|s| s.location).unwrap();
        let newest = *snap.reached[&loc].last().unwrap();
        assert!(ids.contains(&newest));
        let (_, label) = c.iter().find(|(id, _)| *id == newest).unwrap();
        assert_eq!(label, &format!("{newest} @{loc}"));
    }

    #[test]
    fn axes_keep_a_valid_choice_and_otherwise_take_the_first_two() {
        let vars: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        assert_eq!(axes(&vars, "c", "a"), Some(("c".into(), "a".into())));
        assert_eq!(axes(&vars, "", ""), Some(("a".into(), "b".into())));
        assert_eq!(axes(&vars, "b", "b"), Some(("b".into(), "a".into())));
        assert_eq!(axes(&vars, "zz", "c"), Some(("a".into(), "c".into())));
        assert_eq!(axes(&vars[..1], "a", "b"), None);
    }
}

#[cfg(test)]
mod memory_tests {
    use super::*;
    use crate::model::analysis::{Run, RunSpec};

    /// The gallery's memory-regions example under predicate analysis: a
    /// state after the stores shows, per region, the cells its path
    /// formula knows.
    #[test]
    fn a_predicate_state_shows_its_path_formulas_memory_cells_per_region() {
        let src = include_str!("../../../../static/examples/predicate-memory-regions.c");
        let mut run = Run::start(src, RunSpec { preset: "predicate".into(), ..RunSpec::default() }).unwrap().complete();
        let n = run.cursor.len();
        run.cursor.seek(n);
        let snap = run.cursor.snapshot();
        let with_memory: Vec<PredicatePart> = snap
            .states
            .iter()
            .filter_map(|s| detail(snap, s.id))
            .flat_map(|d| d.parts)
            .filter_map(|p| match p {
                Part::Predicate(p) if !p.memory.is_empty() => Some(p),
                _ => None,
            })
            .collect();
        let most = with_memory.iter().max_by_key(|p| p.memory.len()).expect("some state has memory cells");
        let regions: Vec<&str> = most.memory.iter().map(|r| r.region.as_str()).collect();
        assert!(regions.contains(&"struct S.f"), "{regions:?}");
        assert!(most.memory.iter().all(|r| !r.cells.is_empty()));
        // An abstraction state has forgotten memory with φ.
        assert!(with_memory.iter().all(|p| !p.abstraction_state));
    }
}
