//! The pre-scan: one linear pass over the preprocessed text before pest runs.
//!
//! It does what a PEG grammar cannot do (or cannot do safely):
//! - rejects input that is too large or not text (NUL bytes), before the
//!   preprocessor runs ([`check_input`]);
//! - blanks out comments and GCC `__attribute__((...))` (pest need not read
//!   them again on every backtrack);
//! - marks uses of typedef names by replacing their first letter with `$`, so
//!   the grammar can tell `(u32) - x` (a cast) from `(x) - y` (a subtraction);
//! - estimates how deeply the grammar will recurse (brackets, `?:`, chains of
//!   `if`/`else`/`while`/labels) and refuses input nested deeper than
//!   [`MAX_NESTING`] before pest could overflow the stack;
//! - records bracket structure, used to word "unclosed `{`" errors, and the
//!   ends of top-level items, used to resume parsing after a syntax error.

use crate::diag::Diagnostic;
use crate::span::LineIndex;
use std::collections::HashSet;

/// Deepest nesting of brackets, statements and expressions mini-C accepts.
pub const MAX_NESTING: usize = 200;
/// Largest input accepted, in bytes.
pub const MAX_INPUT_BYTES: usize = 4 * 1024 * 1024;

/// The result of a successful pre-scan.
#[derive(Debug, Default)]
pub(crate) struct Prescan {
    /// The text pest parses: same length as the preprocessed text, comments
    /// and attributes blanked, typedef-name uses marked with `$`.
    pub text: String,
    /// Brackets still open at the end of the input: (bracket, byte offset).
    pub unclosed: Vec<(u8, usize)>,
    /// Closing brackets that close nothing or the wrong bracket: (offset, the
    /// bracket it should have closed, if any, with its offset).
    pub mismatched: Vec<(usize, Option<(u8, usize)>)>,
    /// Offsets just after a `}` or `;` at nesting depth 0: where a new
    /// top-level item may start (used to resume after a syntax error).
    pub resume_points: Vec<usize>,
}

#[derive(Clone, Copy, PartialEq)]
enum Tok {
    Ident,
    Other,
}

/// Scans the preprocessed text `src`; `Err` holds the one fatal error (too
/// big, binary, too deep, unterminated comment or literal).
pub(crate) fn prescan(src: &str, lines: &LineIndex) -> Result<Prescan, Diagnostic> {
    check_input(src, lines)?;
    Scanner::new(src, lines).run()
}

/// Rejects input that is too large or not text (a NUL byte).
pub(crate) fn check_input(src: &str, lines: &LineIndex) -> Result<(), Diagnostic> {
    if src.len() > MAX_INPUT_BYTES {
        return Err(Diagnostic::error(
            lines.span(0, 0),
            format!("the file is too large ({} bytes); mini-C accepts at most {} bytes (4 MB)", src.len(), MAX_INPUT_BYTES),
        ));
    }
    if let Some(i) = src.bytes().position(|b| b == 0) {
        return Err(Diagnostic::error(lines.span(i, i + 1), "the file contains binary data (NUL byte)"));
    }
    Ok(())
}

/// Bracket stack entry: the bracket (`(`, `[`, `{` or `?`), its offset, and the
/// statement-prefix count to restore when it closes.
struct Open {
    bracket: u8,
    at: usize,
    saved_prefix: usize,
    saved_do: usize,
}

struct Scanner<'a> {
    src: &'a str,
    bytes: &'a [u8],
    lines: &'a LineIndex,
    out: Vec<u8>,
    i: usize,
    stack: Vec<Open>,
    mismatched: Vec<(usize, Option<(u8, usize)>)>,
    resume_points: Vec<usize>,
    /// Statement prefixes (`if (..)`, `else`, `while (..)`, labels, ...) that
    /// the statement being read is nested in, within the innermost block.
    prefix: usize,
    /// `do` keywords whose `while` has not been seen yet, in this block.
    do_pending: usize,
    /// Typedef names declared so far.
    typedefs: HashSet<String>,
    /// Paren depth at which a `typedef` declaration is being read.
    in_typedef: Option<usize>,
    /// Last significant token, and where the last identifier was.
    last: Option<Tok>,
    last_ident: Option<(usize, usize)>,
    /// Set after `;` or `}`: decide on the next token whether the statement
    /// prefixes end here (they do unless `else` or a do-loop's `while` follows).
    pending_reset: bool,
}

impl<'a> Scanner<'a> {
    fn new(src: &'a str, lines: &'a LineIndex) -> Self {
        Scanner {
            src,
            bytes: src.as_bytes(),
            lines,
            out: src.as_bytes().to_vec(),
            i: 0,
            stack: Vec::new(),
            mismatched: Vec::new(),
            resume_points: Vec::new(),
            prefix: 0,
            do_pending: 0,
            typedefs: HashSet::new(),
            in_typedef: None,
            last: None,
            last_ident: None,
            pending_reset: false,
        }
    }

    fn too_deep(&self, at: usize) -> Diagnostic {
        Diagnostic::error(self.lines.span(at, at + 1), format!("nesting deeper than {MAX_NESTING} levels is not supported"))
    }

    fn depth(&self) -> usize {
        self.stack.len() + self.prefix
    }

    fn check_depth(&self, at: usize) -> Result<(), Diagnostic> {
        if self.depth() > MAX_NESTING {
            Err(self.too_deep(at))
        } else {
            Ok(())
        }
    }

    fn run(mut self) -> Result<Prescan, Diagnostic> {
        let n = self.bytes.len();
        // A UTF-8 byte order mark (some Windows editors write one) is blank.
        if self.src.starts_with('\u{FEFF}') {
            self.blank(0, 3);
            self.i = 3;
        }
        while self.i < n {
            let b = self.bytes[self.i];
            // Preprocessor lines are blank already (`preprocess`); a `#`
            // left over is an ordinary character that pest rejects.
            if matches!(b, b'\n' | b' ' | b'\t' | b'\r' | 0x0b | 0x0c) {
                self.i += 1;
                continue;
            }
            if b == b'/' && self.bytes.get(self.i + 1) == Some(&b'/') {
                let start = self.i;
                while self.i < n && self.bytes[self.i] != b'\n' {
                    self.i += 1;
                }
                self.blank(start, self.i);
                continue;
            }
            if b == b'/' && self.bytes.get(self.i + 1) == Some(&b'*') {
                let start = self.i;
                match self.src[self.i + 2..].find("*/") {
                    Some(k) => {
                        self.i = self.i + 2 + k + 2;
                        self.blank(start, self.i);
                    }
                    None => {
                        return Err(Diagnostic::error(
                            self.lines.span(start, start + 2),
                            "unterminated comment: `/*` has no matching `*/`",
                        ))
                    }
                }
                continue;
            }
            self.token(b)?;
        }
        let unclosed = self.stack.iter().filter(|o| o.bracket != b'?').map(|o| (o.bracket, o.at)).collect();
        Ok(Prescan {
            text: String::from_utf8(self.out).unwrap_or_default(),
            unclosed,
            mismatched: self.mismatched,
            resume_points: self.resume_points,
        })
    }

    /// Replaces `start..end` of the parsed text by blanks (keeping line breaks).
    fn blank(&mut self, start: usize, end: usize) {
        for k in start..end.min(self.out.len()) {
            if self.out[k] != b'\n' {
                self.out[k] = b' ';
            }
        }
    }

    /// After `__attribute__` at `start..end`: blank it and its `((...))`.
    fn blank_attribute(&mut self, start: usize, end: usize) {
        let n = self.bytes.len();
        let mut k = end;
        while k < n && self.bytes[k].is_ascii_whitespace() {
            k += 1;
        }
        if k >= n || self.bytes[k] != b'(' {
            return;
        }
        let mut depth = 0usize;
        let mut in_str: Option<u8> = None;
        while k < n {
            let c = self.bytes[k];
            match in_str {
                Some(q) => {
                    if c == b'\\' {
                        k += 1;
                    } else if c == q || c == b'\n' {
                        in_str = None;
                    }
                }
                None => match c {
                    b'"' | b'\'' => in_str = Some(c),
                    b'(' => depth += 1,
                    b')' => {
                        depth -= 1;
                        if depth == 0 {
                            self.blank(start, k + 1);
                            self.i = k + 1;
                            return;
                        }
                    }
                    b';' | b'{' | b'}' => return,
                    _ => {}
                },
            }
            k += 1;
        }
    }

    /// One token starting at `self.i` with first byte `b`.
    fn token(&mut self, b: u8) -> Result<(), Diagnostic> {
        let start = self.i;
        let n = self.bytes.len();
        if b.is_ascii_alphabetic() || b == b'_' {
            let mut end = start + 1;
            while end < n && (self.bytes[end].is_ascii_alphanumeric() || self.bytes[end] == b'_') {
                end += 1;
            }
            self.i = end;
            let word = &self.src[start..end];
            self.before_token(Some(word));
            self.ident(word, start, end)?;
            self.last = Some(Tok::Ident);
            return Ok(());
        }
        if b.is_ascii_digit() {
            let mut end = start + 1;
            while end < n && (self.bytes[end].is_ascii_alphanumeric() || self.bytes[end] == b'_' || self.bytes[end] == b'.') {
                end += 1;
            }
            self.i = end;
            self.before_token(None);
            self.last = Some(Tok::Other);
            return Ok(());
        }
        if b == b'"' || b == b'\'' {
            let mut end = start + 1;
            loop {
                if end >= n || self.bytes[end] == b'\n' {
                    let what = if b == b'"' {
                        "string literal: `\"` has no closing `\"`"
                    } else {
                        "character literal: `'` has no closing `'`"
                    };
                    return Err(Diagnostic::error(self.lines.span(start, start + 1), format!("unterminated {what}")));
                }
                if self.bytes[end] == b'\\' {
                    end += 2;
                    continue;
                }
                if self.bytes[end] == b {
                    end += 1;
                    break;
                }
                end += 1;
            }
            self.i = end.min(n);
            self.before_token(None);
            self.last = Some(Tok::Other);
            return Ok(());
        }
        // Punctuation: one byte at a time is enough here (multi-byte
        // characters are skipped whole).
        let len = self.src[start..].chars().next().map(|c| c.len_utf8()).unwrap_or(1);
        self.i = start + len;
        self.before_token(None);
        match b {
            b'(' | b'[' | b'{' | b'?' => {
                let (saved_prefix, saved_do) = (self.prefix, self.do_pending);
                self.stack.push(Open { bracket: b, at: start, saved_prefix, saved_do });
                if b == b'{' {
                    self.prefix = 0;
                    self.do_pending = 0;
                }
                if self.stack.len() + saved_prefix > MAX_NESTING {
                    return Err(self.too_deep(start));
                }
            }
            b':' => {
                if self.stack.last().is_some_and(|o| o.bracket == b'?') {
                    self.stack.pop();
                } else if self.last == Some(Tok::Ident) {
                    // `label:` / `default:` / `case x:` nest the statement after them.
                    self.prefix += 1;
                    self.check_depth(start)?;
                }
            }
            b')' | b']' | b'}' => {
                let want = match b {
                    b')' => b'(',
                    b']' => b'[',
                    _ => b'{',
                };
                // Drop `?` left open inside this bracket (malformed `?:`).
                while self.stack.last().is_some_and(|o| o.bracket == b'?') {
                    self.stack.pop();
                }
                match self.stack.last() {
                    Some(o) if o.bracket == want => {
                        let o = self.stack.pop().expect("checked above");
                        if b == b'}' {
                            self.prefix = o.saved_prefix;
                            self.do_pending = o.saved_do;
                            self.pending_reset = true;
                        }
                    }
                    Some(o) => {
                        self.mismatched.push((start, Some((o.bracket, o.at))));
                        // A `}` also closes the `(`/`[` left open inside its
                        // block, so that later structure (and error recovery) is right.
                        if b == b'}' && self.stack.iter().any(|o| o.bracket == b'{') {
                            while let Some(o) = self.stack.pop() {
                                if o.bracket == b'{' {
                                    self.prefix = o.saved_prefix;
                                    self.do_pending = o.saved_do;
                                    self.pending_reset = true;
                                    break;
                                }
                            }
                        }
                    }
                    None => self.mismatched.push((start, None)),
                }
                if b == b'}' && self.stack.is_empty() {
                    self.resume_points.push(self.i);
                }
            }
            b';' => {
                self.pending_reset = true;
                if self.in_typedef.is_some_and(|d| d == self.stack.len()) {
                    self.declare_typedef();
                    self.in_typedef = None;
                }
                if self.stack.is_empty() {
                    self.resume_points.push(self.i);
                }
            }
            b',' if self.in_typedef.is_some_and(|d| d == self.stack.len()) => self.declare_typedef(),
            _ => {}
        }
        self.last = Some(Tok::Other);
        Ok(())
    }

    /// Called before every token: after `;`/`}` the statement prefixes end,
    /// unless the token continues the statement (`else`, a do-loop's `while`).
    fn before_token(&mut self, word: Option<&str>) {
        if !self.pending_reset {
            return;
        }
        self.pending_reset = false;
        match word {
            Some("else") => {}
            Some("while") if self.do_pending > 0 => {}
            _ => {
                self.prefix = 0;
                self.do_pending = 0;
            }
        }
    }

    fn declare_typedef(&mut self) {
        if self.last == Some(Tok::Ident) {
            if let Some((s, e)) = self.last_ident {
                let name = &self.src[s..e];
                // Restore the declared name itself if it was marked as a use.
                self.out[s] = self.bytes[s];
                self.typedefs.insert(name.to_string());
            }
        }
    }

    fn ident(&mut self, word: &str, start: usize, end: usize) -> Result<(), Diagnostic> {
        self.last_ident = Some((start, end));
        match word {
            // GCC attributes mean nothing to the analysis: blanking them here
            // saves pest from reading them character by character.
            "__attribute__" | "__attribute" => {
                self.blank_attribute(start, end);
                return Ok(());
            }
            "typedef" => self.in_typedef = Some(self.stack.len()),
            "if" | "for" | "switch" | "else" | "case" => {
                self.prefix += 1;
                self.check_depth(start)?;
            }
            "while" => {
                if self.do_pending > 0 && self.last == Some(Tok::Other) && self.prev_is_stmt_end(start) {
                    self.do_pending -= 1;
                } else {
                    self.prefix += 1;
                    self.check_depth(start)?;
                }
            }
            "do" => {
                self.prefix += 1;
                self.do_pending += 1;
                self.check_depth(start)?;
            }
            _ => {
                if self.typedefs.contains(word) {
                    self.out[start] = b'$';
                }
            }
        }
        Ok(())
    }

    /// Whether the last significant byte before `at` is `;` or `}`.
    fn prev_is_stmt_end(&self, at: usize) -> bool {
        self.src[..at].trim_end().ends_with([';', '}'])
    }
}
