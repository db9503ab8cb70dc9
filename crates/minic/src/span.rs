//! Source positions. Every AST node and every diagnostic carries a [`Span`].

use serde::{Deserialize, Serialize};

/// A region of the source text: byte offsets `start..end`, plus the 1-based
/// line and column (in characters) of `start`, so messages can say
/// "line 4, column 7" without re-scanning the text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Span {
    /// Byte offset of the first byte.
    pub start: usize,
    /// Byte offset just past the last byte.
    pub end: usize,
    /// 1-based line of `start`.
    pub line: u32,
    /// 1-based column of `start`, in characters.
    pub col: u32,
}

impl Span {
    /// A span covering both `self` and `other` (line/column of the earlier one).
    pub fn to(self, other: Span) -> Span {
        if other.start < self.start {
            return other.to(self);
        }
        Span { start: self.start, end: self.end.max(other.end), line: self.line, col: self.col }
    }
}

/// Computes the 1-based (line, column) of byte offset `offset` in `src`.
/// Columns count characters, not bytes.
pub fn line_col(src: &str, offset: usize) -> (u32, u32) {
    let offset = offset.min(src.len());
    let before = &src[..floor_char_boundary(src, offset)];
    let line = before.matches('\n').count() as u32 + 1;
    let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    let col = before[line_start..].chars().count() as u32 + 1;
    (line, col)
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// One macro use whose expansion has a different length than its name: the
/// bytes `text` of the parsed text stand for the bytes `source` of the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Edit {
    /// Where the expansion is in the parsed text.
    pub text: (usize, usize),
    /// Where the macro name is in the source.
    pub source: (usize, usize),
}

/// Maps offsets of the parsed text (macros substituted) back to offsets of
/// the source as written. Outside every edit the two texts agree byte for
/// byte (shifted by the edits before); an offset inside an expansion maps to
/// the macro name that produced it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct OffsetMap {
    /// Edits in increasing order of position (they never overlap).
    edits: Vec<Edit>,
}

impl OffsetMap {
    /// Records one more edit; edits must come in source order.
    pub(crate) fn push(&mut self, edit: Edit) {
        self.edits.push(edit);
    }

    /// Whether the parsed text is the source (no edits).
    pub(crate) fn is_identity(&self) -> bool {
        self.edits.is_empty()
    }

    /// The source offset of parsed-text offset `t`. `is_end` says whether `t`
    /// ends a region (then an offset inside an expansion maps to the end of
    /// the macro name, otherwise to its start).
    pub(crate) fn to_source(&self, t: usize, is_end: bool) -> usize {
        // The last edit starting at or before `t`.
        let k = self.edits.partition_point(|e| e.text.0 <= t);
        let Some(e) = k.checked_sub(1).map(|k| self.edits[k]) else {
            return t;
        };
        if t >= e.text.1 {
            e.source.1 + (t - e.text.1)
        } else if is_end && t > e.text.0 {
            e.source.1
        } else {
            e.source.0
        }
    }
}

/// Precomputed line starts of a source text, so that turning byte offsets
/// into [`Span`]s costs a binary search instead of a scan from the start.
///
/// The offsets it is given are offsets of the text the parser reads; where
/// macro substitution changed lengths, an offset map takes them back to
/// the source, so every span and every line/column is one of the source as
/// written.
#[derive(Clone, Debug)]
pub struct LineIndex {
    map: OffsetMap,
    src_len: usize,
    /// Byte offset where each line starts; `starts[0] == 0`.
    starts: Vec<usize>,
    /// Whether the text is pure ASCII (then columns are byte distances).
    ascii: bool,
    src: String,
}

impl LineIndex {
    /// Indexes `src`.
    pub fn new(src: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(src.bytes().enumerate().filter(|(_, b)| *b == b'\n').map(|(i, _)| i + 1));
        LineIndex { map: OffsetMap::default(), src_len: src.len(), starts, ascii: src.is_ascii(), src: src.to_string() }
    }

    /// Indexes `src`, taking offsets of a parsed text that `map` relates to it.
    pub(crate) fn with_map(src: &str, map: OffsetMap) -> Self {
        LineIndex { map, ..LineIndex::new(src) }
    }

    /// The 1-based (line, column) of byte offset `offset`; columns count characters.
    pub fn line_col(&self, offset: usize) -> (u32, u32) {
        self.source_line_col(self.map.to_source(offset, false))
    }

    fn source_line_col(&self, offset: usize) -> (u32, u32) {
        let offset = floor_char_boundary(&self.src, offset.min(self.src_len));
        let line = match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.starts[line];
        let col = if self.ascii { offset - start } else { self.src[start..offset].chars().count() };
        (line as u32 + 1, col as u32 + 1)
    }

    /// The span of bytes `start..end` (of the parsed text, taken back to the
    /// source), with the line and column of `start`; the end is moved to the
    /// end of a character cut in the middle.
    pub fn span(&self, start: usize, end: usize) -> Span {
        let end = self.map.to_source(end.max(start), true);
        let start = self.map.to_source(start, false);
        let (line, col) = self.source_line_col(start);
        // A span never ends inside a character (`found `é`` covers all of it).
        let mut end = end.max(start).min(self.src_len.max(start));
        while end < self.src_len && !self.src.is_char_boundary(end) {
            end += 1;
        }
        Span { start, end, line, col }
    }
}
