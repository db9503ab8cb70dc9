//! The preprocessor: conditional compilation and object-like macros.
//!
//! It runs first, on the source as written, and yields the text every later
//! stage reads:
//! - directive lines (`#...`, with their `\`-continuations) become blanks;
//! - the lines of a group that `#if`/`#ifdef`/`#ifndef`/`#elif`/`#else`
//!   disable become blanks, so the program analysed is the one C compiles;
//! - uses of object-like macros (`#define N 10`) in enabled lines are
//!   replaced by their expansion (never inside comments, string or character
//!   literals, or longer names).
//!
//! Line breaks are kept everywhere, so a line of the text is the same line of
//! the source. An expansion may be longer or shorter than the macro name; the
//! offset map (`span::OffsetMap`) records each one, and spans built through
//! [`LineIndex`] map back to the source, so every
//! diagnostic points into the program as written (inside an expansion: at
//! the macro name).
//!
//! What could change the program but is not supported (function-like macros,
//! `#` and `##`, `#include` of a non-standard file, unknown directives) is an
//! error, never silently ignored.

use crate::diag::Diagnostic;
use crate::literal;
use crate::prescan::{MAX_INPUT_BYTES, MAX_NESTING};
use crate::span::{Edit, LineIndex, OffsetMap};
use std::collections::{HashMap, HashSet};

/// At most this many preprocessor errors are reported for one file.
const MAX_ERRORS: usize = 10;

/// The C standard library headers: `#include` of one of them is accepted
/// (mini-C declares what it supports itself), any other file is an error.
const STANDARD_HEADERS: &[&str] = &[
    "assert.h",
    "complex.h",
    "ctype.h",
    "errno.h",
    "fenv.h",
    "float.h",
    "inttypes.h",
    "iso646.h",
    "limits.h",
    "locale.h",
    "math.h",
    "setjmp.h",
    "signal.h",
    "stdalign.h",
    "stdarg.h",
    "stdatomic.h",
    "stdbool.h",
    "stddef.h",
    "stdint.h",
    "stdio.h",
    "stdlib.h",
    "stdnoreturn.h",
    "string.h",
    "tgmath.h",
    "threads.h",
    "time.h",
    "uchar.h",
    "wchar.h",
    "wctype.h",
];

/// Macros the standard headers define that a condition might test: mini-C
/// does not read the headers, so such a name in `#if` after its header was
/// included is an error instead of silently counting as 0.
const HEADER_MACROS: &[(&str, &[&str])] = &[
    (
        "limits.h",
        &[
            "CHAR_BIT",
            "SCHAR_MIN",
            "SCHAR_MAX",
            "UCHAR_MAX",
            "CHAR_MIN",
            "CHAR_MAX",
            "MB_LEN_MAX",
            "SHRT_MIN",
            "SHRT_MAX",
            "USHRT_MAX",
            "INT_MIN",
            "INT_MAX",
            "UINT_MAX",
            "LONG_MIN",
            "LONG_MAX",
            "ULONG_MAX",
            "LLONG_MIN",
            "LLONG_MAX",
            "ULLONG_MAX",
        ],
    ),
    (
        "stdint.h",
        &[
            "INT8_MAX",
            "INT8_MIN",
            "UINT8_MAX",
            "INT16_MAX",
            "INT16_MIN",
            "UINT16_MAX",
            "INT32_MAX",
            "INT32_MIN",
            "UINT32_MAX",
            "INT64_MAX",
            "INT64_MIN",
            "UINT64_MAX",
            "INTMAX_MAX",
            "INTMAX_MIN",
            "UINTMAX_MAX",
            "INTPTR_MAX",
            "INTPTR_MIN",
            "UINTPTR_MAX",
            "SIZE_MAX",
            "PTRDIFF_MAX",
            "PTRDIFF_MIN",
        ],
    ),
    ("stdlib.h", &["NULL", "RAND_MAX", "EXIT_SUCCESS", "EXIT_FAILURE", "MB_CUR_MAX"]),
    ("stdio.h", &["NULL", "EOF", "BUFSIZ", "FILENAME_MAX"]),
    ("stddef.h", &["NULL", "offsetof"]),
    ("string.h", &["NULL"]),
    ("stdbool.h", &["bool", "true", "false", "__bool_true_false_are_defined"]),
    ("assert.h", &["assert", "static_assert"]),
    ("errno.h", &["EDOM", "ERANGE", "EILSEQ", "errno"]),
];

/// What the preprocessor yields: the text the parser reads and what it found.
#[derive(Clone, Debug)]
pub struct Preprocessed {
    /// The program text after conditional compilation and macro substitution:
    /// directive lines and disabled groups blanked, macro uses expanded. It
    /// has the same lines as the source.
    pub text: String,
    /// Errors and warnings about preprocessor lines, located in the source.
    pub diagnostics: Vec<Diagnostic>,
    /// Where the text differs in length from the source (macro expansions).
    pub(crate) map: OffsetMap,
}

impl Preprocessed {
    /// Whether the text is the source unchanged except for blanked lines
    /// (no macro was expanded to a different length).
    pub fn same_offsets(&self) -> bool {
        self.map.is_identity()
    }

    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(|d| d.is_error())
    }
}

/// Runs the preprocessor over `source` (see the module documentation).
pub fn preprocess(source: &str) -> Preprocessed {
    let lines = LineIndex::new(source);
    preprocess_with(source, &lines)
}

/// [`preprocess`] with the source's line index already built.
pub(crate) fn preprocess_with(source: &str, lines: &LineIndex) -> Preprocessed {
    let mut pp = Pre::new(source, lines);
    pp.run();
    let mut diagnostics = pp.diags;
    diagnostics.sort_by_key(|d| d.span.start);
    Preprocessed { text: String::from_utf8(pp.out).unwrap_or_default(), diagnostics, map: pp.map }
}

/// The kind of a preprocessing token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Ident,
    Number,
    Char,
    Str,
    Punct,
}

/// One preprocessing token of a directive line or a macro body.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Tok {
    kind: Kind,
    text: String,
    /// Source offset of its first character (for a token produced by a macro
    /// expansion: of the macro name that was expanded).
    at: usize,
    /// Whether white space came before it.
    space: bool,
}

/// What a macro stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Body {
    /// An object-like macro: its replacement list.
    Tokens(Vec<Tok>),
    /// `__LINE__`: the line number of its use.
    Line,
}

#[derive(Clone, Debug)]
struct Macro {
    body: Body,
    /// Where it was defined (None for a predefined macro).
    defined_at: Option<usize>,
}

/// One `#if`/`#ifdef`/`#ifndef` group being read.
struct Frame {
    /// The directive that opened it: its offset and its name (`if`, ...).
    at: usize,
    directive: String,
    /// Whether the lines around the group are enabled.
    parent_active: bool,
    /// Whether one of its branches was already taken.
    taken: bool,
    /// Whether the current branch is enabled.
    active: bool,
    /// Where its `#else` is, once seen.
    else_at: Option<usize>,
}

struct Pre<'a> {
    src: &'a str,
    b: &'a [u8],
    lines: &'a LineIndex,
    out: Vec<u8>,
    map: OffsetMap,
    diags: Vec<Diagnostic>,
    macros: HashMap<String, Macro>,
    stack: Vec<Frame>,
    /// Standard headers included so far.
    headers: Vec<String>,
    /// Names the program defined or undefined itself (so whether they are
    /// macros does not depend on a header).
    known: HashSet<String>,
    /// Bytes produced by expansions so far (bounded by [`MAX_INPUT_BYTES`]).
    expanded: usize,
    /// Set after an error that stops the preprocessor.
    fatal: bool,
    /// Where the `/* */` comment the scan is in started (it may span lines).
    open_comment: Option<usize>,
}

/// `Err` of an expansion or a condition: the error is already reported.
struct Reported;

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The C punctuators of more than one character, longest first.
const PUNCTS: &[&str] = &[
    "<<=", ">>=", "...", "%:%:", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "*=", "/=", "%=", "+=", "-=",
    "&=", "^=", "|=", "##", "<:", ":>", "<%", "%>", "%:",
];

impl<'a> Pre<'a> {
    fn new(src: &'a str, lines: &'a LineIndex) -> Self {
        let mut macros = HashMap::new();
        let predefined = |text: &str| Macro {
            body: Body::Tokens(vec![Tok { kind: Kind::Number, text: text.to_string(), at: 0, space: false }]),
            defined_at: None,
        };
        macros.insert("__STDC__".to_string(), predefined("1"));
        macros.insert("__STDC_HOSTED__".to_string(), predefined("1"));
        macros.insert("__STDC_VERSION__".to_string(), predefined("201112L"));
        macros.insert("__LINE__".to_string(), Macro { body: Body::Line, defined_at: None });
        Pre {
            src,
            b: src.as_bytes(),
            lines,
            out: Vec::with_capacity(src.len()),
            map: OffsetMap::default(),
            diags: Vec::new(),
            macros,
            stack: Vec::new(),
            headers: Vec::new(),
            known: HashSet::new(),
            expanded: 0,
            fatal: false,
            open_comment: None,
        }
    }

    fn error(&mut self, start: usize, end: usize, msg: impl Into<String>) {
        if self.diags.iter().filter(|d| d.is_error()).count() >= MAX_ERRORS {
            self.fatal = true;
            return;
        }
        self.diags.push(Diagnostic::error(self.lines.span(start, end), msg));
    }

    fn warning(&mut self, start: usize, end: usize, msg: impl Into<String>) {
        self.diags.push(Diagnostic::warning(self.lines.span(start, end), msg));
    }

    /// A warning over the tokens `ignored`, when there are any.
    fn warn_ignored(&mut self, ignored: &[Tok], msg: String) {
        if let (Some(first), Some(last)) = (ignored.first(), ignored.last()) {
            self.warning(first.at, last.at + last.text.len(), msg);
        }
    }

    fn active(&self) -> bool {
        self.stack.last().is_none_or(|f| f.active)
    }

    fn line_of(&self, at: usize) -> u32 {
        self.lines.line_col(at).0
    }

    /// Copies `start..end` of the source, blanked (line breaks kept).
    fn blank(&mut self, start: usize, end: usize) {
        for &c in &self.b[start..end] {
            self.out.push(if c == b'\n' || c == b'\r' { c } else { b' ' });
        }
    }

    fn copy(&mut self, start: usize, end: usize) {
        self.out.extend_from_slice(&self.b[start..end]);
    }

    fn run(&mut self) {
        let n = self.b.len();
        let mut i = 0;
        while i < n && !self.fatal {
            // One physical line (or, for a directive, one logical line).
            let mut j = i;
            if self.open_comment.is_none() {
                if i == 0 && self.src.starts_with('\u{FEFF}') {
                    j = 3;
                }
                while j < n && matches!(self.b[j], b' ' | b'\t' | b'\r' | 0x0b | 0x0c) {
                    j += 1;
                }
                if j < n && self.b[j] == b'#' {
                    let end = self.directive_end(j);
                    let directive = self.logical_line(j + 1, end);
                    self.directive(j, end, directive);
                    self.blank(i, end);
                    i = end;
                    continue;
                }
            }
            let active = self.active();
            let end = self.text_line(i, active);
            i = end;
            if i < n {
                // The line break.
                self.out.push(b'\n');
                i += 1;
            }
        }
        if self.fatal {
            // An error was reported; the text is not parsed.
            return;
        }
        if let Some(at) = self.open_comment {
            // (Groups it leaves open are a consequence: not reported.)
            self.error(at, at + 2, "unterminated comment: `/*` has no matching `*/`");
            return;
        }
        while let Some(f) = self.stack.pop() {
            let end = (f.at + 1 + f.directive.len()).min(n);
            let msg = format!("`#{}` at line {} has no matching `#endif`", f.directive, self.line_of(f.at));
            self.error(f.at, end, msg);
        }
    }

    /// Where the directive starting at `start` (the `#`) ends: at the line
    /// break that is not escaped by `\` and not inside a `/* */` comment.
    fn directive_end(&mut self, start: usize) -> usize {
        let n = self.b.len();
        let mut k = start + 1;
        let mut quote: Option<u8> = None;
        while k < n {
            let c = self.b[k];
            match quote {
                Some(q) => {
                    if c == b'\\' && k + 1 < n && self.b[k + 1] != b'\n' {
                        k += 2;
                        continue;
                    }
                    if c == q {
                        quote = None;
                    } else if c == b'\n' {
                        // An unterminated literal ends with the line.
                        quote = None;
                        if !self.escaped_newline(start, k) {
                            return k;
                        }
                    }
                }
                None => {
                    if c == b'\n' && !self.escaped_newline(start, k) {
                        return k;
                    }
                    if c == b'"' || c == b'\'' {
                        quote = Some(c);
                    } else if c == b'/' && self.b.get(k + 1) == Some(&b'/') {
                        while k < n && (self.b[k] != b'\n' || self.escaped_newline(start, k)) {
                            k += 1;
                        }
                        return k;
                    } else if c == b'/' && self.b.get(k + 1) == Some(&b'*') {
                        match self.src[k + 2..].find("*/") {
                            Some(e) => {
                                k += 2 + e + 2;
                                continue;
                            }
                            None => {
                                self.open_comment = Some(k);
                                return n;
                            }
                        }
                    }
                }
            }
            k += 1;
        }
        n
    }

    /// Whether the line break at `k` follows a `\` (continuing the line).
    fn escaped_newline(&self, start: usize, k: usize) -> bool {
        let mut e = k;
        while e > start && self.b[e - 1] == b'\r' {
            e -= 1;
        }
        e > start && self.b[e - 1] == b'\\'
    }

    /// The characters of `start..end` as the preprocessor reads them:
    /// `\`-line breaks removed, comments replaced by one space; each with its
    /// source offset.
    fn logical_line(&self, start: usize, end: usize) -> Vec<(u8, usize)> {
        let mut chars = Vec::new();
        let mut k = start;
        let mut quote: Option<u8> = None;
        while k < end {
            let c = self.b[k];
            if c == b'\\' {
                let mut e = k + 1;
                while e < end && self.b[e] == b'\r' {
                    e += 1;
                }
                if e < end && self.b[e] == b'\n' {
                    k = e + 1;
                    continue;
                }
            }
            if c == b'\n' || c == b'\r' {
                k += 1;
                continue;
            }
            match quote {
                Some(q) => {
                    chars.push((c, k));
                    if c == b'\\' && k + 1 < end {
                        chars.push((self.b[k + 1], k + 1));
                        k += 2;
                        continue;
                    }
                    if c == q {
                        quote = None;
                    }
                }
                None => {
                    if c == b'/' && self.b.get(k + 1) == Some(&b'/') {
                        chars.push((b' ', k));
                        break;
                    }
                    if c == b'/' && self.b.get(k + 1) == Some(&b'*') {
                        chars.push((b' ', k));
                        k = match self.src[k + 2..end.max(k + 2)].find("*/") {
                            Some(e) => k + 2 + e + 2,
                            None => end,
                        };
                        continue;
                    }
                    if c == b'"' || c == b'\'' {
                        quote = Some(c);
                    }
                    chars.push((c, k));
                }
            }
            k += 1;
        }
        chars
    }

    /// Splits a logical line into preprocessing tokens.
    fn tokens(chars: &[(u8, usize)]) -> Vec<Tok> {
        let mut toks = Vec::new();
        let mut k = 0;
        let mut space = false;
        while k < chars.len() {
            let (c, at) = chars[k];
            if c.is_ascii_whitespace() {
                space = true;
                k += 1;
                continue;
            }
            let start = k;
            let kind;
            if is_ident_start(c) {
                while k < chars.len() && is_ident_char(chars[k].0) {
                    k += 1;
                }
                kind = if k < chars.len()
                    && matches!(chars[k].0, b'\'' | b'"')
                    && matches!(text_of(&chars[start..k]).as_str(), "L" | "u" | "U" | "u8")
                {
                    k = literal_end(chars, k);
                    if chars[k - 1].0 == b'"' {
                        Kind::Str
                    } else {
                        Kind::Char
                    }
                } else {
                    Kind::Ident
                };
            } else if c.is_ascii_digit() || (c == b'.' && chars.get(k + 1).is_some_and(|d| d.0.is_ascii_digit())) {
                k += 1;
                while k < chars.len() && pp_number_continues(chars[k - 1].0, chars[k].0) {
                    k += 1;
                }
                kind = Kind::Number;
            } else if c == b'"' || c == b'\'' {
                k = literal_end(chars, k);
                kind = if c == b'"' { Kind::Str } else { Kind::Char };
            } else {
                let rest: Vec<u8> = chars[k..].iter().take(4).map(|c| c.0).collect();
                let len = PUNCTS.iter().find(|p| rest.starts_with(p.as_bytes())).map_or(1, |p| p.len());
                // A character of several bytes is one token.
                let mut l = len;
                if c >= 0x80 {
                    while k + l < chars.len() && (chars[k + l].0 & 0xC0) == 0x80 {
                        l += 1;
                    }
                }
                k += l;
                kind = Kind::Punct;
            }
            toks.push(Tok { kind, text: text_of(&chars[start..k]), at, space });
            space = false;
        }
        toks
    }

    /// A directive: `hash` is the offset of `#`, `end` where it ends.
    fn directive(&mut self, hash: usize, end: usize, chars: Vec<(u8, usize)>) {
        let toks = Self::tokens(&chars);
        let Some(first) = toks.first() else {
            // The null directive `#` does nothing.
            return;
        };
        let name = first.text.clone();
        let name_end = first.at + name.len();
        let args = &toks[1..];
        let active = self.active();
        match name.as_str() {
            "if" | "ifdef" | "ifndef" => {
                let cond = if active {
                    match name.as_str() {
                        "if" => self.condition(hash, "if", args).unwrap_or(false),
                        _ => match self.macro_name(hash, &name, args) {
                            Some(m) => !self.header_macro_reported(&args[0]) && self.macros.contains_key(&m) == (name == "ifdef"),
                            None => false,
                        },
                    }
                } else {
                    false
                };
                self.stack.push(Frame {
                    at: hash,
                    directive: name,
                    parent_active: active,
                    taken: cond,
                    active: cond,
                    else_at: None,
                });
                if self.stack.len() > MAX_NESTING {
                    self.error(hash, name_end, format!("`#if` groups nested deeper than {MAX_NESTING} levels are not supported"));
                    self.fatal = true;
                }
            }
            "elif" => {
                let Some(f) = self.stack.last() else {
                    self.error(hash, name_end, "`#elif` without an `#if` before it");
                    return;
                };
                if let Some(e) = f.else_at {
                    let line = self.line_of(e);
                    self.error(hash, name_end, format!("`#elif` after the `#else` of line {line}: the `#else` must come last"));
                    return;
                }
                let (parent_active, taken) = (f.parent_active, f.taken);
                let cond = parent_active && !taken && self.condition(hash, "elif", args).unwrap_or(false);
                let f = self.stack.last_mut().expect("checked above");
                f.active = cond;
                f.taken |= cond;
            }
            "else" | "endif" => {
                self.warn_ignored(args, format!("the text after `#{name}` is ignored (write it as a comment)"));
                if self.stack.is_empty() {
                    self.error(hash, name_end, format!("`#{name}` without an `#if` before it"));
                    return;
                }
                if name == "endif" {
                    self.stack.pop();
                    return;
                }
                let f = self.stack.last_mut().expect("checked above");
                if let Some(e) = f.else_at {
                    let line = self.line_of(e);
                    self.error(hash, name_end, format!("a second `#else` for the same `#if` (the first is at line {line})"));
                    return;
                }
                f.active = f.parent_active && !f.taken;
                f.taken = true;
                f.else_at = Some(hash);
            }
            // Everything else only counts in enabled lines.
            _ if !active => {}
            "define" => self.define(hash, args),
            "undef" => {
                if let Some(m) = self.macro_name(hash, "undef", args) {
                    self.macros.remove(&m);
                    self.known.insert(m);
                }
            }
            "include" => self.include(hash, end, args),
            "line" => {}
            _ if first.kind == Kind::Number => {} // a line marker `# 1 "file"`
            "pragma" | "ident" | "sccs" => {
                let shown = shorten(self.src[hash..end].lines().next().unwrap_or(""));
                self.warning(hash, end, format!("the directive `{shown}` is ignored (it cannot change the program)"));
            }
            "error" | "warning" => {
                let msg = args.first().map(|t| self.src[t.at..end].trim_end().to_string()).unwrap_or_default();
                if name == "error" {
                    self.error(hash, end, format!("`#error`: {msg}"));
                } else {
                    self.warning(hash, end, format!("`#warning`: {msg}"));
                }
            }
            "include_next" | "import" => {
                self.error(hash, name_end, format!("`#{name}` is not supported; preprocess the file first (gcc -E)"))
            }
            _ => self.error(hash, name_end, format!("unknown preprocessor directive `#{}`", shorten(&name))),
        }
    }

    /// Whether `t` names a macro that an included standard header defines and
    /// the program did not define or undefine itself; then whether it is
    /// defined, and as what, is unknown here, and that is reported.
    fn header_macro_reported(&mut self, t: &Tok) -> bool {
        if self.macros.contains_key(&t.text) || self.known.contains(&t.text) {
            return false;
        }
        let Some(h) =
            self.headers.iter().find(|h| HEADER_MACROS.iter().any(|(hh, names)| hh == h && names.contains(&t.text.as_str())))
        else {
            return false;
        };
        let msg =
            format!("`{}` comes from `<{h}>`, which mini-C does not read; write its value (or `#define` it) instead", t.text);
        self.error(t.at, t.at + t.text.len(), msg);
        true
    }

    /// The macro name after `#ifdef`/`#ifndef`/`#undef`, or an error.
    fn macro_name(&mut self, hash: usize, directive: &str, args: &[Tok]) -> Option<String> {
        let Some(t) = args.first().filter(|t| t.kind == Kind::Ident) else {
            let (s, e) = args.first().map_or((hash, hash + 1 + directive.len()), |t| (t.at, t.at + t.text.len()));
            self.error(s, e, format!("`#{directive}` needs a macro name"));
            return None;
        };
        self.warn_ignored(&args[1..], format!("the text after the macro name in `#{directive}` is ignored"));
        Some(t.text.clone())
    }

    fn define(&mut self, hash: usize, args: &[Tok]) {
        let Some(name) = args.first().filter(|t| t.kind == Kind::Ident) else {
            let (s, e) = args.first().map_or((hash, hash + 7), |t| (t.at, t.at + t.text.len()));
            self.error(s, e, "`#define` needs a macro name");
            return;
        };
        let name_end = name.at + name.text.len();
        if name.text == "defined" {
            self.error(name.at, name_end, "`defined` cannot be a macro name");
            return;
        }
        let body = &args[1..];
        if body.first().is_some_and(|t| t.text == "(" && !t.space) {
            self.error(
                name.at,
                name_end,
                format!("function-like macros (`{}(...)`) are not supported; preprocess the file first (gcc -E)", name.text),
            );
            return;
        }
        if let Some(t) = body.iter().find(|t| matches!(t.text.as_str(), "#" | "##" | "%:" | "%:%:")) {
            let what = if t.text.len() == 1 || t.text == "%:" { "`#` (stringizing)" } else { "`##` (token pasting)" };
            self.error(
                t.at,
                t.at + t.text.len(),
                format!("{what} is not supported in macros; preprocess the file first (gcc -E)"),
            );
            return;
        }
        let mut tokens: Vec<Tok> = body.to_vec();
        if let Some(t) = tokens.first_mut() {
            t.space = false;
        }
        let new = Body::Tokens(tokens);
        if let Some(old) = self.macros.get(&name.text) {
            if !same_body(&old.body, &new) {
                let msg = match old.defined_at {
                    Some(at) => format!(
                        "`{}` is redefined (it was defined differently at line {}); the new definition counts from here on",
                        name.text,
                        self.line_of(at)
                    ),
                    None => format!("`{}` is predefined; the new definition counts from here on", name.text),
                };
                self.warning(name.at, name_end, msg);
            }
        }
        self.macros.insert(name.text.clone(), Macro { body: new, defined_at: Some(hash) });
    }

    fn include(&mut self, hash: usize, end: usize, args: &[Tok]) {
        // `<stdio.h>` comes as several tokens: take the text up to `>`.
        let text = args.first().map(|t| self.src[t.at..end].trim_end()).unwrap_or("");
        let file = if let Some(rest) = text.strip_prefix('<') {
            rest.find('>').map(|e| &rest[..e])
        } else if let Some(rest) = text.strip_prefix('"') {
            rest.find('"').map(|e| &rest[..e])
        } else {
            None
        };
        let Some(file) = file else {
            let (s, e) = args.first().map_or((hash, end), |t| (t.at, t.at + t.text.len()));
            self.error(s, e, "`#include` needs a file name in `<...>` or `\"...\"`");
            return;
        };
        let file = file.trim().to_string();
        if file == "assert.h" && self.macros.contains_key("NDEBUG") {
            let at = args.first().map_or(hash, |t| t.at);
            self.error(
                at,
                (at + file.len() + 2).min(end),
                "`NDEBUG` is defined, so in C this `<assert.h>` turns `assert` off; mini-C's `assert` always checks: remove `NDEBUG` or the asserts",
            );
        } else if STANDARD_HEADERS.contains(&file.as_str()) {
            self.headers.push(file);
        } else {
            let at = args.first().map_or(hash, |t| t.at);
            self.error(
                at,
                (at + file.len() + 2).min(end),
                format!(
                    "`#include` of `{}` is not supported: mini-C reads one file (only the C standard headers may be included); paste what you need from it or preprocess the file first (gcc -E)",
                    shorten(&file)
                ),
            );
        }
    }

    /// Reads one physical line of program text from `start` (up to its line
    /// break), copying it (with macros expanded) when `active`, blanking it
    /// otherwise. Returns the offset of the line break (or the end).
    fn text_line(&mut self, start: usize, active: bool) -> usize {
        let src = self.src;
        let n = self.b.len();
        let mut k = start;
        // Output runs are copied lazily: `from..k` is not yet written.
        let mut from = start;
        let flush = |this: &mut Self, from: usize, to: usize| {
            if active {
                this.copy(from, to);
            } else {
                this.blank(from, to);
            }
        };
        while k < n && self.b[k] != b'\n' {
            let c = self.b[k];
            if self.open_comment.is_some() {
                if c == b'*' && self.b.get(k + 1) == Some(&b'/') {
                    self.open_comment = None;
                    k += 2;
                } else {
                    k += 1;
                }
                continue;
            }
            if c == b'/' && self.b.get(k + 1) == Some(&b'/') {
                while k < n && self.b[k] != b'\n' {
                    k += 1;
                }
                break;
            }
            if c == b'/' && self.b.get(k + 1) == Some(&b'*') {
                self.open_comment = Some(k);
                k += 2;
                continue;
            }
            if c == b'"' || c == b'\'' {
                k = self.skip_literal(k);
                continue;
            }
            if c.is_ascii_digit() || (c == b'.' && self.b.get(k + 1).is_some_and(u8::is_ascii_digit)) {
                k += 1;
                while k < n && pp_number_continues(self.b[k - 1], self.b[k]) {
                    k += 1;
                }
                continue;
            }
            if is_ident_start(c) {
                let s = k;
                while k < n && is_ident_char(self.b[k]) {
                    k += 1;
                }
                let word = &src[s..k];
                if k < n && matches!(self.b[k], b'\'' | b'"') && matches!(word, "L" | "u" | "U" | "u8") {
                    k = self.skip_literal(k);
                    continue;
                }
                if active && self.macros.contains_key(word) {
                    flush(self, from, s);
                    if self.expand_in_text(word, s, k).is_err() {
                        self.fatal = true;
                        return n;
                    }
                    from = k;
                }
                continue;
            }
            k += 1;
        }
        flush(self, from, k);
        k
    }

    /// The end of the character or string literal starting at `k` (at the
    /// closing quote, or at the end of the line if there is none).
    fn skip_literal(&self, k: usize) -> usize {
        let n = self.b.len();
        let q = self.b[k];
        let mut e = k + 1;
        while e < n && self.b[e] != b'\n' {
            if self.b[e] == b'\\' && e + 1 < n && self.b[e + 1] != b'\n' {
                e += 2;
                continue;
            }
            if self.b[e] == q {
                return e + 1;
            }
            e += 1;
        }
        e
    }

    /// Writes the expansion of the macro `name` used at `start..end`.
    fn expand_in_text(&mut self, name: &str, start: usize, end: usize) -> Result<(), Reported> {
        let use_tok = Tok { kind: Kind::Ident, text: name.to_string(), at: start, space: false };
        let mut toks = Vec::new();
        self.expand(&[use_tok], &mut Vec::new(), &mut toks)?;
        // Spaces around and between the tokens keep them apart (C
        // substitutes tokens, not characters: `x-N` with `N` = `-1` is
        // `x - -1`, not `x--1`).
        let mut text = String::from(" ");
        for t in &toks {
            text.push_str(&t.text);
            text.push(' ');
        }
        let t0 = self.out.len();
        self.out.extend_from_slice(text.as_bytes());
        self.map.push(Edit { text: (t0, self.out.len()), source: (start, end) });
        Ok(())
    }

    /// Expands the macros in `toks` (none in `hide`, which are being
    /// expanded already), appending the result to `out`.
    fn expand(&mut self, toks: &[Tok], hide: &mut Vec<String>, out: &mut Vec<Tok>) -> Result<(), Reported> {
        for t in toks {
            let m = if t.kind == Kind::Ident && !hide.contains(&t.text) {
                self.macros.get(&t.text).map(|m| m.body.clone())
            } else {
                None
            };
            let Some(body) = m else {
                self.expanded += t.text.len() + 1;
                if self.expanded > MAX_INPUT_BYTES {
                    self.error(t.at, t.at + 1, "macro expansions make the program larger than 4 MB");
                    return Err(Reported);
                }
                out.push(t.clone());
                continue;
            };
            match body {
                Body::Line => {
                    out.push(Tok { kind: Kind::Number, text: self.line_of(t.at).to_string(), at: t.at, space: t.space });
                }
                Body::Tokens(body) => {
                    if hide.len() >= MAX_NESTING {
                        self.error(
                            t.at,
                            t.at + t.text.len(),
                            format!("macros nested deeper than {MAX_NESTING} levels are not supported"),
                        );
                        return Err(Reported);
                    }
                    // Tokens of the expansion are located at the use.
                    let located: Vec<Tok> = body.iter().map(|b| Tok { at: t.at, ..b.clone() }).collect();
                    hide.push(t.text.clone());
                    let r = self.expand(&located, hide, out);
                    hide.pop();
                    r?;
                }
            }
        }
        Ok(())
    }

    /// Evaluates the condition of `#if`/`#elif` (`args`); `Err` after
    /// reporting why it cannot be evaluated.
    fn condition(&mut self, hash: usize, directive: &str, args: &[Tok]) -> Result<bool, Reported> {
        let line_end = args.last().map_or(hash + 1 + directive.len(), |t| t.at + t.text.len());
        if args.is_empty() {
            self.error(hash, line_end, format!("`#{directive}` needs a condition"));
            return Err(Reported);
        }
        // `defined NAME` and `defined(NAME)` first: their names are not expanded.
        let mut resolved: Vec<Tok> = Vec::new();
        let mut k = 0;
        while k < args.len() {
            let t = &args[k];
            if t.kind == Kind::Ident && t.text == "defined" {
                let name = match (args.get(k + 1), args.get(k + 2), args.get(k + 3)) {
                    (Some(n), _, _) if n.kind == Kind::Ident => {
                        k += 2;
                        Some(n)
                    }
                    (Some(p), Some(n), Some(c)) if p.text == "(" && n.kind == Kind::Ident && c.text == ")" => {
                        k += 4;
                        Some(n)
                    }
                    _ => None,
                };
                let Some(name) = name else {
                    self.error(t.at, t.at + t.text.len(), "`defined` needs a macro name: write `defined(NAME)`");
                    return Err(Reported);
                };
                if self.header_macro_reported(name) {
                    return Err(Reported);
                }
                let v = self.macros.contains_key(&name.text);
                resolved.push(Tok { kind: Kind::Number, text: if v { "1" } else { "0" }.to_string(), at: t.at, space: t.space });
                continue;
            }
            resolved.push(t.clone());
            k += 1;
        }
        let mut expanded = Vec::new();
        self.expand(&resolved, &mut Vec::new(), &mut expanded)?;
        if let Some(t) = expanded.iter().find(|t| t.text == "defined") {
            self.error(
                t.at,
                t.at + t.text.len(),
                "`defined` produced by a macro expansion is not supported; write `defined` in the `#if` itself",
            );
            return Err(Reported);
        }
        // What is left of the names are no macros: C counts them as 0.
        for t in &expanded {
            if t.kind == Kind::Ident && self.header_macro_reported(t) {
                return Err(Reported);
            }
        }
        let mut eval = Eval { toks: &expanded, k: 0, directive, line_end, depth: 0, err: None };
        let result = eval.expr(true);
        let result = match result {
            Some(_) if eval.k < expanded.len() => {
                let t = &expanded[eval.k];
                Err(eval.unexpected(t, "an operator or the end of the line"))
            }
            Some(v) => Ok(v.v != 0),
            None => Err(eval.err.take().unwrap_or((hash, line_end, "malformed condition".into()))),
        };
        match result {
            Ok(b) => Ok(b),
            Err((s, e, msg)) => {
                self.error(s, e, msg);
                Err(Reported)
            }
        }
    }
}

/// Whether `d` (after `prev`) continues a preprocessing number: digits,
/// letters, `_`, `.`, and a sign after an exponent letter (`1e+5`, `0x1p-3`).
fn pp_number_continues(prev: u8, d: u8) -> bool {
    is_ident_char(d) || d == b'.' || (matches!(d, b'+' | b'-') && matches!(prev, b'e' | b'E' | b'p' | b'P'))
}

fn text_of(chars: &[(u8, usize)]) -> String {
    String::from_utf8_lossy(&chars.iter().map(|c| c.0).collect::<Vec<_>>()).into_owned()
}

/// The end of the literal starting at `chars[k]` (a quote).
fn literal_end(chars: &[(u8, usize)], k: usize) -> usize {
    let q = chars[k].0;
    let mut e = k + 1;
    while e < chars.len() {
        if chars[e].0 == b'\\' {
            e += 2;
            continue;
        }
        if chars[e].0 == q {
            return e + 1;
        }
        e += 1;
    }
    chars.len()
}

/// Whether two macro bodies are the same (C's rule for a harmless
/// redefinition: the same tokens with white space in the same places).
fn same_body(a: &Body, b: &Body) -> bool {
    match (a, b) {
        (Body::Tokens(x), Body::Tokens(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(s, t)| s.text == t.text && s.space == t.space)
        }
        (Body::Line, Body::Line) => true,
        _ => false,
    }
}

/// Whether a preprocessing number is a floating-point constant (`1.5`, `1e3`;
/// hexadecimal digits `e` do not count).
fn is_floating(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    if lower.starts_with("0x") {
        lower.contains('.') || lower.contains('p')
    } else {
        lower.contains('.') || lower.contains('e')
    }
}

/// At most 40 characters of `s`, for messages.
fn shorten(s: &str) -> String {
    let s = s.trim_end();
    if s.chars().count() > 40 {
        s.chars().take(40).collect::<String>() + "…"
    } else {
        s.to_string()
    }
}

/// A value of a `#if` condition: C evaluates them in `intmax_t` or
/// `uintmax_t` (64 bits here).
#[derive(Clone, Copy, Debug)]
struct Value {
    /// The bits of the value.
    v: u64,
    unsigned: bool,
}

impl Value {
    fn int(v: i64) -> Value {
        Value { v: v as u64, unsigned: false }
    }
    fn truth(b: bool) -> Value {
        Value::int(b as i64)
    }
    fn signed(self) -> i64 {
        self.v as i64
    }
}

/// An error of a condition: source range and message.
type CondError = (usize, usize, String);

/// The evaluator of one `#if` condition (precedence climbing over tokens).
struct Eval<'t> {
    toks: &'t [Tok],
    k: usize,
    directive: &'t str,
    /// Source offset of the end of the directive (for "found the end" errors).
    line_end: usize,
    depth: usize,
    err: Option<CondError>,
}

/// Binary operators by precedence level (higher binds tighter).
fn binary_level(op: &str) -> Option<u8> {
    Some(match op {
        "||" => 1,
        "&&" => 2,
        "|" => 3,
        "^" => 4,
        "&" => 5,
        "==" | "!=" => 6,
        "<" | ">" | "<=" | ">=" => 7,
        "<<" | ">>" => 8,
        "+" | "-" => 9,
        "*" | "/" | "%" => 10,
        _ => return None,
    })
}

impl<'t> Eval<'t> {
    fn fail(&mut self, e: CondError) -> Option<Value> {
        if self.err.is_none() {
            self.err = Some(e);
        }
        None
    }

    fn unexpected(&self, t: &Tok, expected: &str) -> CondError {
        let hint = match t.text.as_str() {
            "=" => " (`=` assigns; compare with `==`)",
            _ => "",
        };
        (
            t.at,
            t.at + t.text.len().max(1),
            format!("expected {expected} in the `#{}` condition, found `{}`{hint}", self.directive, shorten(&t.text)),
        )
    }

    fn at_end(&self, expected: &str) -> CondError {
        (
            self.line_end,
            self.line_end,
            format!("expected {expected} in the `#{}` condition, found the end of the line", self.directive),
        )
    }

    fn peek(&self) -> Option<&'t Tok> {
        self.toks.get(self.k)
    }

    /// A full expression, `?:` included; `eval` says whether its value counts
    /// (division by zero is an error only then, as in C).
    fn expr(&mut self, eval: bool) -> Option<Value> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            let t = self.peek().cloned();
            let at = t.map_or(self.line_end, |t| t.at);
            return self.fail((at, at + 1, format!("nesting deeper than {MAX_NESTING} levels is not supported")));
        }
        let r = self.conditional(eval);
        self.depth -= 1;
        r
    }

    fn conditional(&mut self, eval: bool) -> Option<Value> {
        let c = self.binary(1, eval)?;
        if self.peek().is_none_or(|t| t.text != "?") {
            return Some(c);
        }
        self.k += 1;
        let take = c.v != 0;
        let a = self.expr(eval && take)?;
        match self.peek() {
            Some(t) if t.text == ":" => self.k += 1,
            Some(t) => {
                let e = self.unexpected(t, "`:` of the `?`");
                return self.fail(e);
            }
            None => {
                let e = self.at_end("`:` of the `?`");
                return self.fail(e);
            }
        }
        let b = self.expr(eval && !take)?;
        let unsigned = a.unsigned || b.unsigned;
        let v = if take { a.v } else { b.v };
        Some(Value { v, unsigned })
    }

    fn binary(&mut self, min: u8, eval: bool) -> Option<Value> {
        let mut lhs = self.unary(eval)?;
        while let Some(t) = self.peek() {
            let Some(level) = binary_level(&t.text).filter(|l| *l >= min) else {
                break;
            };
            if t.kind != Kind::Punct {
                break;
            }
            self.k += 1;
            let op = t.text.as_str();
            // The right side of `&&`/`||` counts only if the left does not decide.
            let rhs_eval = match op {
                "&&" => eval && lhs.v != 0,
                "||" => eval && lhs.v == 0,
                _ => eval,
            };
            let rhs = self.binary(level + 1, rhs_eval)?;
            lhs = match self.apply(op, lhs, rhs, rhs_eval, t) {
                Ok(v) => v,
                Err(e) => return self.fail(e),
            };
        }
        Some(lhs)
    }

    fn apply(&self, op: &str, a: Value, b: Value, eval: bool, t: &Tok) -> Result<Value, CondError> {
        let unsigned = a.unsigned || b.unsigned;
        let arith = |v: u64| Value { v, unsigned };
        Ok(match op {
            "||" => Value::truth(a.v != 0 || b.v != 0),
            "&&" => Value::truth(a.v != 0 && b.v != 0),
            "|" => arith(a.v | b.v),
            "^" => arith(a.v ^ b.v),
            "&" => arith(a.v & b.v),
            "==" => Value::truth(a.v == b.v),
            "!=" => Value::truth(a.v != b.v),
            "<" | ">" | "<=" | ">=" => {
                let ord = if unsigned { a.v.cmp(&b.v) } else { a.signed().cmp(&b.signed()) };
                Value::truth(match op {
                    "<" => ord.is_lt(),
                    ">" => ord.is_gt(),
                    "<=" => ord.is_le(),
                    _ => ord.is_ge(),
                })
            }
            "<<" | ">>" => {
                // The count's sign decides the direction (as GCC does).
                let count = if b.unsigned { b.v.min(64) as i64 } else { b.signed().clamp(-64, 64) };
                let left = (op == "<<") == (count >= 0);
                let n = count.unsigned_abs() as u32;
                let v = if left {
                    if n >= 64 {
                        0
                    } else {
                        a.v << n
                    }
                } else if a.unsigned {
                    a.v.checked_shr(n).unwrap_or(0)
                } else {
                    (a.signed() >> n.min(63)) as u64
                };
                Value { v, unsigned: a.unsigned }
            }
            "+" => arith(a.v.wrapping_add(b.v)),
            "-" => arith(a.v.wrapping_sub(b.v)),
            "*" => arith(a.v.wrapping_mul(b.v)),
            "/" | "%" => {
                if b.v == 0 {
                    if eval {
                        let what = if op == "/" { "division" } else { "remainder (`%`)" };
                        return Err((t.at, t.at + 1, format!("{what} by zero in the `#{}` condition", self.directive)));
                    }
                    return Ok(arith(0));
                }
                let v = match (unsigned, op) {
                    (true, "/") => a.v / b.v,
                    (true, _) => a.v % b.v,
                    (false, "/") => a.signed().wrapping_div(b.signed()) as u64,
                    (false, _) => a.signed().wrapping_rem(b.signed()) as u64,
                };
                arith(v)
            }
            _ => unreachable!("only operators of binary_level"),
        })
    }

    fn unary(&mut self, eval: bool) -> Option<Value> {
        let Some(t) = self.peek() else {
            let e = self.at_end("a value");
            return self.fail(e);
        };
        if t.kind == Kind::Punct && matches!(t.text.as_str(), "+" | "-" | "~" | "!") {
            self.k += 1;
            self.depth += 1;
            if self.depth > MAX_NESTING {
                return self.fail((t.at, t.at + 1, format!("nesting deeper than {MAX_NESTING} levels is not supported")));
            }
            let v = self.unary(eval);
            self.depth -= 1;
            let v = v?;
            return Some(match t.text.as_str() {
                "+" => v,
                "-" => Value { v: v.v.wrapping_neg(), ..v },
                "~" => Value { v: !v.v, ..v },
                _ => Value::truth(v.v == 0),
            });
        }
        self.k += 1;
        match t.kind {
            Kind::Punct if t.text == "(" => {
                let v = self.expr(eval)?;
                match self.peek() {
                    Some(c) if c.text == ")" => {
                        self.k += 1;
                        Some(v)
                    }
                    Some(c) => {
                        let e = self.unexpected(c, "`)`");
                        self.fail(e)
                    }
                    None => {
                        let e = self.at_end("`)`");
                        self.fail(e)
                    }
                }
            }
            Kind::Number if is_floating(&t.text) => self.fail((
                t.at,
                t.at + t.text.len(),
                format!("floating-point numbers are not allowed in the `#{}` condition", self.directive),
            )),
            Kind::Number => match literal::int_literal(&t.text) {
                Ok((v, _)) => {
                    let lower = t.text.to_ascii_lowercase();
                    let suffix_u = lower.trim_end_matches('l').ends_with('u');
                    Some(Value { v: v as u64, unsigned: suffix_u || v > i64::MAX as u128 })
                }
                Err(msg) => self.fail((t.at, t.at + t.text.len(), msg)),
            },
            Kind::Char => match literal::char_literal(t.text.trim_start_matches(['L', 'u', 'U', '8'])) {
                Ok(v) => Some(Value::int(v as i64)),
                Err(msg) => self.fail((t.at, t.at + t.text.len(), msg)),
            },
            // A name that is not a macro counts as 0.
            Kind::Ident => Some(Value::int(0)),
            _ => {
                self.k -= 1;
                let e = self.unexpected(t, "a value");
                self.fail(e)
            }
        }
    }
}
