//! Where a witness's waypoints and invariants point in the source text:
//! the format wants the first character of a statement's keyword (`if`,
//! `while`, `for`), the closing parenthesis of a call whose value is
//! returned, or the first character of the violating call. CFA edges carry
//! the span of their statement or condition; these functions find the
//! exact character from there, and say `None` when the text does not have
//! the expected shape (then no waypoint is written, which keeps a witness
//! weaker but never wrong).

/// A position in the source: 1-based line and column (in characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// 1-based line.
    pub line: u32,
    /// 1-based column, counted in characters.
    pub column: u32,
}

/// The program text, for locating things in it by byte offset.
pub struct SourceMap<'s> {
    text: &'s str,
}

/// The functions whose call violates unreach-call (as the CFA lowering knows them).
const ERROR_FUNCTIONS: [&str; 5] = ["reach_error", "__VERIFIER_error", "__assert_fail", "__assert_perror_fail", "__assert"];

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

impl<'s> SourceMap<'s> {
    /// A map of `text`.
    pub fn new(text: &'s str) -> Self {
        SourceMap { text }
    }

    /// The line and column of byte `offset` (clamped to the text).
    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &self.text[..offset];
        let line = before.matches('\n').count() as u32 + 1;
        let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
        Position { line, column: before[line_start..].chars().count() as u32 + 1 }
    }

    /// The byte offset of a 1-based line and column (`None` outside the text).
    pub fn offset(&self, line: u32, column: u32) -> Option<usize> {
        let start = if line == 1 { 0 } else { self.text.match_indices('\n').nth(line.checked_sub(2)? as usize)?.0 + 1 };
        let text = self.text[start..].split('\n').next()?;
        let (i, _) = text.char_indices().chain(std::iter::once((text.len(), ' '))).nth(column.checked_sub(1)? as usize)?;
        Some(start + i)
    }

    /// The keyword of the `if` or `while` statement whose whole condition
    /// is the text at `start..end` (a condition that is only part of
    /// `a && b`, or negated, or the condition of a `do … while` or `for`,
    /// gives `None`): its byte offset and the keyword.
    pub fn branching_keyword(&self, start: usize, end: usize) -> Option<(usize, &'static str)> {
        let bytes = self.text.as_bytes();
        if start > end || end > bytes.len() {
            return None;
        }
        let open = self.text[..start].trim_end();
        let open = open.strip_suffix('(')?.trim_end();
        let after = self.text[end..].trim_start().strip_prefix(')')?.trim_start();
        let keyword = ["while", "if"].into_iter().find(|k| open.ends_with(k))?;
        let at = open.len() - keyword.len();
        if at > 0 && is_ident_byte(bytes[at - 1]) {
            return None;
        }
        // `do { … } while (c);` is a `do` statement: its keyword is `do`.
        if keyword == "while" && after.starts_with(';') {
            return None;
        }
        Some((at, if keyword == "if" { "if" } else { "while" }))
    }

    /// Whether the text at byte `start` is the loop keyword `keyword`
    /// (`while`, `for`) as a whole word: the CFA's loop-entry edge starts
    /// its span there.
    pub fn is_keyword_at(&self, start: usize, keyword: &str) -> bool {
        let bytes = self.text.as_bytes();
        self.text.get(start..).is_some_and(|rest| rest.starts_with(keyword))
            && !bytes.get(start + keyword.len()).is_some_and(|b| is_ident_byte(*b))
            && (start == 0 || !is_ident_byte(bytes[start - 1]))
    }

    /// The closing parenthesis of the first call in `start..end` (the call
    /// of a statement like `x = __VERIFIER_nondet_int();`): its byte offset.
    pub fn call_close_paren(&self, start: usize, end: usize) -> Option<usize> {
        let bytes = self.text.as_bytes();
        let end = end.min(bytes.len());
        let mut i = start;
        while i < end {
            if is_ident_byte(bytes[i]) && (i == 0 || !is_ident_byte(bytes[i - 1])) && !bytes[i].is_ascii_digit() {
                let mut j = i;
                while j < end && is_ident_byte(bytes[j]) {
                    j += 1;
                }
                let name = &self.text[i..j];
                let next = self.text[j..end].trim_start();
                let is_type = matches!(name, "int" | "unsigned" | "signed" | "char" | "short" | "long" | "_Bool" | "void");
                if next.starts_with('(') && !is_type {
                    let open = end - next.len();
                    let mut depth = 0i64;
                    for (k, b) in bytes[open..end].iter().enumerate() {
                        match b {
                            b'(' => depth += 1,
                            b')' => {
                                depth -= 1;
                                if depth == 0 {
                                    return Some(open + k);
                                }
                            }
                            _ => {}
                        }
                    }
                    return None;
                }
                i = j;
            } else {
                i += 1;
            }
        }
        None
    }

    /// Where the violation happens for an error path whose last edge has
    /// the span starting at byte `start`: the call of an error function
    /// there, or — for an `ERROR:` label — the first error-function call
    /// after the label; else the label itself.
    pub fn target(&self, start: usize) -> usize {
        let start = start.min(self.text.len());
        let rest = &self.text[start..];
        if rest.starts_with("ERROR") {
            let window = &rest[..rest.len().min(300)];
            let found = ERROR_FUNCTIONS
                .iter()
                .filter_map(|f| {
                    window.match_indices(f).find(|(i, _)| {
                        let after = window.as_bytes().get(i + f.len()).copied();
                        (*i == 0 || !is_ident_byte(window.as_bytes()[i - 1])) && !after.is_some_and(is_ident_byte)
                    })
                })
                .map(|(i, _)| i)
                .min();
            if let Some(i) = found {
                return start + i;
            }
        }
        start
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_keywords_calls_and_targets() {
        let src = "int main() {\n  int x = __VERIFIER_nondet_int();\n  while (x < 3) x++;\n  if (x > 5 && x < 9) {}\n  for (int i = 0; i < 2; i++) {}\n  do { x--; } while (x > 0);\n  ERROR: { reach_error(); }\n}\n";
        let m = SourceMap::new(src);
        let off = |s: &str| src.find(s).unwrap();
        let close = m.call_close_paren(off("int x"), off("while")).unwrap();
        assert_eq!(m.position(close), Position { line: 2, column: 33 });
        let c = off("x < 3");
        assert_eq!(m.branching_keyword(c, c + 5), Some((off("while"), "while")));
        assert!(m.is_keyword_at(off("while"), "while"));
        assert!(!m.is_keyword_at(off("while") + 1, "hile"));
        let a = off("x > 5");
        assert_eq!(m.branching_keyword(a, a + 5), None, "part of a && b");
        let d = off("x > 0");
        assert_eq!(m.branching_keyword(d, d + 5), None, "do-while");
        assert_eq!(m.target(off("ERROR")), off("reach_error"));
        assert_eq!(m.position(off("reach_error")), Position { line: 7, column: 12 });
        assert_eq!(m.offset(7, 12), Some(off("reach_error")));
        assert_eq!(m.offset(1, 1), Some(0));
        assert_eq!(m.offset(99, 1), None);
    }
}
