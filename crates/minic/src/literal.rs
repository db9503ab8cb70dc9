//! Values and types of literals.
//!
//! Integer literals get their type from C11 6.4.4.1 under ILP32: the first
//! type of the suffix's list in which the value fits; decimal literals without
//! `u` never become unsigned, hex and octal ones may.

use crate::types::IntType;

/// Value and type of an integer literal such as `42`, `0x1Fu`, `017L`.
pub fn int_literal(text: &str) -> Result<(u128, IntType), String> {
    let lower = text.to_ascii_lowercase();
    let digits_end = lower.trim_end_matches(['u', 'l']).len();
    let (body, suffix) = lower.split_at(digits_end);
    let (radix, digits) = if let Some(hex) = body.strip_prefix("0x") {
        (16, hex)
    } else if body.len() > 1 && body.starts_with('0') {
        (8, &body[1..])
    } else {
        (10, body)
    };
    if radix == 8 {
        if let Some(bad) = digits.chars().find(|c| !('0'..='7').contains(c)) {
            return Err(format!("invalid digit `{bad}` in the octal number `{text}`"));
        }
    }
    let too_large = || format!("the number `{text}` is too large (mini-C integers have at most 64 bits)");
    let mut value: u128 = 0;
    for c in digits.chars() {
        let d = c.to_digit(radix).ok_or_else(|| format!("`{text}` is not a valid number"))? as u128;
        value = value.checked_mul(radix as u128).and_then(|v| v.checked_add(d)).ok_or_else(too_large)?;
        if value > u64::MAX as u128 {
            return Err(too_large());
        }
    }
    let unsigned = suffix.contains('u');
    let longs = suffix.matches('l').count();
    // `lL` is not a valid suffix: `ll` must be written in one case.
    if longs == 2 && !(text.contains("ll") || text.contains("LL")) {
        return Err(format!("`{text}` has an invalid suffix"));
    }
    use IntType::*;
    let candidates: &[IntType] = match (unsigned, longs, radix == 10) {
        (false, 0, true) => &[Int, Long, LongLong],
        (false, 0, false) => &[Int, UInt, Long, ULong, LongLong, ULongLong],
        (true, 0, _) => &[UInt, ULong, ULongLong],
        (false, 1, true) => &[Long, LongLong],
        (false, 1, false) => &[Long, ULong, LongLong, ULongLong],
        (true, 1, _) => &[ULong, ULongLong],
        (false, _, true) => &[LongLong],
        (false, _, false) => &[LongLong, ULongLong],
        (true, _, _) => &[ULongLong],
    };
    candidates.iter().find(|t| value as i128 <= t.max_value()).map(|t| (value, *t)).ok_or_else(too_large)
}

/// Value of a character literal such as `'a'`, `'\n'`, `'\x41'`, `'\0'`
/// (its type is `int`).
pub fn char_literal(text: &str) -> Result<u128, String> {
    let body = text.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')).unwrap_or(text);
    let decoded = unescape(body)?;
    match decoded.as_slice() {
        [v] => Ok(*v as u128),
        [] => Err("empty character literal `''`".to_string()),
        _ => Err(format!("the character literal {text} has more than one character")),
    }
}

/// The text of a string literal `"..."` with escapes decoded.
pub fn string_literal(text: &str) -> Result<String, String> {
    let body = text.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or(text);
    let bytes = unescape(body)?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Decodes C escape sequences into bytes.
fn unescape(body: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            let mut buf = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            continue;
        }
        let Some(e) = chars.next() else {
            return Err("a lone `\\` at the end of a literal".to_string());
        };
        let v: u32 = match e {
            'n' => 10,
            't' => 9,
            'r' => 13,
            'a' => 7,
            'b' => 8,
            'f' => 12,
            'v' => 11,
            'e' => 27,
            '\\' => '\\' as u32,
            '\'' => '\'' as u32,
            '"' => '"' as u32,
            '?' => '?' as u32,
            '0'..='7' => {
                let mut v = e.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match chars.peek().and_then(|c| c.to_digit(8)) {
                        Some(d) => {
                            v = v * 8 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                v
            }
            'x' => {
                let mut v: u32 = 0;
                let mut n = 0;
                while let Some(d) = chars.peek().and_then(|c| c.to_digit(16)) {
                    v = v.saturating_mul(16).saturating_add(d);
                    n += 1;
                    chars.next();
                }
                if n == 0 {
                    return Err("`\\x` must be followed by hexadecimal digits".to_string());
                }
                v
            }
            other => return Err(format!("unknown escape sequence `\\{other}`")),
        };
        if v > 255 {
            return Err("escape sequence out of range (at most 255)".to_string());
        }
        out.push(v as u8);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use IntType::*;

    #[test]
    fn integer_literal_types_follow_c11_in_ilp32() {
        assert_eq!(int_literal("42"), Ok((42, Int)));
        assert_eq!(int_literal("2147483647"), Ok((2147483647, Int)));
        assert_eq!(int_literal("2147483648"), Ok((2147483648, LongLong)));
        assert_eq!(int_literal("0x80000000"), Ok((0x80000000, UInt)));
        assert_eq!(int_literal("0xffffffff"), Ok((0xffffffff, UInt)));
        assert_eq!(int_literal("0x100000000"), Ok((0x100000000, LongLong)));
        assert_eq!(int_literal("0xFFFFFFFFFFFFFFFF"), Ok((u64::MAX as u128, ULongLong)));
        assert_eq!(int_literal("017"), Ok((15, Int)));
        assert_eq!(int_literal("0"), Ok((0, Int)));
        assert_eq!(int_literal("10u"), Ok((10, UInt)));
        assert_eq!(int_literal("10UL"), Ok((10, ULong)));
        assert_eq!(int_literal("10l"), Ok((10, Long)));
        assert_eq!(int_literal("10LL"), Ok((10, LongLong)));
        assert_eq!(int_literal("10ull"), Ok((10, ULongLong)));
        assert_eq!(int_literal("4294967296u"), Ok((4294967296, ULongLong)));
        assert_eq!(int_literal("09"), Err("invalid digit `9` in the octal number `09`".to_string()));
        assert_eq!(
            int_literal("18446744073709551616"),
            Err("the number `18446744073709551616` is too large (mini-C integers have at most 64 bits)".to_string())
        );
        assert_eq!(
            int_literal("9223372036854775808"),
            Err("the number `9223372036854775808` is too large (mini-C integers have at most 64 bits)".to_string())
        );
    }

    #[test]
    fn character_literals_decode_escapes() {
        assert_eq!(char_literal("'a'"), Ok(97));
        assert_eq!(char_literal("'\\n'"), Ok(10));
        assert_eq!(char_literal("'\\0'"), Ok(0));
        assert_eq!(char_literal("'\\x41'"), Ok(65));
        assert_eq!(char_literal("'\\101'"), Ok(65));
        assert_eq!(char_literal("'\\''"), Ok(39));
        assert_eq!(char_literal("'ab'"), Err("the character literal 'ab' has more than one character".to_string()));
        assert_eq!(char_literal("'\\q'"), Err("unknown escape sequence `\\q`".to_string()));
        assert_eq!(string_literal("\"a\\tb\""), Ok("a\tb".to_string()));
    }
}
