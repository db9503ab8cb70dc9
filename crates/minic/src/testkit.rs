//! Helpers for tests that mutate source text (the fuzz targets of this
//! crate and of `exercises`); not used by the front end itself.

/// `text` cut into the pieces an editor's tokenizer sees: runs of characters
/// for which `word` holds, runs of characters for which `blank` holds, and
/// every other character alone. The pieces concatenate back to `text`.
///
/// ```
/// use minic::testkit::runs;
/// let word = |c: char| c.is_alphanumeric() || c == '_';
/// assert_eq!(runs("x1 =  0;", word, |c| c == ' '), ["x1", " ", "=", "  ", "0", ";"]);
/// ```
pub fn runs(text: &str, word: impl Fn(char) -> bool, blank: impl Fn(char) -> bool) -> Vec<String> {
    // 0: a word character, 1: a blank, 2: anything else (never joined).
    let kind = |c: char| {
        if word(c) {
            0
        } else if blank(c) {
            1
        } else {
            2
        }
    };
    let mut out: Vec<String> = Vec::new();
    for c in text.chars() {
        match out.last_mut() {
            Some(last) if kind(c) < 2 && last.chars().next().map(kind) == Some(kind(c)) => last.push(c),
            _ => out.push(c.to_string()),
        }
    }
    out
}
