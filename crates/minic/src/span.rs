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
        Span {
            start: self.start,
            end: self.end.max(other.end),
            line: self.line,
            col: self.col,
        }
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

/// Precomputed line starts of a source text, so that turning byte offsets
/// into [`Span`]s costs a binary search instead of a scan from the start.
#[derive(Clone, Debug)]
pub struct LineIndex {
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
        starts.extend(
            src.bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i + 1),
        );
        LineIndex {
            src_len: src.len(),
            starts,
            ascii: src.is_ascii(),
            src: src.to_string(),
        }
    }

    /// The 1-based (line, column) of byte offset `offset`; columns count characters.
    pub fn line_col(&self, offset: usize) -> (u32, u32) {
        let offset = floor_char_boundary(&self.src, offset.min(self.src_len));
        let line = match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.starts[line];
        let col = if self.ascii {
            offset - start
        } else {
            self.src[start..offset].chars().count()
        };
        (line as u32 + 1, col as u32 + 1)
    }

    /// The span of bytes `start..end`, with the line and column of `start`.
    pub fn span(&self, start: usize, end: usize) -> Span {
        let (line, col) = self.line_col(start);
        Span {
            start,
            end: end.max(start).min(self.src_len.max(start)),
            line,
            col,
        }
    }
}
