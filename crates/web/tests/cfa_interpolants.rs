//! The latest CEGAR refinement's interpolants drawn on the CFA graph
//! (`CfaGraph::interpolant_labels`), for a value-cegar run driven as the
//! page drives it: labels appear right after the first `Refinement` event,
//! at the nodes the interpolants hold at (on the folded box that contains
//! them when chains are folded), never over a node, and are gone again
//! when the cursor steps back before the refinement.

use cfa::NodeId;
use engine::trace::{Event, InterpolantView};
use engine::view::Snapshot;
use web::model::analysis::{Run, RunSpec};
use web::model::graphs::cfa::{interpolant_display, CfaGraph, InterpolantLabel, INTERPOLANT_CHARS};

/// `x` is constant and the loop is irrelevant: value-cegar starts tracking
/// nothing, finds the error path through `x != 6`, and explicit-value
/// interpolation refutes it with `{x=6}` along the path (the loop counter
/// is never needed).
const PROGRAM: &str = include_str!("../../../static/examples/cegar-interpolants.c");

fn run() -> Run {
    Run::start(PROGRAM, RunSpec { preset: "value-cegar".into(), max_steps: 5000, ..RunSpec::default() }).unwrap().complete()
}

/// The position just after the first `Refinement` event.
fn after_first_refinement(run: &Run) -> usize {
    run.cursor.events().iter().position(|e| matches!(e, Event::Refinement { .. })).expect("value-cegar refines the spurious path")
        + 1
}

fn labels_at(run: &mut Run, graph: &CfaGraph, k: usize) -> Vec<InterpolantLabel> {
    run.cursor.seek(k);
    graph.interpolant_labels(&run.program, &run.cursor.snapshot().interpolants)
}

fn label<'a>(labels: &'a [InterpolantLabel], node: &str) -> &'a InterpolantLabel {
    labels.iter().find(|l| l.node.to_string() == node).unwrap_or_else(|| panic!("no label at {node}: {labels:#?}"))
}

/// Checks that no label meets a node's shape (with its count badge) or another label.
fn assert_clear(graph: &CfaGraph, labels: &[InterpolantLabel]) {
    for l in labels {
        for n in &graph.nodes {
            let (x0, y0) = (n.center.x - n.width / 2.0, n.center.y - n.height / 2.0);
            assert!(!l.overlaps(x0, y0, n.width, n.height), "the label at {} covers {}: {l:?} / {n:?}", l.node, n.title);
        }
        for o in labels.iter().filter(|o| o.node != l.node) {
            assert!(!l.overlaps(o.at.x, o.at.y, o.width, o.height), "labels at {} and {} overlap", l.node, o.node);
        }
    }
}

#[test]
fn interpolants_are_drawn_on_the_cfa_right_after_the_first_refinement_and_not_before() {
    let mut run = run();
    let graph = CfaGraph::build(&run.program, false);
    let r = after_first_refinement(&run);
    for k in 0..r {
        assert!(labels_at(&mut run, &graph, k).is_empty(), "no interpolant is drawn at event {k}, before the refinement");
    }
    let labels = labels_at(&mut run, &graph, r);
    let head = run.program.nodes.iter().find(|n| n.loop_head).unwrap().id;
    assert_eq!(head, NodeId(4));
    // The loop head: `x` must be known there to refute the path.
    let at_head = label(&labels, "N4");
    assert_eq!(at_head.text, "{x=6}");
    assert_eq!(at_head.graph_node, graph.node_index(head).unwrap());
    assert!(at_head.full.contains("{main::x=6}") && at_head.full.starts_with("interpolant at N4"), "{}", at_head.full);
    // Along the straight line before the loop, and `false` past `x != 6`.
    let texts: Vec<(String, &str)> = labels.iter().map(|l| (l.node.to_string(), l.text.as_str())).collect();
    assert_eq!(
        texts,
        [("N1", "{x=6}"), ("N2", "{x=6}"), ("N3", "{x=6}"), ("N4", "{x=6}"), ("N6", "{x=6}"), ("N7", "false")]
            .map(|(n, t)| (n.to_string(), t)),
    );
    assert_clear(&graph, &labels);
    // A pure function of the event prefix, like the rest of the fold.
    let fresh = graph.interpolant_labels(&run.program, &Snapshot::of(&run.cursor.events()[..r]).interpolants);
    assert_eq!(fresh, labels);
    // Stepping to the end and back before the refinement removes them again.
    let n = run.cursor.len();
    assert!(!labels_at(&mut run, &graph, n).is_empty(), "the latest refinement's interpolants stay until the end");
    assert!(labels_at(&mut run, &graph, r - 1).is_empty());
    assert_eq!(labels_at(&mut run, &graph, r), labels);
}

#[test]
fn a_folded_chain_carries_its_nodes_interpolants_on_its_box() {
    let mut run = run();
    let folded = CfaGraph::build(&run.program, true);
    let r = after_first_refinement(&run);
    let labels = labels_at(&mut run, &folded, r);
    let chain = folded.node_index(NodeId(2)).unwrap();
    assert!(folded.nodes[chain].is_folded(), "N1–N3 is a straight-line chain: {:?}", folded.nodes[chain]);
    assert_eq!(folded.nodes[chain].title, "N1–N3");
    for (node, text) in [("N1", "N1: {x=6}"), ("N2", "N2: {x=6}"), ("N3", "N3: {x=6}")] {
        let l = label(&labels, node);
        assert_eq!(l.graph_node, chain, "{node} is drawn on the box");
        assert_eq!(l.text, text);
    }
    // One row of the box per node, in chain order.
    assert!(label(&labels, "N1").at.y < label(&labels, "N2").at.y && label(&labels, "N2").at.y < label(&labels, "N3").at.y);
    assert_eq!(label(&labels, "N4").text, "{x=6}", "the loop head is never folded");
    assert_clear(&folded, &labels);
}

#[test]
fn labels_keep_clear_of_nodes_and_long_interpolants_are_shortened() {
    let run = run();
    let long = "{main::x=6, main::n=1234567, main::i=7654321, main::y=1}";
    // An interpolant at every node, after its first incoming edge.
    let interpolants: Vec<InterpolantView> = run
        .program
        .nodes
        .iter()
        .filter_map(|n| n.incoming.first().map(|&e| (n.id, e)))
        .enumerate()
        .map(|(position, (location, edge))| InterpolantView { position, edge, location, text: long.into() })
        .collect();
    for fold in [false, true] {
        let graph = CfaGraph::build(&run.program, fold);
        let labels = graph.interpolant_labels(&run.program, &interpolants);
        assert_eq!(labels.len(), interpolants.len(), "one label per node");
        for l in &labels {
            assert!(l.text.ends_with('…') && l.text.chars().count() == INTERPOLANT_CHARS, "{}", l.text);
            assert!(l.full.contains(long), "the tooltip has it in full: {}", l.full);
        }
        assert_clear(&graph, &labels);
        assert_eq!(labels, graph.interpolant_labels(&run.program, &interpolants), "deterministic");
    }
    // Listing 2.1 too (a different shape of graph).
    let program = cfa::from_source(web::model::page::EXAMPLE_PROGRAM).unwrap();
    let graph = CfaGraph::build(&program, false);
    let all: Vec<InterpolantView> = program
        .nodes
        .iter()
        .filter_map(|n| n.incoming.first().map(|&e| InterpolantView { position: 0, edge: e, location: n.id, text: "{}".into() }))
        .collect();
    let labels = graph.interpolant_labels(&program, &all);
    assert!(labels.iter().all(|l| l.text == "true"));
    assert_clear(&graph, &labels);
}

#[test]
fn interpolant_texts_read_as_formulas_over_the_nodes_variables() {
    assert_eq!(interpolant_display("{}", "main"), "true", "nothing needs to be known");
    assert_eq!(interpolant_display("false", "main"), "false");
    assert_eq!(interpolant_display("{main::x=6, f::y=1}", "main"), "{x=6, f::y=1}");
    assert_eq!(interpolant_display("{domain::x=6}", "main"), "{domain::x=6}", "only a whole qualifier goes");
}
