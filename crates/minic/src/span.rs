//! Source positions. Every AST node and every diagnostic carries a [`Span`].

use serde::{Deserialize, Serialize};

/// A region of the source text: byte offsets `start..end`, plus the 1-based
/// line and column (in characters) of `start`, so messages can say
/// "line 4, column 7" without re-scanning the text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Span {
    pub start: usize,
    pub end: usize,
    pub line: u32,
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
