//! The examples gallery: the papers' examples and our own, each a mini-C
//! program with a short Markdown explanation (what to look at, which
//! configurations to compare, what the paper reports).
//!
//! Every example is a pair of files in `static/examples/`: `NAME.c` and
//! `NAME.md`. The Markdown starts with a front matter block:
//!
//! ```text
//! ---
//! title: An unbounded loop before an infeasible error
//! program: octagon-listing2-1.c
//! configs: octagon-sep, octagon-join, octagon-widening
//! int-model: math
//! expect: octagon-sep=unknown, octagon-join=unknown, octagon-widening=true
//! source: Octagon thesis, Listing 2.1
//! seed: cpa-merge
//! ---
//! ```
//!
//! `configs` are the configurations to compare (the first is the one a
//! single pane opens with): presets, or presets with option overrides
//! (`symbolic[solver.theory=INTEGER]`, read by
//! [`crate::model::config_choice`]); `expect` is the verdict each of them
//! reaches (a test runs every example under every listed configuration and
//! checks it). `seed` names the analysis family the example belongs to
//! ([`SEEDS`]); the gallery groups by it. [`FIRST_LECTURE`] is a short
//! ordered path through the examples for a first lecture.
//!
//! The explanation is parsed by pulldown-cmark into [`Block`]s of plain
//! text — raw HTML in the Markdown stays visible text, links only keep
//! `https:` and in-page targets — so nothing from an example file is ever
//! inserted into the page as HTML.

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

/// The examples shipped with the page: (`NAME.md`, `NAME.c`) pairs.
const FILES: &[(&str, &str, &str)] = &[
    (
        "octagon-listing2-1",
        include_str!("../../../../static/examples/octagon-listing2-1.md"),
        include_str!("../../../../static/examples/octagon-listing2-1.c"),
    ),
    (
        "octagon-listing2-1-bounded",
        include_str!("../../../../static/examples/octagon-listing2-1-bounded.md"),
        include_str!("../../../../static/examples/octagon-listing2-1-bounded.c"),
    ),
    (
        "octagon-relational",
        include_str!("../../../../static/examples/octagon-relational.md"),
        include_str!("../../../../static/examples/octagon-relational.c"),
    ),
    (
        "symexec-listing1",
        include_str!("../../../../static/examples/symexec-listing1.md"),
        include_str!("../../../../static/examples/symexec-listing1.c"),
    ),
    (
        "symbolic-theory",
        include_str!("../../../../static/examples/symbolic-theory.md"),
        include_str!("../../../../static/examples/symbolic-theory.c"),
    ),
    (
        "symbolic-strengthening",
        include_str!("../../../../static/examples/symbolic-strengthening.md"),
        include_str!("../../../../static/examples/symbolic-strengthening.c"),
    ),
    (
        "value-join-false-alarm",
        include_str!("../../../../static/examples/value-join-false-alarm.md"),
        include_str!("../../../../static/examples/value-join-false-alarm.c"),
    ),
    ("overflow", include_str!("../../../../static/examples/overflow.md"), include_str!("../../../../static/examples/overflow.c")),
    ("counter", include_str!("../../../../static/examples/counter.md"), include_str!("../../../../static/examples/counter.c")),
    (
        "cegar-footnote",
        include_str!("../../../../static/examples/cegar-footnote.md"),
        include_str!("../../../../static/examples/cegar-footnote.c"),
    ),
    (
        "cegar-interpolants",
        include_str!("../../../../static/examples/cegar-interpolants.md"),
        include_str!("../../../../static/examples/cegar-interpolants.c"),
    ),
    (
        "cegar-restart",
        include_str!("../../../../static/examples/cegar-restart.md"),
        include_str!("../../../../static/examples/cegar-restart.c"),
    ),
    (
        "predicate-two-loops",
        include_str!("../../../../static/examples/predicate-two-loops.md"),
        include_str!("../../../../static/examples/predicate-two-loops.c"),
    ),
    (
        "predicate-mode",
        include_str!("../../../../static/examples/predicate-mode.md"),
        include_str!("../../../../static/examples/predicate-mode.c"),
    ),
    (
        "predicate-doubling",
        include_str!("../../../../static/examples/predicate-doubling.md"),
        include_str!("../../../../static/examples/predicate-doubling.c"),
    ),
    (
        "predicate-memory-regions",
        include_str!("../../../../static/examples/predicate-memory-regions.md"),
        include_str!("../../../../static/examples/predicate-memory-regions.c"),
    ),
    (
        "symexec-running-example",
        include_str!("../../../../static/examples/symexec-running-example.md"),
        include_str!("../../../../static/examples/symexec-running-example.c"),
    ),
    (
        "symexec-fig2-path",
        include_str!("../../../../static/examples/symexec-fig2-path.md"),
        include_str!("../../../../static/examples/symexec-fig2-path.c"),
    ),
    (
        "symexec-thresholds",
        include_str!("../../../../static/examples/symexec-thresholds.md"),
        include_str!("../../../../static/examples/symexec-thresholds.c"),
    ),
    (
        "transform-parity-even",
        include_str!("../../../../static/examples/transform-parity-even.md"),
        include_str!("../../../../static/examples/transform-parity-even.c"),
    ),
    (
        "transform-chain",
        include_str!("../../../../static/examples/transform-chain.md"),
        include_str!("../../../../static/examples/transform-chain.c"),
    ),
    (
        "transform-freeze",
        include_str!("../../../../static/examples/transform-freeze.md"),
        include_str!("../../../../static/examples/transform-freeze.c"),
    ),
    (
        "transform-freeze-memory",
        include_str!("../../../../static/examples/transform-freeze-memory.md"),
        include_str!("../../../../static/examples/transform-freeze-memory.c"),
    ),
    (
        "bam-cache-hits",
        include_str!("../../../../static/examples/bam-cache-hits.md"),
        include_str!("../../../../static/examples/bam-cache-hits.c"),
    ),
    (
        "bam-two-checks",
        include_str!("../../../../static/examples/bam-two-checks.md"),
        include_str!("../../../../static/examples/bam-two-checks.c"),
    ),
    (
        "bam-reduce",
        include_str!("../../../../static/examples/bam-reduce.md"),
        include_str!("../../../../static/examples/bam-reduce.c"),
    ),
];

/// The analysis families the playground implements (the "seeds"), in
/// gallery order: id, heading, and the paper it comes from.
pub const SEEDS: &[(&str, &str, &str)] = &[
    (
        "cpa-merge",
        "CPA+ with values and octagons: merge^sep, ^join, ^widening",
        "Octagon thesis (CPA+ with the octagon domain) and our own",
    ),
    ("cegar", "CEGAR, counterexample checks and restarts", "CPAchecker's value-analysis CEGAR, the octagon thesis, and our own"),
    ("symbolic", "Symbolic execution: symbolic values and constraints", "Symbolic execution in CPAchecker"),
    ("predicate", "Predicate analysis: Boolean and Cartesian abstraction", "CPAchecker's PredicateCPA with CEGAR"),
    (
        "symexec",
        "Symbolic execution with implicit predicate abstraction",
        "Jonáš, Strejček, Griggio: Combining Symbolic Execution with Predicate Abstraction and CEGAR",
    ),
    (
        "transform",
        "Abstraction as a program transformation: lift, freeze/thaw; parity, sign and term domains",
        "Lauko, Ročkai, Barnat: Symbolic Computation via Program Transformation",
    ),
    (
        "bam",
        "Block-abstraction memoization: value ∥ predicate analysis",
        "Wonisch & Wehrheim: Predicate Analysis with Block-Abstraction Memoization; CPAchecker's SV-COMP'17 configuration (seed 001)",
    ),
];

/// Where to start in a first lecture: examples in order, one line each on
/// why it comes at that point.
pub const FIRST_LECTURE: &[(&str, &str)] = &[
    ("value-join-false-alarm", "What a CPA is: one state per path (merge^sep) or one per location (merge^join)."),
    ("octagon-listing2-1-bounded", "The price of merge^sep and why widening exists: Table 3.1 in miniature."),
    ("octagon-relational", "A relational domain: octagons keep what explicit values forget."),
    ("cegar-interpolants", "CEGAR: start with nothing and track only what refutes an error path."),
    ("symexec-listing1", "Symbolic execution keeps b = a + 1 exactly; a solver decides each branch."),
    ("symbolic-theory", "Integers or bit-vectors: the solver's theory decides whether overflow is seen."),
    ("predicate-doubling", "Predicate abstraction finds x == 2 * y, which no octagon can express."),
];

/// One gallery entry: a program, the configurations to run it with, and
/// the explanation.
#[derive(Clone, Debug, PartialEq)]
pub struct Example {
    /// The file stem (`octagon-listing2-1`); also the id used in links.
    pub id: &'static str,
    /// The title shown on the card.
    pub title: String,
    /// Where the example comes from (a paper and listing), if anywhere.
    pub source: Option<String>,
    /// The program file's name (`NAME.c`).
    pub program_file: String,
    /// The mini-C program.
    pub program: &'static str,
    /// The configurations to run and compare, in order: preset names, or
    /// presets with option overrides in canonical form
    /// (`symbolic[solver.theory=INTEGER]`).
    pub configs: Vec<String>,
    /// The analysis family ([`SEEDS`]) the example belongs to.
    pub seed: String,
    /// The integer model to set (`math` or `c`).
    pub int_model: String,
    /// The verdict (`true` / `false` / `unknown`) each configuration reaches.
    pub expect: Vec<(String, String)>,
    /// The explanation as safe, structured text.
    pub body: Vec<Block>,
}

impl Example {
    /// The page state the example opens as (the same state a share link
    /// carries): its program, its first configuration and integer model,
    /// and — with two or three configurations — the compare view over all
    /// of them.
    pub fn share_state(&self) -> crate::model::share::ShareState {
        // The configs were checked when the file was read.
        let first = crate::model::config_choice::parse(&self.configs[0]).ok();
        let spec = crate::model::analysis::RunSpec {
            preset: first.as_ref().map_or_else(|| self.configs[0].clone(), |c| c.preset.clone()),
            int_model: self.model(),
            properties: first.and_then(|c| c.properties()),
            ..crate::model::analysis::RunSpec::default()
        };
        let mut state = crate::model::share::ShareState::new(self.program, &spec);
        if (2..=3).contains(&self.configs.len()) {
            state.compare = self.configs.clone();
        }
        state
    }

    /// The integer model as the front end names it.
    pub fn model(&self) -> minic::IntModel {
        if self.int_model == "c" {
            minic::IntModel::C
        } else {
            minic::IntModel::Math
        }
    }

    /// The configurations that are unsound on purpose under the example's
    /// integer model (an INTEGER theory under C), each with why, in words.
    pub fn unsound_by_choice(&self) -> Vec<(String, &'static str)> {
        self.configs
            .iter()
            .filter_map(|c| {
                let choice = crate::model::config_choice::parse(c).ok()?;
                choice.unsound_by_choice(self.model()).map(|why| (choice.readable(), why))
            })
            .collect()
    }

    /// Whether a configuration asks Z3 (symbolic execution, predicate
    /// analysis): then opening the example loads Z3 into the page (at the
    /// first query that needs it, or once the example's runs are done).
    pub fn uses_solver(&self) -> bool {
        self.configs.iter().any(|c| crate::model::config_choice::uses_solver(c, self.model()))
    }

    /// Whether the example matches a gallery filter text: every word of it
    /// occurs (ignoring case) in the title, source, seed, configurations or
    /// explanation.
    pub fn matches(&self, filter: &str) -> bool {
        let hay = format!(
            "{} {} {} {} {} {}",
            self.id,
            self.title,
            self.source.as_deref().unwrap_or(""),
            self.seed,
            self.configs.join(" "),
            self.body.iter().map(block_text).collect::<Vec<_>>().join(" ")
        )
        .to_lowercase();
        filter.split_whitespace().all(|w| hay.contains(&w.to_lowercase()))
    }

    /// The expected verdict of `config`, if the example states one.
    pub fn expected(&self, config: &str) -> Option<&str> {
        self.expect.iter().find(|(c, _)| c == config).map(|(_, v)| v.as_str())
    }

    /// The card's configuration chips: each configuration in words with
    /// the verdict it is expected to give (`octagon-sep → TRUE`,
    /// `symbolic with solver.theory = INTEGER → TRUE`), in order.
    pub fn config_chips(&self) -> Vec<String> {
        self.configs
            .iter()
            .map(|c| {
                let name = crate::model::config_choice::parse(c).map_or_else(|_| c.clone(), |choice| choice.readable());
                match self.expected(c) {
                    Some(v) => format!("{name} → {}", v.to_uppercase()),
                    None => name,
                }
            })
            .collect()
    }
}

/// The examples of one seed, in gallery order.
pub fn by_seed<'a>(examples: &'a [Example], seed: &str) -> Vec<&'a Example> {
    examples.iter().filter(|e| e.seed == seed).collect()
}

/// The plain text of a block (for the filter).
fn block_text(b: &Block) -> String {
    plain_text(&flatten(vec![b.clone()]))
}

/// A block of the explanation (a safe subset of Markdown).
#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    /// A paragraph.
    Paragraph(Vec<Inline>),
    /// A heading of level 1–6.
    Heading(u8, Vec<Inline>),
    /// A bulleted or numbered list; each item is a list of blocks.
    List {
        /// Numbered (`1.`) rather than bulleted.
        ordered: bool,
        /// The items.
        items: Vec<Vec<Block>>,
    },
    /// A code block (shown verbatim).
    Code(String),
    /// A block quote.
    Quote(Vec<Block>),
    /// A table: header cells, then rows of cells.
    Table {
        /// The header row.
        head: Vec<Vec<Inline>>,
        /// The body rows.
        rows: Vec<Vec<Vec<Inline>>>,
    },
    /// A horizontal rule.
    Rule,
}

/// Inline content of a block.
#[derive(Clone, Debug, PartialEq)]
pub enum Inline {
    /// Plain text (raw HTML from the Markdown also lands here, as text).
    Text(String),
    /// `code`.
    Code(String),
    /// *emphasis*.
    Emph(Vec<Inline>),
    /// **strong**.
    Strong(Vec<Inline>),
    /// A link to an `https:` address or an in-page `#anchor`.
    Link {
        /// The target (already checked to be harmless).
        href: String,
        /// The link text.
        children: Vec<Inline>,
    },
    /// A line break.
    Break,
}

/// Why an example file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GalleryError {
    /// The example's id.
    pub id: String,
    /// The 1-based line in the `.md` file.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for GalleryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.md:{}: {}", self.id, self.line, self.message)
    }
}

/// All shipped examples, in gallery order. A malformed file is skipped and
/// reported in the second list (a test keeps the shipped set clean).
pub fn examples() -> (Vec<Example>, Vec<GalleryError>) {
    let mut ok = Vec::new();
    let mut errors = Vec::new();
    for (id, markdown, program) in FILES {
        match parse_example(id, markdown, program) {
            Ok(e) => ok.push(e),
            Err(e) => errors.push(e),
        }
    }
    (ok, errors)
}

/// The shipped example with this id.
pub fn example(id: &str) -> Option<Example> {
    // Only that example's Markdown is parsed (the page asks this while it
    // starts).
    let (id, markdown, program) = FILES.iter().find(|(i, _, _)| *i == id)?;
    parse_example(id, markdown, program).ok()
}

/// The shipped example whose program is exactly `program` — the page was
/// opened from the gallery or with a link to an example's program — so its
/// guidance can stay next to the editor.
pub fn example_with_program(program: &str) -> Option<Example> {
    let (id, markdown, program) = FILES.iter().find(|(_, _, p)| *p == program)?;
    parse_example(id, markdown, program).ok()
}

impl Example {
    /// The part of the explanation that tells the student what to do and
    /// see: from the block that starts "What to look at" to the end, or the
    /// whole explanation when it has no such block.
    pub fn guidance(&self) -> &[Block] {
        let start = self
            .body
            .iter()
            .position(|b| match b {
                Block::Paragraph(v) | Block::Heading(_, v) => plain_text(v).trim_start().starts_with("What to look at"),
                _ => false,
            })
            .unwrap_or(0);
        &self.body[start..]
    }
}

/// Parses one example's Markdown (front matter + body) for `program`.
pub fn parse_example(id: &'static str, markdown: &str, program: &'static str) -> Result<Example, GalleryError> {
    let err = |line: usize, message: String| GalleryError { id: id.to_string(), line, message };
    let mut lines = markdown.lines().enumerate();
    match lines.next() {
        Some((_, "---")) => {}
        _ => return Err(err(1, "the file must start with a `---` front matter line".into())),
    }
    let mut fields: Vec<(usize, String, String)> = Vec::new();
    let mut body_start = None;
    for (i, line) in lines.by_ref() {
        if line.trim() == "---" {
            body_start = Some(i + 1);
            break;
        }
        if line.trim().is_empty() {
            continue;
        }
        let Some((key, value)) = line.split_once(':') else {
            return Err(err(i + 1, format!("expected `key: value`, found `{}`", line.trim())));
        };
        fields.push((i + 1, key.trim().to_string(), value.trim().to_string()));
    }
    let Some(body_start) = body_start else {
        return Err(err(1, "the front matter is not closed by a `---` line".into()));
    };
    let field = |key: &str| fields.iter().find(|(_, k, _)| k == key).map(|(l, _, v)| (*l, v.clone()));
    for (line, key, _) in &fields {
        if !["title", "program", "configs", "int-model", "expect", "source", "seed"].contains(&key.as_str()) {
            return Err(err(*line, format!("unknown front matter key `{key}`")));
        }
    }
    let (_, title) = field("title").ok_or_else(|| err(1, "missing `title`".into()))?;
    let (_, program_file) = field("program").ok_or_else(|| err(1, "missing `program`".into()))?;
    if program_file != format!("{id}.c") {
        return Err(err(1, format!("`program` must be `{id}.c`, the file beside this one")));
    }
    let (configs_line, configs) = field("configs").ok_or_else(|| err(1, "missing `configs`".into()))?;
    let mut names = Vec::new();
    for c in list(&configs) {
        let choice = crate::model::config_choice::parse(&c).map_err(|e| {
            let message =
                if e.message.ends_with("is not a preset") && !c.contains('[') { e.message } else { format!("`{c}`, {e}") };
            err(configs_line, message)
        })?;
        names.push(choice.name());
    }
    let configs = names;
    if configs.is_empty() {
        return Err(err(configs_line, "`configs` names no configuration".into()));
    }
    let (seed_line, seed) =
        field("seed").ok_or_else(|| err(1, "missing `seed` (the analysis family the example belongs to)".into()))?;
    if !SEEDS.iter().any(|(s, _, _)| *s == seed) {
        let known: Vec<&str> = SEEDS.iter().map(|(s, _, _)| *s).collect();
        return Err(err(seed_line, format!("`seed` must be one of {}, not `{seed}`", known.join(", "))));
    }
    let (model_line, int_model) = field("int-model").unwrap_or((1, "c".into()));
    if int_model != "math" && int_model != "c" {
        return Err(err(model_line, format!("`int-model` must be `math` or `c`, not `{int_model}`")));
    }
    let mut expect = Vec::new();
    if let Some((line, text)) = field("expect") {
        for item in list(&text) {
            // The verdict follows the last `=` (a configuration may hold
            // `key=value` overrides in brackets).
            let Some((config, verdict)) = item.rsplit_once('=') else {
                return Err(err(line, format!("expected `config=verdict`, found `{item}`")));
            };
            let config = crate::model::config_choice::parse(config).map_or_else(|_| config.trim().to_string(), |c| c.name());
            let verdict = verdict.trim().to_string();
            if !configs.contains(&config) {
                return Err(err(line, format!("`{config}` is not among the example's `configs`")));
            }
            if !["true", "false", "unknown"].contains(&verdict.as_str()) {
                return Err(err(line, format!("verdict `{verdict}` must be true, false or unknown")));
            }
            expect.push((config, verdict));
        }
    }
    let body_text: String = markdown.lines().skip(body_start).map(|l| format!("{l}\n")).collect();
    Ok(Example {
        id,
        title,
        source: field("source").map(|(_, s)| s),
        program_file,
        program,
        configs,
        seed,
        int_model,
        expect,
        body: render_markdown(&body_text),
    })
}

/// Splits a comma-separated list, except at commas inside `[…]` (a
/// configuration's overrides).
fn list(text: &str) -> Vec<String> {
    let mut items = vec![String::new()];
    let mut depth = 0usize;
    for ch in text.chars() {
        match ch {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                items.push(String::new());
                continue;
            }
            _ => {}
        }
        items.last_mut().expect("never empty").push(ch);
    }
    items.into_iter().map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect()
}

/// Parses Markdown into safe [`Block`]s: raw HTML becomes text, images are
/// dropped (their alt text kept), links keep only `https:` and `#` targets.
pub fn render_markdown(markdown: &str) -> Vec<Block> {
    let mut builder = Builder::default();
    for event in Parser::new_ext(markdown, Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH) {
        builder.event(event);
    }
    builder.finish()
}

/// An open container while the event stream is folded into a tree.
enum Frame {
    Blocks(Vec<Block>),
    Inlines(Vec<Inline>),
}

/// What a frame becomes when its end tag arrives.
enum Pending {
    Root,
    Paragraph,
    Heading(u8),
    Quote,
    List(bool, Vec<Vec<Block>>),
    Item,
    Code(String),
    Emph,
    Strong,
    Link(Option<String>),
    Image,
    Table {
        head: Vec<Vec<Inline>>,
        rows: Vec<Vec<Vec<Inline>>>,
        in_head: bool,
    },
    Row(Vec<Vec<Inline>>),
    Cell,
    /// Containers we flatten (strikethrough, footnotes, …): children pass through.
    Transparent,
}

struct Builder {
    stack: Vec<(Pending, Frame)>,
}

impl Default for Builder {
    fn default() -> Self {
        Builder { stack: vec![(Pending::Root, Frame::Blocks(Vec::new()))] }
    }
}

impl Builder {
    fn event(&mut self, event: Event<'_>) {
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(end) => self.end(end),
            Event::Text(t) => {
                if let Some((Pending::Code(buf), _)) = self.stack.last_mut() {
                    buf.push_str(&t);
                } else {
                    self.inline(Inline::Text(t.into_string()));
                }
            }
            Event::Code(t) => self.inline(Inline::Code(t.into_string())),
            Event::Html(t) | Event::InlineHtml(t) => self.inline(Inline::Text(t.into_string())),
            Event::SoftBreak => self.inline(Inline::Text(" ".into())),
            Event::HardBreak => self.inline(Inline::Break),
            Event::Rule => self.block(Block::Rule),
            Event::FootnoteReference(t) => self.inline(Inline::Text(format!("[{t}]"))),
            Event::TaskListMarker(done) => self.inline(Inline::Text(if done { "☑ " } else { "☐ " }.into())),
            Event::InlineMath(t) | Event::DisplayMath(t) => self.inline(Inline::Code(t.into_string())),
        }
    }

    fn start(&mut self, tag: Tag<'_>) {
        let (pending, frame) = match tag {
            // A raw HTML block is shown as a paragraph of its literal text.
            Tag::Paragraph | Tag::HtmlBlock => (Pending::Paragraph, Frame::Inlines(Vec::new())),
            Tag::Heading { level, .. } => (Pending::Heading(level as u8), Frame::Inlines(Vec::new())),
            Tag::BlockQuote(_) => (Pending::Quote, Frame::Blocks(Vec::new())),
            Tag::CodeBlock(_) => (Pending::Code(String::new()), Frame::Blocks(Vec::new())),
            Tag::List(start) => (Pending::List(start.is_some(), Vec::new()), Frame::Blocks(Vec::new())),
            Tag::Item => (Pending::Item, Frame::Blocks(Vec::new())),
            Tag::Emphasis => (Pending::Emph, Frame::Inlines(Vec::new())),
            Tag::Strong => (Pending::Strong, Frame::Inlines(Vec::new())),
            Tag::Link { dest_url, .. } => (Pending::Link(safe_href(&dest_url)), Frame::Inlines(Vec::new())),
            Tag::Image { .. } => (Pending::Image, Frame::Inlines(Vec::new())),
            Tag::Table(_) => (Pending::Table { head: Vec::new(), rows: Vec::new(), in_head: false }, Frame::Blocks(Vec::new())),
            Tag::TableHead => {
                if let Some((Pending::Table { in_head, .. }, _)) = self.stack.last_mut() {
                    *in_head = true;
                }
                (Pending::Row(Vec::new()), Frame::Blocks(Vec::new()))
            }
            Tag::TableRow => (Pending::Row(Vec::new()), Frame::Blocks(Vec::new())),
            Tag::TableCell => (Pending::Cell, Frame::Inlines(Vec::new())),
            _ => (Pending::Transparent, Frame::Inlines(Vec::new())),
        };
        self.stack.push((pending, frame));
    }

    fn end(&mut self, _end: TagEnd) {
        if self.stack.len() <= 1 {
            return;
        }
        let (pending, frame) = self.stack.pop().expect("checked above");
        let inlines = |f: Frame| match f {
            Frame::Inlines(v) => v,
            Frame::Blocks(b) => flatten(b),
        };
        let blocks = |f: Frame| match f {
            Frame::Blocks(b) => b,
            // An item of a tight list holds its text directly.
            Frame::Inlines(v) if v.is_empty() => Vec::new(),
            Frame::Inlines(v) => vec![Block::Paragraph(v)],
        };
        match pending {
            Pending::Root => {}
            Pending::Paragraph => self.block(Block::Paragraph(inlines(frame))),
            Pending::Heading(level) => self.block(Block::Heading(level, inlines(frame))),
            Pending::Quote => self.block(Block::Quote(blocks(frame))),
            Pending::Code(text) => self.block(Block::Code(text)),
            Pending::List(ordered, items) => self.block(Block::List { ordered, items }),
            Pending::Item => {
                let item = blocks(frame);
                if let Some((Pending::List(_, items), _)) = self.stack.last_mut() {
                    items.push(item);
                }
            }
            Pending::Emph => self.inline(Inline::Emph(inlines(frame))),
            Pending::Strong => self.inline(Inline::Strong(inlines(frame))),
            Pending::Link(Some(href)) => self.inline(Inline::Link { href, children: inlines(frame) }),
            Pending::Link(None) | Pending::Image | Pending::Transparent => {
                for i in inlines(frame) {
                    self.inline(i);
                }
            }
            Pending::Table { head, rows, .. } => self.block(Block::Table { head, rows }),
            Pending::Row(cells) => {
                if let Some((Pending::Table { head, rows, in_head }, _)) = self.stack.last_mut() {
                    if *in_head {
                        *head = cells;
                        *in_head = false;
                    } else {
                        rows.push(cells);
                    }
                }
            }
            Pending::Cell => {
                let cell = inlines(frame);
                if let Some((Pending::Row(cells), _)) = self.stack.last_mut() {
                    cells.push(cell);
                }
            }
        }
    }

    fn inline(&mut self, inline: Inline) {
        match self.stack.last_mut() {
            Some((_, Frame::Inlines(v))) => v.push(inline),
            Some((_, Frame::Blocks(b))) => match b.last_mut() {
                // Text directly in a tight list item: gather it in a paragraph.
                Some(Block::Paragraph(v)) => v.push(inline),
                _ => b.push(Block::Paragraph(vec![inline])),
            },
            None => {}
        }
    }

    fn block(&mut self, block: Block) {
        match self.stack.last_mut() {
            Some((_, Frame::Blocks(b))) => b.push(block),
            Some((_, Frame::Inlines(v))) => v.extend(flatten(vec![block])),
            None => {}
        }
    }

    fn finish(mut self) -> Vec<Block> {
        while self.stack.len() > 1 {
            self.end(TagEnd::Paragraph);
        }
        match self.stack.pop() {
            Some((_, Frame::Blocks(b))) => b,
            Some((_, Frame::Inlines(v))) => vec![Block::Paragraph(v)],
            None => Vec::new(),
        }
    }
}

/// The text of blocks, as inlines (for blocks where only inlines may go).
fn flatten(blocks: Vec<Block>) -> Vec<Inline> {
    let mut out = Vec::new();
    for b in blocks {
        match b {
            Block::Paragraph(v) | Block::Heading(_, v) => out.extend(v),
            Block::Code(t) => out.push(Inline::Code(t)),
            Block::Quote(b) => out.extend(flatten(b)),
            Block::List { items, .. } => items.into_iter().for_each(|i| out.extend(flatten(i))),
            Block::Table { head, rows } => {
                head.into_iter().chain(rows.into_iter().flatten()).for_each(|c| out.extend(c));
            }
            Block::Rule => {}
        }
    }
    out
}

/// Keeps a link target only if it cannot run code or leave for an
/// unexpected scheme: `https:` addresses and in-page `#anchors`.
fn safe_href(dest: &str) -> Option<String> {
    let d = dest.trim();
    let ok = d.starts_with("https://") || (d.starts_with('#') && !d.contains(['"', '<', '>']));
    ok.then(|| d.to_string())
}

/// The plain text of inlines (for titles, tests and accessibility labels).
pub fn plain_text(inlines: &[Inline]) -> String {
    let mut s = String::new();
    for i in inlines {
        match i {
            Inline::Text(t) | Inline::Code(t) => s.push_str(t),
            Inline::Emph(v) | Inline::Strong(v) | Inline::Link { children: v, .. } => s.push_str(&plain_text(v)),
            Inline::Break => s.push('\n'),
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_example_is_well_formed() {
        let (examples, errors) = examples();
        assert!(errors.is_empty(), "malformed examples: {errors:?}");
        assert!(examples.len() >= 7);
        for e in &examples {
            assert!(!e.title.is_empty());
            assert!(!e.body.is_empty(), "{}: empty explanation", e.id);
            assert_eq!(e.expect.len(), e.configs.len(), "{}: every configuration needs an expected verdict", e.id);
            assert!(cfa::from_source(e.program).is_ok(), "{}: the program does not parse", e.id);
        }
    }

    #[test]
    fn a_card_shows_each_configuration_with_its_expected_verdict() {
        for e in examples().0 {
            let chips = e.config_chips();
            assert_eq!(chips.len(), e.configs.len(), "{}", e.id);
            for (chip, c) in chips.iter().zip(&e.configs) {
                let verdict = e.expected(c).expect("every configuration has a verdict").to_uppercase();
                let name = crate::model::config_choice::parse(c).unwrap().readable();
                assert_eq!(*chip, format!("{name} → {verdict}"), "{}", e.id);
            }
        }
        let mut e = examples().0.remove(0);
        e.expect.clear();
        assert_eq!(e.config_chips(), e.configs, "without a stated verdict, just the preset");
        let theory = example("symbolic-theory").unwrap();
        assert_eq!(
            theory.config_chips(),
            ["symbolic with solver.theory = INTEGER → TRUE", "symbolic with solver.theory = BITVECTOR → FALSE"],
            "overrides in words"
        );
    }

    #[test]
    fn every_example_opens_as_a_valid_share_link() {
        for e in examples().0 {
            let state = e.share_state();
            let decoded = crate::model::share::decode(&crate::model::share::encode(&state)).unwrap().unwrap();
            assert_eq!(decoded, state, "{}", e.id);
            let first = crate::model::config_choice::parse(&e.configs[0]).unwrap();
            assert_eq!(decoded.preset, first.preset, "{}", e.id);
            assert_eq!(decoded.properties, first.properties(), "{}: the first configuration's overrides", e.id);
            assert_eq!(decoded.int_model, e.int_model);
            assert_eq!(decoded.compare.len(), if e.configs.len() > 1 { e.configs.len() } else { 0 }, "{}", e.id);
        }
    }

    #[test]
    fn every_md_file_in_static_examples_is_in_the_gallery() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../static/examples");
        let mut on_disk: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .filter_map(|e| e.file_name().to_str().and_then(|n| n.strip_suffix(".md")).map(str::to_string))
            .collect();
        on_disk.sort();
        let mut listed: Vec<String> = FILES.iter().map(|(id, _, _)| id.to_string()).collect();
        listed.sort();
        assert_eq!(on_disk, listed);
    }

    #[test]
    fn malformed_front_matter_is_located() {
        let cases: &[(&str, usize, &str)] = &[
            ("no front matter", 1, "must start with"),
            ("---\ntitle: t\n", 1, "not closed"),
            ("---\ntitle t\n---\n", 2, "expected `key: value`"),
            ("---\ntitle: t\nprogram: x.c\nconfigs: value\n---\n", 1, "`program` must be `x-id.c`"),
            ("---\ntitle: t\nprogram: x-id.c\nconfigs: nope\n---\n", 4, "`nope` is not a preset"),
            ("---\ntitle: t\nprogram: x-id.c\nconfigs: value\nint-model: big\nseed: cegar\n---\n", 5, "`int-model` must be"),
            (
                "---\ntitle: t\nprogram: x-id.c\nconfigs: value\nexpect: value=maybe\nseed: cegar\n---\n",
                5,
                "must be true, false or unknown",
            ),
            ("---\ntitle: t\nprogram: x-id.c\nconfigs: value\nexpect: octagon-sep=true\nseed: cegar\n---\n", 5, "not among"),
            ("---\ntitle: t\nprogram: x-id.c\nconfigs: value\ncolour: red\n---\n", 5, "unknown front matter key"),
            ("---\nprogram: x-id.c\nconfigs: value\n---\n", 1, "missing `title`"),
            ("---\ntitle: t\nprogram: x-id.c\nconfigs: value\n---\n", 1, "missing `seed`"),
            ("---\ntitle: t\nprogram: x-id.c\nconfigs: value\nseed: lecture\n---\n", 5, "`seed` must be one of cpa-merge"),
            // A bad override: the line, and the column inside the configuration's name.
            (
                "---\ntitle: t\nprogram: x-id.c\nconfigs: value, symbolic[solver.theory=REAL]\nseed: symbolic\n---\n",
                4,
                "`symbolic[solver.theory=REAL]`, column 10:",
            ),
            (
                "---\ntitle: t\nprogram: x-id.c\nconfigs: symbolic[solver.theroy=INTEGER]\nseed: symbolic\n---\n",
                4,
                "solver.theroy",
            ),
            ("---\ntitle: t\nprogram: x-id.c\nconfigs: symbolic[solver.theory=INTEGER\nseed: symbolic\n---\n", 4, "not closed"),
        ];
        for (text, line, message) in cases {
            let e = parse_example("x-id", text, "int main(void) { return 0; }").unwrap_err();
            assert_eq!(e.line, *line, "{text:?}: {e}");
            assert!(e.message.contains(message), "{text:?}: {e}");
        }
    }

    #[test]
    fn overrides_seed_and_verdicts_are_read_from_the_front_matter() {
        let md = "---\ntitle: t\nprogram: x-id.c\nconfigs: symbolic[solver.theory=INTEGER], symbolic[ solver.theory = BITVECTOR ], value\n\
                  int-model: c\nexpect: symbolic[solver.theory=INTEGER]=true, symbolic[solver.theory=BITVECTOR]=false, value=false\n\
                  seed: symbolic\n---\nWhat to look at.\n";
        let e = parse_example("x-id", md, "int main(void) { return 0; }").unwrap();
        assert_eq!(e.configs, ["symbolic[solver.theory=INTEGER]", "symbolic[solver.theory=BITVECTOR]", "value"]);
        assert_eq!(e.seed, "symbolic");
        assert_eq!(e.expected("symbolic[solver.theory=BITVECTOR]"), Some("false"), "the name is canonical on both sides");
        assert_eq!(e.expected("symbolic[solver.theory=INTEGER]"), Some("true"));
        assert!(e.uses_solver());
        let unsound = e.unsound_by_choice();
        assert_eq!(unsound.len(), 1, "{unsound:?}");
        assert_eq!(unsound[0].0, "symbolic with solver.theory = INTEGER");
        assert!(unsound[0].1.contains("unsound by choice"));
        // Opened: the first configuration's overrides are the pane's properties,
        // and the compare set keeps every name.
        let state = e.share_state();
        assert_eq!(state.preset, "symbolic");
        assert!(state.properties.as_deref().unwrap().contains("solver.theory = INTEGER"), "{:?}", state.properties);
        assert_eq!(state.compare, e.configs);
        assert_eq!(state.validate(), Ok(()));
        assert_eq!(state.spec().config().unwrap().get("solver.theory"), "INTEGER");
    }

    #[test]
    fn every_seed_has_three_examples_that_say_where_they_come_from_and_what_to_look_at() {
        let (all, _) = examples();
        for (seed, heading, paper) in SEEDS {
            assert!(!heading.is_empty() && !paper.is_empty());
            let of_seed = by_seed(&all, seed);
            assert!(of_seed.len() >= 3, "{seed} has {} examples", of_seed.len());
            for e in of_seed {
                let source = e.source.as_deref().unwrap_or("");
                assert!(!source.is_empty(), "{}: the card says which paper and figure, or `our own`", e.id);
                assert!(
                    e.body.iter().any(|b| block_text(b).contains("What to look at")),
                    "{}: the card says what to look at",
                    e.id
                );
            }
        }
        assert!(all.iter().all(|e| SEEDS.iter().any(|(s, _, _)| *s == e.seed)));
    }

    #[test]
    fn the_first_lecture_path_names_five_to_seven_shipped_examples_once() {
        assert!((5..=7).contains(&FIRST_LECTURE.len()));
        let (all, _) = examples();
        for (i, (id, why)) in FIRST_LECTURE.iter().enumerate() {
            assert!(all.iter().any(|e| e.id == *id), "{id} is not an example");
            assert!(!why.is_empty());
            assert!(!FIRST_LECTURE[..i].iter().any(|(other, _)| other == id), "{id} twice");
        }
    }

    #[test]
    fn the_filter_matches_every_word_in_title_source_seed_configs_or_text() {
        let e = example("symexec-listing1").unwrap();
        assert!(e.matches(""));
        assert!(e.matches("listing 1"));
        assert!(e.matches("SYMBOLIC octagon-sep"));
        assert!(e.matches("relation"), "a word of the title");
        assert!(!e.matches("listing nonexistentword"));
        assert!(example("symbolic-theory").unwrap().matches("solver.theory=INTEGER"));
    }

    #[test]
    fn markdown_becomes_safe_structured_text() {
        let md = "Hello *you* and **me**, `x`.\n\n<script>alert(1)</script>\n\n- one\n- two [site](https://example.org) [bad](javascript:alert(1))\n\n| a | b |\n|---|---|\n| 1 | 2 |\n";
        let blocks = render_markdown(md);
        assert_eq!(
            blocks[0],
            Block::Paragraph(vec![
                Inline::Text("Hello ".into()),
                Inline::Emph(vec![Inline::Text("you".into())]),
                Inline::Text(" and ".into()),
                Inline::Strong(vec![Inline::Text("me".into())]),
                Inline::Text(", ".into()),
                Inline::Code("x".into()),
                Inline::Text(".".into()),
            ])
        );
        // Raw HTML is kept as visible text, never as markup.
        assert_eq!(blocks[1], Block::Paragraph(vec![Inline::Text("<script>alert(1)</script>\n".into())]));
        let Block::List { ordered: false, items } = &blocks[2] else { panic!("{blocks:?}") };
        assert_eq!(items.len(), 2);
        let second = format!("{:?}", items[1]);
        assert!(second.contains("href: \"https://example.org\""));
        assert!(!second.contains("javascript"), "{second}");
        assert!(second.contains("Text(\"bad\")"));
        let Block::Table { head, rows } = &blocks[3] else { panic!("{blocks:?}") };
        assert_eq!(head.len(), 2);
        assert_eq!(rows, &vec![vec![vec![Inline::Text("1".into())], vec![Inline::Text("2".into())]]]);
    }

    #[test]
    fn odd_markdown_never_panics() {
        for md in [
            "",
            "#",
            "> > > x",
            "1. a\n   - b\n     ```\n     c",
            "| a |\n|---|\n| b | c | d |",
            "*a **b* c**",
            "[x](",
            "![img](a.png)",
        ] {
            let blocks = render_markdown(md);
            assert_eq!(blocks.is_empty(), md.is_empty(), "{md:?}: {blocks:?}");
        }
        assert_eq!(plain_text(&[Inline::Emph(vec![Inline::Text("a".into())]), Inline::Code("b".into())]), "ab");
    }

    #[test]
    fn an_examples_program_finds_its_guidance_from_what_to_look_at_on() {
        let (all, _) = examples();
        for e in &all {
            let found = example_with_program(e.program).expect("every example is found by its program");
            assert_eq!(found.program, e.program);
            let g = e.guidance();
            assert!(!g.is_empty(), "{}", e.id);
            assert!(g.len() <= e.body.len());
        }
        let footnote = example("cegar-footnote").unwrap();
        let first = match &footnote.guidance()[0] {
            Block::Paragraph(v) => plain_text(v),
            other => panic!("{other:?}"),
        };
        assert!(first.starts_with("What to look at"), "{first}");
        assert!(footnote.guidance().len() < footnote.body.len(), "the introduction is left out");
        assert!(example_with_program("int main(void) { return 0; }").is_none());
    }
}
