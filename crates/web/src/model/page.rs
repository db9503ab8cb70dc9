//! What the page shows, computed without any browser: the editor's state and
//! the views derived from it (diagnostics, or the CFA as a listing and as
//! JSON).
//!
//! Architecture invariant: nothing here depends on Yew or web-sys, so
//! "what the page shows for this program" is tested natively
//! (`cargo test -p web`). The Yew components in `app` only render these
//! values.

use cfa::{NodeKind, Program};
use minic::{Diagnostic, Severity};

/// The built-in example: Listing 2.1 of the octagon thesis (a loop of
/// unknown length, then a case split that makes `ERROR` unreachable).
pub const EXAMPLE_PROGRAM: &str = include_str!("../../../../static/examples/octagon-listing2-1.c");

/// What the editor pane holds and what the page derives from it.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// The program text as typed.
    pub source: String,
    /// The result of parsing and lowering `source`.
    pub view: CfaView,
}

/// A change the user makes; [`Model::reduce`] applies it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// The editor's text became this.
    Edit(String),
    /// Put the built-in example back.
    ResetExample,
}

impl Model {
    /// The model for a program text, parsed and lowered at once.
    pub fn new(source: impl Into<String>) -> Model {
        let source = source.into();
        let view = CfaView::of_source(&source);
        Model { source, view }
    }

    /// The model after `action` (pure: the page keeps no other state).
    pub fn reduce(&self, action: Action) -> Model {
        match action {
            Action::Edit(text) if text == self.source => self.clone(),
            Action::Edit(text) => Model::new(text),
            Action::ResetExample => Model::new(EXAMPLE_PROGRAM),
        }
    }
}

/// The right-hand pane: either the problems that stop lowering, or the CFA.
#[derive(Clone, Debug, PartialEq)]
pub enum CfaView {
    /// The program has errors; nothing can be lowered.
    Errors(Vec<DiagnosticRow>),
    /// The program lowered to CFAs.
    Cfa {
        /// One listing per function, in source order.
        functions: Vec<FunctionListing>,
        /// Warnings (e.g. calls to undefined functions).
        warnings: Vec<DiagnosticRow>,
        /// The whole program as pretty-printed JSON ([`Program::to_json`]).
        json: String,
    },
}

/// One diagnostic as the page shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiagnosticRow {
    /// 1-based line of the problem.
    pub line: u32,
    /// 1-based column (in characters) of the problem.
    pub col: u32,
    /// Whether it stops the program from being lowered.
    pub is_error: bool,
    /// The message in plain words.
    pub message: String,
}

impl DiagnosticRow {
    fn of(d: &Diagnostic) -> DiagnosticRow {
        DiagnosticRow { line: d.span.line, col: d.span.col, is_error: d.severity == Severity::Error, message: d.message.clone() }
    }

    /// `3:14 error: expected `;``, as the page prints it.
    pub fn text(&self) -> String {
        let kind = if self.is_error { "error" } else { "warning" };
        format!("{}:{} {}: {}", self.line, self.col, kind, self.message)
    }
}

/// The CFA of one function as a listing: its nodes in id order, each with
/// its outgoing edges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionListing {
    /// The function's source name.
    pub name: String,
    /// `N<k>` of the entry node.
    pub entry: String,
    /// `N<k>` of the exit node.
    pub exit: String,
    /// Its nodes, in id order.
    pub nodes: Vec<NodeRow>,
}

/// One location of a listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeRow {
    /// `N<k>`.
    pub id: String,
    /// The source line the location belongs to.
    pub line: u32,
    /// What is special about it (entry, exit, loop head, error, …).
    pub markers: Vec<Marker>,
    /// Its outgoing edges, in order.
    pub edges: Vec<EdgeRow>,
}

/// A property of a node worth pointing out to a student.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marker {
    /// The function's entry.
    Entry,
    /// The function's exit.
    Exit,
    /// A loop head: merging at loop heads and widening act here.
    LoopHead,
    /// The error location the analysis must prove unreachable.
    Error,
    /// A path ends here without error (`abort()`, `exit()`).
    Terminal,
}

impl Marker {
    /// The short word the listing shows.
    pub fn word(self) -> &'static str {
        match self {
            Marker::Entry => "entry",
            Marker::Exit => "exit",
            Marker::LoopHead => "loop head",
            Marker::Error => "ERROR",
            Marker::Terminal => "terminal",
        }
    }

    /// The CSS class the page styles it with.
    pub fn css_class(self) -> &'static str {
        match self {
            Marker::Entry => "marker-entry",
            Marker::Exit => "marker-exit",
            Marker::LoopHead => "marker-loop-head",
            Marker::Error => "marker-error",
            Marker::Terminal => "marker-terminal",
        }
    }
}

/// One edge of a listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EdgeRow {
    /// `N<k>` of the target node.
    pub target: String,
    /// The source line of the statement it comes from.
    pub line: u32,
    /// The operation as C-like text (`ticks = ticks + 1;`, `[flag <= 0]`).
    pub label: String,
    /// Which kind of operation, as one word (`assume`, `assign`, …).
    pub kind: &'static str,
}

impl CfaView {
    /// Parses and lowers `source` and builds what the page shows for it.
    pub fn of_source(source: &str) -> CfaView {
        match cfa::from_source(source) {
            Ok(program) => CfaView::of_program(&program),
            Err(diagnostics) => {
                let mut rows: Vec<DiagnosticRow> = diagnostics.iter().map(DiagnosticRow::of).collect();
                rows.sort_by_key(|r| (!r.is_error, r.line, r.col));
                CfaView::Errors(rows)
            }
        }
    }

    /// The listing, warnings and JSON of a lowered program.
    pub fn of_program(program: &Program) -> CfaView {
        let functions = program.functions.iter().map(|f| function_listing(program, f)).collect();
        let warnings = program.warnings.iter().map(DiagnosticRow::of).collect();
        // The same JSON document as `cpaplay cfa --json`.
        let json = serde_json::to_string_pretty(&program.to_json()).unwrap_or_default();
        CfaView::Cfa { functions, warnings, json }
    }

    /// The lines that should be marked in the editor's gutter as errors.
    pub fn error_lines(&self) -> Vec<u32> {
        match self {
            CfaView::Errors(rows) => rows.iter().filter(|r| r.is_error).map(|r| r.line).collect(),
            CfaView::Cfa { .. } => Vec::new(),
        }
    }

    /// The status line above the view: how many errors to fix, or how big
    /// the CFA is (`1 function, 13 nodes, 14 edges`).
    pub fn status(&self) -> String {
        match self {
            CfaView::Errors(rows) => {
                let errors = rows.iter().filter(|r| r.is_error).count();
                format!("{errors} error{} — fix {} to see the CFA", plural(errors), if errors == 1 { "it" } else { "them" })
            }
            CfaView::Cfa { functions, .. } => {
                let nodes: usize = functions.iter().map(|f| f.nodes.len()).sum();
                let edges: usize = functions.iter().flat_map(|f| &f.nodes).map(|n| n.edges.len()).sum();
                format!(
                    "{} function{}, {nodes} node{}, {edges} edge{}",
                    functions.len(),
                    plural(functions.len()),
                    plural(nodes),
                    plural(edges)
                )
            }
        }
    }

    /// The whole view as plain text: what a screen reader or a snapshot
    /// test reads.
    pub fn text(&self) -> String {
        match self {
            CfaView::Errors(rows) => rows.iter().map(|r| r.text() + "\n").collect(),
            CfaView::Cfa { functions, warnings, .. } => {
                let mut out = String::new();
                for w in warnings {
                    out += &w.text();
                    out.push('\n');
                }
                for f in functions {
                    out += &f.text();
                }
                out
            }
        }
    }
}

/// The plural ending of a count's noun: `s` unless it is one.
fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

impl NodeRow {
    /// The CFA node of this row (its id without the `N`), to select it.
    pub fn node(&self) -> Option<cfa::NodeId> {
        self.id.strip_prefix('N').and_then(|k| k.parse().ok()).map(cfa::NodeId)
    }
}

impl FunctionListing {
    /// The listing as text, e.g.
    ///
    /// ```text
    /// function main (entry N1, exit N2)
    ///   N5 line 9 [loop head]
    ///     -> N6  line 9  [!(__tmp0)]
    /// ```
    pub fn text(&self) -> String {
        let mut out = format!("function {} (entry {}, exit {})\n", self.name, self.entry, self.exit);
        for n in &self.nodes {
            out += &format!("  {} line {}", n.id, n.line);
            if !n.markers.is_empty() {
                let words: Vec<&str> = n.markers.iter().map(|m| m.word()).collect();
                out += &format!(" [{}]", words.join(", "));
            }
            out.push('\n');
            for e in &n.edges {
                out += &format!("    -> {}  line {}  {}\n", e.target, e.line, e.label);
            }
        }
        out
    }
}

fn function_listing(program: &Program, f: &cfa::Function) -> FunctionListing {
    let nodes = program
        .nodes
        .iter()
        .filter(|n| n.function == f.id)
        .map(|n| {
            let mut markers = Vec::new();
            match n.kind {
                NodeKind::Entry => markers.push(Marker::Entry),
                NodeKind::Exit => markers.push(Marker::Exit),
                NodeKind::Terminal => markers.push(Marker::Terminal),
                NodeKind::Normal => {}
            }
            if n.loop_head {
                markers.push(Marker::LoopHead);
            }
            if n.error {
                markers.push(Marker::Error);
            }
            let edges = program
                .successors(n.id)
                .map(|e| EdgeRow {
                    target: e.target.to_string(),
                    line: e.line,
                    label: e.label.clone(),
                    kind: cfa::edge_kind_name(&e.kind),
                })
                .collect();
            NodeRow { id: n.id.to_string(), line: n.line, markers, edges }
        })
        .collect();
    FunctionListing { name: f.name.clone(), entry: f.entry.to_string(), exit: f.exit.to_string(), nodes }
}

/// The 1-based line numbers for an editor gutter showing `source`
/// (at least one line, one more after a trailing newline).
pub fn line_numbers(source: &str) -> std::ops::RangeInclusive<usize> {
    1..=source.split('\n').count()
}

/// The caret position a browser text field uses (UTF-16 code units from the
/// start) for 1-based `line` and `col` (in characters) of `source`; past
/// the end of a line or of the text it stops at that end.
pub fn utf16_offset(source: &str, line: u32, col: u32) -> u32 {
    let mut offset = 0usize;
    for (i, text) in source.split('\n').enumerate() {
        if i + 1 == line as usize {
            let in_line: usize = text.chars().take(col.saturating_sub(1) as usize).map(char::len_utf16).sum();
            return (offset + in_line) as u32;
        }
        offset += text.encode_utf16().count() + 1;
    }
    source.encode_utf16().count() as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use cfa::{Edge, EdgeId, EdgeKind, FuncId, Function, Node, NodeId};
    use minic::Span;

    /// A hand-built program `main(){ while(c) ; ERROR: }` so the listing is
    /// tested independently of the front end.
    fn tiny_program() -> Program {
        let node = |id: u32, kind, loop_head, error, line, outgoing: Vec<u32>, incoming: Vec<u32>| Node {
            id: NodeId(id),
            function: FuncId(0),
            kind,
            loop_head,
            error,
            line,
            outgoing: outgoing.into_iter().map(EdgeId).collect(),
            incoming: incoming.into_iter().map(EdgeId).collect(),
        };
        let edge = |id: u32, s: u32, t: u32, kind, line, label: &str| Edge {
            id: EdgeId(id),
            source: NodeId(s),
            target: NodeId(t),
            kind,
            line,
            span: Span::default(),
            label: label.to_string(),
        };
        let c = cfa::Expr::Const { value: 1, ty: minic::IntType::Int };
        Program {
            functions: vec![Function {
                id: FuncId(0),
                name: "main".into(),
                entry: NodeId(0),
                exit: NodeId(1),
                params: vec![],
                ret: None,
                locals: vec![],
                span: Span::default(),
            }],
            nodes: vec![
                node(0, NodeKind::Entry, false, false, 1, vec![0], vec![]),
                node(1, NodeKind::Exit, false, false, 4, vec![], vec![]),
                node(2, NodeKind::Normal, true, false, 2, vec![1, 2], vec![0, 1]),
                node(3, NodeKind::Normal, false, true, 3, vec![], vec![2]),
            ],
            edges: vec![
                edge(0, 0, 2, EdgeKind::Blank, 1, "Function start dummy edge"),
                edge(1, 2, 2, EdgeKind::Assume { cond: c.clone(), positive: true }, 2, "[c]"),
                edge(2, 2, 3, EdgeKind::Assume { cond: c, positive: false }, 2, "[!(c)]"),
            ],
            variables: vec![],
            main: FuncId(0),
            warnings: vec![Diagnostic::warning(Span { start: 0, end: 1, line: 2, col: 9 }, "call to undefined function `c`")],
        }
    }

    #[test]
    fn listing_marks_entry_exit_loop_heads_and_error_nodes() {
        let view = CfaView::of_program(&tiny_program());
        let expected = "\
2:9 warning: call to undefined function `c`
function main (entry N0, exit N1)
  N0 line 1 [entry]
    -> N2  line 1  Function start dummy edge
  N1 line 4 [exit]
  N2 line 2 [loop head]
    -> N2  line 2  [c]
    -> N3  line 2  [!(c)]
  N3 line 3 [ERROR]
";
        assert_eq!(view.text(), expected);
        assert!(view.error_lines().is_empty());
    }

    #[test]
    fn listing_keeps_edge_kinds_and_shows_the_json_view() {
        let program = tiny_program();
        let CfaView::Cfa { functions, json, .. } = CfaView::of_program(&program) else {
            panic!("expected a CFA view");
        };
        let kinds: Vec<&str> = functions[0].nodes[2].edges.iter().map(|e| e.kind).collect();
        assert_eq!(kinds, ["assume", "assume"]);
        let value: serde_json::Value = serde_json::from_str(&json).expect("the JSON block parses");
        assert_eq!(value, program.to_json());
        assert_eq!(value["nodes"].as_array().map(Vec::len), Some(4));
    }

    #[test]
    fn diagnostics_print_line_and_column() {
        let row = DiagnosticRow { line: 3, col: 14, is_error: true, message: "expected `;`".into() };
        assert_eq!(row.text(), "3:14 error: expected `;`");
        let view = CfaView::Errors(vec![row]);
        assert_eq!(view.error_lines(), vec![3]);
    }

    #[test]
    fn gutter_counts_lines() {
        assert_eq!(line_numbers(""), 1..=1);
        assert_eq!(line_numbers("a\nb"), 1..=2);
        assert_eq!(line_numbers("a\nb\n"), 1..=3);
    }

    #[test]
    fn caret_offsets_count_utf16_units() {
        let src = "ab\nµx𝔸y\nz";
        assert_eq!(utf16_offset(src, 1, 1), 0);
        assert_eq!(utf16_offset(src, 2, 1), 3);
        // `µ` is one UTF-16 unit, `𝔸` two.
        assert_eq!(utf16_offset(src, 2, 4), 3 + 1 + 1 + 2);
        assert_eq!(utf16_offset(src, 2, 99), 3 + 5);
        assert_eq!(utf16_offset(src, 3, 1), 9);
        assert_eq!(utf16_offset(src, 7, 1), 10);
    }

    // The tests below go through the real front end (`minic` + `cfa`).

    #[test]
    fn built_in_example_lowers_to_a_cfa_with_a_loop_head_and_an_error_node() {
        let model = Model::new(EXAMPLE_PROGRAM);
        let text = model.view.text();
        assert!(matches!(model.view, CfaView::Cfa { .. }), "{text}");
        assert!(text.contains("function main"), "{text}");
        assert!(text.contains("[loop head]"), "{text}");
        assert!(text.contains("ERROR"), "{text}");
        assert_eq!(model.view.status(), "1 function, 13 nodes, 14 edges");
        let CfaView::Cfa { functions, .. } = &model.view else { unreachable!() };
        let rows = &functions[0].nodes;
        assert_eq!(rows.iter().map(|r| r.node()).collect::<Vec<_>>(), (0..13).map(|k| Some(cfa::NodeId(k))).collect::<Vec<_>>());
        assert_eq!(NodeRow { id: "x".into(), line: 1, markers: Vec::new(), edges: Vec::new() }.node(), None);
    }

    #[test]
    fn a_syntax_error_shows_its_line_and_column_and_fixing_it_brings_the_cfa_back() {
        let model = Model::new(EXAMPLE_PROGRAM);
        let broken = model.reduce(Action::Edit(EXAMPLE_PROGRAM.replace("int ticks = 0;", "int ticks = 0")));
        let CfaView::Errors(rows) = &broken.view else {
            panic!("expected errors, got {}", broken.view.text());
        };
        let line = EXAMPLE_PROGRAM.lines().position(|l| l.contains("int ticks")).unwrap() as u32 + 1;
        assert!(rows.iter().any(|r| r.is_error && (r.line == line || r.line == line + 1)), "{rows:?}");
        let errors = rows.iter().filter(|r| r.is_error).count();
        let expected = if errors == 1 {
            "1 error — fix it to see the CFA".to_string()
        } else {
            format!("{errors} errors — fix them to see the CFA")
        };
        assert_eq!(broken.view.status(), expected);
        let fixed = broken.reduce(Action::ResetExample);
        assert_eq!(fixed, model);
    }
}
