//! A merge shown as one card: the two inputs of `merge(e', e'', π)` — the
//! new state e' and the reached state e'' — and its result side by side,
//! with the octagons of the three overlaid in one 2-D plot
//! ([`crate::model::octagon_plot::overlay`]), so what the merge operator
//! did (join, widening, nothing) can be seen at once.
//!
//! A card is shown for the inspected state when it is a merge result (its
//! ARG origin names both operands), and at a merge event for the merge's
//! result, also when the merge changed nothing (the result is the reached
//! state). Plain Rust over [`StateDetail`]s, tested natively;
//! `crate::ui::inspector` draws it.

use engine::trace::{Event, MergeKind, StateId};

use crate::model::octagon_plot::{overlay, Overlay};
use crate::model::state_view::{Part, StateDetail};

/// The merge the shown event is (the last event applied): its operator,
/// its operands and its result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShownMerge {
    /// The merge operator (join, widening).
    pub operator: MergeKind,
    /// The new state e'.
    pub new: StateId,
    /// The reached state e''.
    pub reached: StateId,
    /// The result: a new state, or e'' itself when nothing changed.
    pub result: StateId,
    /// Whether the result replaced e'' in the reached set.
    pub replaced: bool,
}

impl ShownMerge {
    /// The merge shown at `position` (after that many `events`), if the
    /// last event applied is one.
    pub fn of(position: usize, events: &[Event]) -> Option<ShownMerge> {
        match events.get(position.checked_sub(1)?)? {
            Event::Merge { operator, new, reached, result, replaced } => {
                Some(ShownMerge { operator: *operator, new: *new, reached: *reached, result: *result, replaced: *replaced })
            }
            _ => None,
        }
    }
}

/// The merge card: both inputs and the result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergeCard {
    /// The merge in words: `merge^join(s8, s3) = s9: s9 replaces s3`.
    pub heading: String,
    /// The new state e'.
    pub new: StateDetail,
    /// The reached state e''.
    pub reached: StateDetail,
    /// The result.
    pub result: StateDetail,
    /// Whether the result replaced the reached state.
    pub changed: bool,
    /// The variables any of the three octagons constrains (the plot's
    /// axis candidates), in order of first appearance.
    pub vars: Vec<String>,
}

impl MergeCard {
    /// The card for the inspected state `target`, when it is the result of
    /// the shown merge or of any merge (`resolve` looks the operands up at
    /// the shown position); `None` for any other state.
    pub fn of(
        target: &StateDetail,
        shown: Option<ShownMerge>,
        resolve: impl Fn(StateId) -> Option<StateDetail>,
    ) -> Option<MergeCard> {
        let shown = shown.filter(|m| m.result.to_string() == target.id);
        let (new, reached, changed, heading) = match (shown, target.merged_from) {
            (Some(m), _) => {
                let call = format!("merge^{}({}, {}) = {}", m.operator.name(), m.new, m.reached, m.result);
                let what = if m.replaced {
                    format!("{}: {} replaces {} in the reached set", call, m.result, m.reached)
                } else {
                    format!("{call}: nothing changed, {} stays", m.reached)
                };
                (m.new, m.reached, m.replaced, what)
            }
            (None, Some((new, reached))) => {
                (new, reached, true, format!("{} = merge({new}, {reached}): it replaced {reached}", target.id))
            }
            (None, None) => return None,
        };
        let (new, reached) = (resolve(new)?, resolve(reached)?);
        let mut vars: Vec<String> = Vec::new();
        for d in [&new, &reached, target] {
            for v in octagon_vars(d) {
                if !vars.contains(v) {
                    vars.push(v.clone());
                }
            }
        }
        Some(MergeCard { heading, new, reached, result: target.clone(), changed, vars })
    }

    /// The three columns: (role in words, CSS/test name, state).
    pub fn columns(&self) -> [(&'static str, &'static str, &StateDetail); 3] {
        [
            ("new state e′", "new", &self.new),
            ("reached state e″", "reached", &self.reached),
            (if self.changed { "result (replaces e″)" } else { "result (e″ unchanged)" }, "result", &self.result),
        ]
    }

    /// The three octagons projected on `x` and `y` in one view (new,
    /// reached, result); `None` when the states hold no octagon or the
    /// variables are not constrained.
    pub fn plot(&self, x: &str, y: &str) -> Option<Overlay> {
        let layers: Vec<(String, &engine::trace::OctagonView)> =
            self.columns().into_iter().filter_map(|(_, role, d)| octagon(d).map(|o| (format!("{} ({role})", d.id), o))).collect();
        if layers.len() < 3 {
            return None;
        }
        overlay(&layers, x, y)
    }
}

/// The octagon of a state, if it has one.
fn octagon(d: &StateDetail) -> Option<&engine::trace::OctagonView> {
    d.parts.iter().find_map(|p| match p {
        Part::Octagon { view, .. } => Some(view),
        _ => None,
    })
}

/// The variables a state's octagon constrains.
fn octagon_vars(d: &StateDetail) -> &[String] {
    d.parts
        .iter()
        .find_map(|p| match p {
            Part::Octagon { vars, .. } => Some(vars.as_slice()),
            _ => None,
        })
        .unwrap_or(&[])
}

/// A state's content as short lines for a card's column: its octagon
/// constraints, its values (`x = 1`), its constraints and texts; `⊤` when
/// nothing is known.
pub fn summary(d: &StateDetail) -> Vec<String> {
    let mut out = Vec::new();
    for p in &d.parts {
        match p {
            Part::Octagon { bottom: true, .. } => out.push("⊥".to_string()),
            Part::Octagon { constraints, .. } => out.extend(constraints.iter().cloned()),
            Part::Values(values) | Part::Symbolic(values) => out.extend(values.iter().map(|(n, v)| format!("{n} = {v}"))),
            Part::Constraints(cs) => out.extend(cs.iter().cloned()),
            Part::Text(_, text) => out.push(text.clone()),
            Part::Predicate(p) => {
                out.push(format!("ψ: {}", p.abstraction));
                out.extend(p.path.iter().map(|c| format!("φ: {c}")));
            }
            Part::SymExec(p) => {
                out.extend(p.memory.iter().map(|(n, v)| format!("{n} = {v}")));
                out.extend(p.path_condition.iter().map(|c| format!("PC: {c}")));
            }
        }
    }
    if out.is_empty() {
        out.push("⊤".to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::analysis::{Run, RunSpec};
    use crate::model::page::EXAMPLE_PROGRAM;
    use crate::model::state_view::detail;

    fn run(preset: &str) -> Run {
        Run::start(EXAMPLE_PROGRAM, RunSpec { preset: preset.into(), max_steps: 300, ..RunSpec::default() }).unwrap().complete()
    }

    #[test]
    fn at_a_merge_the_card_shows_both_inputs_and_the_result_overlaid() {
        let mut run = run("octagon-join");
        let k = run.cursor.events().iter().position(|e| matches!(e, Event::Merge { replaced: true, .. })).unwrap() + 1;
        run.cursor.seek(k);
        let (snap, events) = (run.cursor.snapshot(), run.cursor.events());
        let shown = ShownMerge::of(k, events).unwrap();
        assert!(shown.replaced && shown.operator == MergeKind::Join);
        let result = detail(snap, shown.result).unwrap();
        assert_eq!(result.merged_from, Some((shown.new, shown.reached)));
        let card = MergeCard::of(&result, Some(shown), |id| detail(snap, id)).unwrap();
        let ids: Vec<String> = card.columns().iter().map(|(_, _, d)| d.id.clone()).collect();
        assert_eq!(ids, [shown.new.to_string(), shown.reached.to_string(), shown.result.to_string()]);
        assert!(card.changed);
        assert_eq!(
            card.heading,
            format!(
                "merge^join({}, {}) = {}: {} replaces {} in the reached set",
                shown.new, shown.reached, shown.result, shown.result, shown.reached
            )
        );
        // The reached operand is already out of the reached set (the fold
        // applies the replacement at the merge event).
        assert_eq!(card.reached.status, format!("replaced by {} (merge)", shown.result));
        assert!(card.vars.len() >= 2, "{:?}", card.vars);
        let plot = card.plot(&card.vars[0], &card.vars[1]).unwrap();
        assert_eq!(plot.layers.len(), 3);
        assert!(plot.layers.iter().all(|l| !l.points.is_empty()), "{plot:?}");
        assert!(plot.layers[2].name.ends_with("(result)"));
        // The join holds both inputs: its polygon's x range covers theirs.
        let span = |l: &crate::model::octagon_plot::Layer| {
            let xs = l.vertices.iter().map(|v| v[0]);
            (xs.clone().fold(f64::INFINITY, f64::min), xs.fold(f64::NEG_INFINITY, f64::max))
        };
        let (r, a, b) = (span(&plot.layers[2]), span(&plot.layers[0]), span(&plot.layers[1]));
        assert!(r.0 <= a.0.min(b.0) + 1e-9 && r.1 >= a.1.max(b.1) - 1e-9, "{r:?} ⊇ {a:?} ∪ {b:?}");
        // A few events later the result, inspected, still shows as a merge.
        run.cursor.seek(k + 2);
        let snap = run.cursor.snapshot();
        let later = MergeCard::of(&detail(snap, shown.result).unwrap(), ShownMerge::of(k + 2, run.cursor.events()), |id| {
            detail(snap, id)
        })
        .unwrap();
        assert_eq!(later.new.id, shown.new.to_string());
        assert!(later.heading.contains(&format!("it replaced {}", shown.reached)), "{}", later.heading);
        // Any other state has no card.
        let plain = detail(snap, shown.new).unwrap();
        assert_eq!(MergeCard::of(&plain, None, |id| detail(snap, id)), None);
    }

    #[test]
    fn a_merge_that_changed_nothing_has_a_card_whose_result_is_the_reached_state() {
        let mut run = run("octagon-widening");
        let events = run.cursor.events().to_vec();
        let k = events.iter().position(|e| matches!(e, Event::Merge { replaced: false, .. })).expect("an unchanged merge") + 1;
        run.cursor.seek(k);
        let snap = run.cursor.snapshot();
        let shown = ShownMerge::of(k, &events).unwrap();
        assert_eq!(shown.result, shown.reached);
        let card = MergeCard::of(&detail(snap, shown.result).unwrap(), Some(shown), |id| detail(snap, id)).unwrap();
        assert!(!card.changed);
        assert_eq!(card.result.id, card.reached.id);
        assert!(card.heading.ends_with(&format!("nothing changed, {} stays", shown.reached)), "{}", card.heading);
        assert_eq!(card.columns()[2].0, "result (e″ unchanged)");
        assert!(ShownMerge::of(k + 1, &events).is_none() || matches!(events[k], Event::Merge { .. }));
        assert_eq!(ShownMerge::of(0, &events), None);
    }

    #[test]
    fn a_summary_lists_what_a_state_knows() {
        let d = StateDetail {
            id: "s1".into(),
            location: "N1".into(),
            callstack: vec![],
            status: String::new(),
            parts: vec![Part::Values(vec![("x".into(), "1".into())]), Part::Text("CPA".into(), "t".into())],
            merged_from: None,
        };
        assert_eq!(summary(&d), ["x = 1", "t"]);
        assert_eq!(summary(&StateDetail { parts: vec![], ..d }), ["⊤"]);
    }
}
