//! Syntax errors in a student's words.
//!
//! pest reports a failed parse as the position where it got furthest and the
//! grammar rules it tried there ("positives"). [`describe`] is THE table that
//! renames every rule into words; [`syntax_error`] turns positives into a
//! sentence: "expected `;` after the expression, found `}`".

use crate::diag::Diagnostic;
use crate::parser::Rule;
use crate::prescan::Prescan;
use crate::span::LineIndex;
use pest::error::{ErrorVariant, InputLocation};

/// How specific an expectation is; only the most specific ones are listed.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Kind {
    /// An operator that could continue an expression: always possible, so
    /// mentioned only when nothing else is expected.
    Operator,
    /// A construct ("an expression", "a statement").
    Construct,
    /// A specific token with its context ("`;` after the expression").
    Punct,
}

/// THE rename table: every grammar rule in words, with how specific it is.
/// `None` for rules that never appear in messages (the whole file, silent
/// helpers, ...).
fn describe(rule: Rule) -> Option<(&'static str, Kind)> {
    use Kind::*;
    use Rule::*;
    let d = match rule {
        EOI => ("the end of the file", Construct),
        WHITESPACE | ident_char => return None,
        keyword => ("a keyword", Construct),
        ident => ("a name", Construct),
        typedef_name => ("a type name", Construct),
        kw_if => ("`if`", Construct),
        kw_else => ("`else`", Construct),
        kw_while => ("`while`", Construct),
        kw_do => ("`do`", Construct),
        kw_for => ("`for`", Construct),
        kw_switch => ("`switch`", Construct),
        kw_case => ("`case`", Construct),
        kw_default => ("`default`", Construct),
        kw_break => ("`break`", Construct),
        kw_continue => ("`continue`", Construct),
        kw_return => ("`return`", Construct),
        kw_goto => ("`goto`", Construct),
        kw_sizeof => ("`sizeof`", Construct),
        int_lit | hex_digits | dec_digits | int_suffix => ("a number", Construct),
        bad_float_lit | exponent => ("a number", Construct),
        bad_number => ("a number", Construct),
        char_lit | char_body => ("a character literal", Construct),
        str_lit | str_lits => ("a string", Construct),
        func_name => ("`__func__`", Construct),
        // Decorations are never what a student is missing.
        noise | attribute | attr_body | qualifier | extension | attribute_kw | qualifier_kw | qualifier_words | extension_kw
        | noise_kw => return None,
        storage => ("`static`, `extern` or `typedef`", Construct),
        type_word | bad_type_word => ("a type", Construct),
        bad_aggregate | aggregate_kw | balanced_braces => ("a type", Construct),
        struct_spec | struct_kw => ("a type", Construct),
        struct_field => ("a field declaration", Construct),
        field_semi => ("`;` after the field", Punct),
        struct_close => ("`}` to end the struct", Punct),
        bad_thread_storage => ("a type", Construct),
        unknown_type => ("a type", Construct),
        decl_specs | decl_spec_core | decl_specs_or_unknown | decl_start | spec_kw => ("a type", Construct),
        type_name | abstract_declarator => ("a type", Construct),
        file | file_rest | item | function_body => ("a declaration or a function", Construct),
        stray_semi => ("a declaration or a function", Construct),
        top_item | declaration => ("a declaration", Construct),
        decl_semi => ("`;` after the declaration", Punct),
        init_declarator | declarator => ("a name to declare", Construct),
        initializer | init_list => ("an expression", Construct),
        init_close => ("`}` to end the initializer list", Punct),
        ptr_star => ("a name to declare", Construct),
        array_suffix => ("`[`", Construct),
        array_close => ("`]` after the array size", Punct),
        bad_fn_pointer => ("a name to declare", Construct),
        params => ("a parameter list `(...)`", Construct),
        params_close => ("`)` after the parameters", Punct),
        void_params | param => ("a parameter", Construct),
        ellipsis => ("a parameter", Construct),
        block => ("a block `{ ... }`", Construct),
        block_close => ("`}`", Punct),
        statement | stmt_kw => ("a statement", Construct),
        if_stmt | while_stmt | do_stmt | for_stmt | switch_stmt | case_stmt | default_stmt | break_stmt | continue_stmt
        | return_stmt | goto_stmt | labeled_stmt | empty_stmt | expr_stmt | bad_asm | asm_kw => ("a statement", Construct),
        cond_open => ("`(` before the condition", Punct),
        cond_close => ("`)` after the condition", Punct),
        do_while => ("`while` after the body of `do`", Punct),
        for_open => ("`(` after `for`", Punct),
        for_semi => ("`;` in the `for` header", Punct),
        for_close => ("`)` to end the `for` header", Punct),
        for_decl => ("a declaration", Construct),
        for_init_expr | for_cond | for_step => ("an expression", Construct),
        case_colon => ("`:` after the `case` value", Punct),
        default_colon => ("`:` after `default`", Punct),
        bad_implicit_int => ("a declaration or a function", Construct),
        expr_semi => ("`;` after the expression", Punct),
        stmt_semi => ("`;` at the end of the statement", Punct),
        expr | expr_nc | operand | primary | prefix | prefix_start => ("an expression", Construct),
        cast => ("an expression", Construct),
        sizeof_op | pre_inc | pre_dec | neg | plus | not | bit_not | address_of | deref => ("an expression", Construct),
        subscript_close => ("`]` after the index", Punct),
        postfix | postfix_start | post_inc | post_dec | subscript | member_access | member_arrow | member_dot => {
            ("an operator", Operator)
        }
        call_args => ("an operator", Operator),
        args_close => ("`)` after the arguments", Punct),
        stmt_expr | paren_expr | sizeof_type => ("an expression", Construct),
        paren_close => ("`)`", Punct),
        infix | infix_nc | infix_start | infix_groups | comma | shl_assign | shr_assign | add_assign | sub_assign
        | mul_assign | div_assign | rem_assign | and_assign | or_assign | xor_assign | log_or | log_and | shl | shr | le | ge
        | eq | ne | lt | gt | assign | bit_or | bit_xor | bit_and | add | sub | mul | div | rem => ("an operator", Operator),
        conditional => ("an operator", Operator),
        cond_colon => ("`:` of the conditional `? :`", Punct),
    };
    Some(d)
}

/// Words for the token found at `pos`: "`while`", "`;`", "the end of the file".
pub(crate) fn found_token(src: &str, pos: usize) -> String {
    let rest = src.get(pos..).unwrap_or("");
    let Some(c) = rest.chars().next() else {
        return "the end of the file".to_string();
    };
    if c.is_ascii_alphanumeric() || c == '_' {
        let word: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').take(40).collect();
        return format!("`{word}`");
    }
    const PUNCT: [&str; 24] = [
        "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=", "*=", "/=", "%=",
        "&=", "|=", "^=", "##", "::",
    ];
    if let Some(p) = PUNCT.iter().find(|p| rest.starts_with(**p)) {
        return format!("`{p}`");
    }
    if c == '"' {
        return "a string".to_string();
    }
    if c.is_control() {
        return format!("the control character U+{:04X}", c as u32);
    }
    format!("`{c}`")
}

fn bracket_name(b: u8) -> &'static str {
    match b {
        b'(' => "(",
        b'[' => "[",
        _ => "{",
    }
}

/// Where pest stopped, as an offset into the source. Recovery repairs the
/// text here; the diagnostic may point elsewhere (a missing `;` is shown at
/// the end of the previous token).
pub(crate) fn error_offset(err: &pest::error::Error<Rule>, base: usize) -> usize {
    base + match err.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    }
}

/// Turns a pest error into one diagnostic in plain words. `base` is the
/// offset of the parsed text within the source.
pub(crate) fn syntax_error(
    err: &pest::error::Error<Rule>,
    base: usize,
    src: &str,
    lines: &LineIndex,
    pre: &Prescan,
) -> Diagnostic {
    let pos = error_offset(err, base);
    let span = lines.span(pos, (pos + 1).min(src.len()));
    let found = found_token(src, pos);
    let at_end = src.get(pos..).is_none_or(|rest| rest.trim().is_empty());

    // Unbalanced brackets explain most errors at the end of the file or at a
    // stray closing bracket better than any list of expectations.
    if at_end {
        if let Some(&(b, at)) = pre.unclosed.last() {
            let (line, _) = lines.line_col(at);
            return Diagnostic::error(span, format!("unclosed `{}` opened at line {line}", bracket_name(b)));
        }
    }
    if let Some((_, expected)) = pre.mismatched.iter().find(|(at, _)| *at == pos) {
        let msg = match expected {
            None => {
                let open = match src.as_bytes().get(pos) {
                    Some(b')') => "(",
                    Some(b']') => "[",
                    _ => "{",
                };
                format!("{found} has no matching `{open}`")
            }
            Some((b, at)) => {
                let (line, col) = lines.line_col(*at);
                let close = match b {
                    b'(' => ")",
                    b'[' => "]",
                    _ => "}",
                };
                format!(
                    "found {found}, but the `{}` opened at line {line}, column {col} must be closed first with `{close}`",
                    bracket_name(*b)
                )
            }
        };
        return Diagnostic::error(span, msg);
    }

    let positives: Vec<Rule> = match &err.variant {
        ErrorVariant::ParsingError { positives, .. } => positives.clone(),
        // pest's own guard (native targets): the program nests deeper than
        // the stack of this thread allows.
        ErrorVariant::CustomError { message } if message.contains("limit reached") => {
            return Diagnostic::error(span, "the program is nested too deeply to be parsed here (out of stack space)");
        }
        ErrorVariant::CustomError { message } => return Diagnostic::error(span, message.clone()),
    };
    if found == "`else`" {
        return Diagnostic::error(span, "`else` without an `if` before it");
    }
    let mut expected: Vec<(&'static str, Kind)> = Vec::new();
    // Where an operand could start, pest lists every kind of operand (a
    // name, a number, `sizeof`, ...): say "an expression" instead.
    let operand = positives.iter().any(|r| is_operand_start(*r));
    if operand {
        expected.push(("an expression", Kind::Construct));
    }
    for &r in &positives {
        if operand && (is_operand_start(r) || matches!(r, Rule::ident | Rule::typedef_name | Rule::keyword)) {
            continue;
        }
        if operand && describe(r).is_some_and(|(w, _)| matches!(w, "a declaration" | "a type" | "a block `{ ... }`")) {
            // `__extension__`, a cast `(int)` and a statement expression
            // `({ ... })` may start an operand too: all are "an expression".
            continue;
        }
        expected.extend(describe(r));
    }
    let best = expected.iter().map(|(_, k)| *k).max();
    if let Some(best) = best {
        // Operators are always possible after an operand: mention them only
        // when nothing more specific is expected.
        if best > Kind::Operator {
            expected.retain(|(_, k)| *k > Kind::Operator);
        }
    }
    // Once a name to declare or the end of the declaration may come, more
    // type words are possible but not what the student is missing.
    if positives.iter().any(|r| matches!(r, Rule::decl_semi | Rule::declarator | Rule::init_declarator)) {
        expected.retain(|(w, _)| !matches!(*w, "a type" | "a type name" | "`static`, `extern` or `typedef`"));
    }
    // After an expression statement, a name could only continue a declaration.
    if positives_have(&positives, Rule::expr_semi) {
        expected.retain(|(w, _)| *w != "a name");
    }
    // After `int x = 1` a block cannot follow (only after `int f()` can it).
    let before = pre.text.get(..pos).unwrap_or("").trim_end();
    if positives_have(&positives, Rule::decl_semi) && !before.ends_with(')') {
        expected.retain(|(w, _)| *w != "a block `{ ... }`");
    }
    let mut words: Vec<String> = Vec::new();
    for (w, _) in &expected {
        // Say which `(` a missing `)` would close.
        let w = match (*w, open_paren_before(&pre.text, pos)) {
            ("`)`", Some(at)) => {
                let (line, col) = lines.line_col(at);
                format!("`)` to close the `(` at line {line}, column {col}")
            }
            _ => w.to_string(),
        };
        if !words.contains(&w) {
            words.push(w);
        }
    }
    // A missing `;` belongs right after the previous token. When the next
    // token is on a later line, point at the end of the previous one (where
    // the student has to type the `;`) and say what follows, instead of
    // blaming the first token of the next line.
    let semicolon_only = !words.is_empty() && words.iter().all(|w| w.starts_with("`;`"));
    let prev_end = before.len();
    if semicolon_only && prev_end > 0 && lines.line_col(prev_end).0 < lines.line_col(pos).0 {
        let follows = if at_end { found.clone() } else { format!("{found} on line {}", lines.line_col(pos).0) };
        return Diagnostic::error(
            lines.span(prev_end, (prev_end + 1).min(src.len())),
            format!("expected {}, found {follows}", join_or(&words)) + &typo_hint(src, pos),
        );
    }
    let msg =
        if words.is_empty() { format!("unexpected {found}") } else { format!("expected {}, found {found}", join_or(&words)) };
    Diagnostic::error(span, msg + &typo_hint(src, pos))
}

fn positives_have(positives: &[Rule], rule: Rule) -> bool {
    positives.contains(&rule)
}

/// Rules that can only start an operand of an expression.
fn is_operand_start(rule: Rule) -> bool {
    use Rule::*;
    matches!(
        rule,
        int_lit
            | bad_float_lit
            | bad_number
            | char_lit
            | str_lit
            | str_lits
            | func_name
            | kw_sizeof
            | sizeof_op
            | sizeof_type
            | paren_expr
            | stmt_expr
            | cast
            | pre_inc
            | pre_dec
            | neg
            | plus
            | not
            | bit_not
            | address_of
            | deref
            | expr
            | expr_nc
    )
}

/// The innermost `(` still open at `pos` (within the current statement).
fn open_paren_before(text: &str, pos: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in text.as_bytes()[..pos.min(text.len())].iter().enumerate().rev() {
        match c {
            b')' => depth += 1,
            b'(' if depth == 0 => return Some(i),
            b'(' => depth -= 1,
            b';' | b'{' | b'}' => return None,
            _ => {}
        }
    }
    None
}

/// "a", "a or b", "a, b or c".
fn join_or(words: &[String]) -> String {
    match words {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// If the statement around `pos` starts with a misspelled keyword (`whlie`),
/// a hint naming it.
fn typo_hint(src: &str, pos: usize) -> String {
    // The word just before the error position (skipping blanks and a parenthesised part).
    let Some(head) = src.get(..pos.min(src.len())) else {
        return String::new();
    };
    let line_start = head.rfind(['\n', ';', '{', '}']).map(|i| i + 1).unwrap_or(0);
    let line = &head[line_start..];
    let first: String = line.trim_start().chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    const KEYWORDS: [&str; 12] =
        ["while", "for", "if", "else", "return", "switch", "break", "continue", "unsigned", "int", "goto", "default"];
    if first.len() < 3 || KEYWORDS.contains(&first.as_str()) {
        return String::new();
    }
    for kw in KEYWORDS {
        if is_typo(&first, kw) {
            return format!(" (is `{first}` a misspelled `{kw}`?)");
        }
    }
    String::new()
}

/// Whether `a` differs from `b` by one edit or one swap of neighbours.
fn is_typo(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.len() == b.len() {
        let diff: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
        return diff.len() == 1
            || (diff.len() == 2 && diff[1] == diff[0] + 1 && a[diff[0]] == b[diff[1]] && a[diff[1]] == b[diff[0]]);
    }
    let (short, long) = if a.len() < b.len() { (&a, &b) } else { (&b, &a) };
    if long.len() != short.len() + 1 {
        return false;
    }
    (0..long.len()).any(|skip| long.iter().enumerate().filter(|(i, _)| *i != skip).map(|(_, c)| c).eq(short.iter()))
}

/// How to resume after a syntax error inside a block: the byte range of the
/// statement around `pos` and what to put there (same length, so every
/// offset after it stays valid).
///
/// The range runs from the start of the statement (after the previous `;`,
/// `{` or `}` outside parentheses) through the next `;` outside parentheses,
/// or up to the next `{`/`}`. A broken header before a block (`if (x {`,
/// `whlie (x) {`) becomes `if(1)` so that the block, and an `else` after it,
/// still parse. `None` at top level, or when there is nothing to replace.
pub(crate) fn statement_repair(text: &str, pos: usize) -> Option<(usize, String)> {
    let b = text.as_bytes();
    let pos = pos.min(b.len());
    // The innermost `{` still open at `pos`.
    let mut depth = 0usize;
    let mut block = None;
    for i in (0..pos).rev() {
        match b[i] {
            b'}' => depth += 1,
            b'{' if depth == 0 => {
                block = Some(i);
                break;
            }
            b'{' => depth -= 1,
            _ => {}
        }
    }
    let block = block?;
    let (mut start, mut paren, mut brace) = (block + 1, 0usize, 0usize);
    for (i, &c) in b.iter().enumerate().take(pos).skip(block + 1) {
        match c {
            b'(' => paren += 1,
            b')' => paren = paren.saturating_sub(1),
            b'{' => brace += 1,
            b'}' => {
                brace = brace.saturating_sub(1);
                if brace == 0 && paren == 0 {
                    start = i + 1;
                }
            }
            b';' if paren == 0 && brace == 0 => start = i + 1,
            _ => {}
        }
    }
    let mut end = pos;
    let mut before_block = false;
    while end < b.len() {
        match b[end] {
            b'(' => paren += 1,
            b')' => paren = paren.saturating_sub(1),
            b';' if paren == 0 => {
                end += 1;
                break;
            }
            b'{' | b'}' => {
                before_block = b[end] == b'{';
                break;
            }
            _ => {}
        }
        end += 1;
    }
    let region = text.get(start..end)?;
    if region.trim().is_empty() {
        return None;
    }
    let mut replacement: Vec<u8> = region.bytes().map(|c| if c == b'\n' { b'\n' } else { b' ' }).collect();
    if before_block {
        // Keep an `else` in front, and turn a broken statement header into `if(1)`.
        let trimmed = region.trim_start();
        let lead = region.len() - trimmed.len();
        let (keep, rest) = match trimmed.strip_prefix("else") {
            Some(r) if !r.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') => (lead + 4, r),
            _ => (lead, trimmed),
        };
        let word: String = rest.trim_start().chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        let header = matches!(word.as_str(), "if" | "while" | "for" | "switch") || rest.trim_start().contains('(');
        replacement[..keep].copy_from_slice(&region.as_bytes()[..keep]);
        if header && region.len() - keep >= 6 {
            replacement[keep + 1..keep + 6].copy_from_slice(b"if(1)");
        }
    }
    let replacement = String::from_utf8(replacement).ok()?;
    Some((start, replacement))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_are_one_edit_or_swap() {
        assert!(is_typo("whlie", "while"));
        assert!(is_typo("retrun", "return"));
        assert!(is_typo("fr", "for"));
        assert!(!is_typo("main", "while"));
        assert!(!is_typo("x", "if"));
    }

    #[test]
    fn found_token_words() {
        assert_eq!(found_token("a += 1", 2), "`+=`");
        assert_eq!(found_token("whlie (x)", 0), "`whlie`");
        assert_eq!(found_token("x", 1), "the end of the file");
        assert_eq!(found_token("}", 0), "`}`");
    }

    #[test]
    fn statement_repair_replaces_the_broken_statement() {
        let text = "int main() {\n  int x = 1\n  int y;\n}";
        // The error is at the second `int`: both lines go, up to the `;`.
        let pos = text.find("int y").unwrap();
        let (start, rep) = statement_repair(text, pos).unwrap();
        assert_eq!(start, text.find('{').unwrap() + 1);
        assert_eq!(rep, "\n           \n        ");
        // A broken header before a block becomes `if(1)`, keeping `else`.
        let text = "int main() { if (x) { x; } else if (x { } }";
        let pos = text.find("(x {").unwrap() + 3;
        let (start, rep) = statement_repair(text, pos).unwrap();
        assert_eq!(&text[start..start + rep.len()], " else if (x ");
        assert_eq!(rep, " else if(1) ");
        // Nothing to repair at top level.
        assert_eq!(statement_repair("int x = ;", 8), None);
    }
}
