//! The student's previous programs: whenever something replaces the
//! editor's text wholesale — a share link or a gallery example opened, the
//! "Reset example" button, a program picked from this list — the text it
//! replaced is kept here (the newest [`KEEP`] of them, in local storage
//! under [`HISTORY_KEY`]), and the page offers to put it back
//! ([`Replaced`]). Typing in the editor is not a replacement: the editor
//! keeps its own undo history.

use serde::{Deserialize, Serialize};

/// The local-storage key of the kept programs.
pub const HISTORY_KEY: &str = "cpa-playground.previous-programs";

/// How many replaced programs are kept (the oldest is forgotten first).
pub const KEEP: usize = 5;

/// Longest program kept (bytes); a longer one is not kept, so the storage
/// cannot fill up with one paste.
pub const MAX_PROGRAM_BYTES: usize = 64 * 1024;

/// The kept programs, newest first, each at most once.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProgramHistory {
    /// The programs, newest first.
    pub programs: Vec<String>,
}

impl ProgramHistory {
    /// The history stored as `text`; anything unreadable is an empty one
    /// (the page works without it).
    pub fn from_text(text: &str) -> ProgramHistory {
        let mut h: ProgramHistory = serde_json::from_str(text).unwrap_or_default();
        h.programs.retain(|p| worth_keeping(p));
        h.programs.dedup();
        h.programs.truncate(KEEP);
        h
    }

    /// The text to store.
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Keeps `program` as the newest entry (moved to the front when it is
    /// already kept); blank or oversized programs are not kept. Returns
    /// whether it was kept.
    pub fn keep(&mut self, program: &str) -> bool {
        if !worth_keeping(program) {
            return false;
        }
        self.programs.retain(|p| p != program);
        self.programs.insert(0, program.to_string());
        self.programs.truncate(KEEP);
        true
    }

    /// The kept programs, newest first, with a one-line label each.
    pub fn entries(&self) -> impl Iterator<Item = (&str, String)> {
        self.programs.iter().map(|p| (p.as_str(), label(p)))
    }
}

/// Whether a program is worth keeping: not blank, not oversized.
fn worth_keeping(program: &str) -> bool {
    !program.trim().is_empty() && program.len() <= MAX_PROGRAM_BYTES
}

/// A one-line description of a program for a menu: its line count and
/// its first line that is not blank, a comment or a preprocessor line
/// (shortened), e.g. `14 lines · int main(void) {`.
pub fn label(program: &str) -> String {
    let lines = program.lines().count();
    let first = program
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with("//") && !l.starts_with("/*") && !l.starts_with('*') && !l.starts_with('#'))
        .unwrap_or("");
    let mut head: String = first.chars().take(40).collect();
    if first.chars().count() > 40 {
        head.push('…');
    }
    let noun = if lines == 1 { "line" } else { "lines" };
    format!("{lines} {noun} · {head}")
}

/// What replaced the student's program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplacedBy {
    /// A share link (or a gallery example, which opens as one) the page was
    /// opened with.
    Link,
    /// The "Reset example" button.
    ResetExample,
    /// A program picked from the kept ones.
    Picked,
}

/// A replacement the page tells the student about, with the way back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replaced {
    /// The program that was replaced (kept in the history).
    pub previous: String,
    /// What replaced it.
    pub by: ReplacedBy,
}

impl Replaced {
    /// The notice's sentence.
    pub fn message(&self) -> String {
        let what = match self.by {
            ReplacedBy::Link => "The opened link replaced your program",
            ReplacedBy::ResetExample => "Reset example replaced your program",
            ReplacedBy::Picked => "Your program was replaced by a previous one",
        };
        format!("{what} ({}). It is kept in this browser with your last {KEEP} replaced programs.", label(&self.previous))
    }
}

/// Replacing `current` by `next`: keeps `current` in `history` and returns
/// the notice to show, or `None` when nothing of the student's is lost
/// (same text, or nothing worth keeping).
pub fn replace(history: &mut ProgramHistory, current: &str, next: &str, by: ReplacedBy) -> Option<Replaced> {
    if current == next || !history.keep(current) {
        return None;
    }
    Some(Replaced { previous: current.to_string(), by })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_newest_replaced_program_comes_first_and_only_five_are_kept() {
        let mut h = ProgramHistory::default();
        for i in 0..7 {
            assert!(h.keep(&format!("int main(void) {{ return {i}; }}")));
        }
        assert_eq!(h.programs.len(), KEEP);
        assert!(h.programs[0].contains("return 6"));
        assert!(h.programs[4].contains("return 2"));
        // Keeping one again moves it to the front instead of doubling it.
        h.keep("int main(void) { return 4; }");
        assert_eq!(h.programs.len(), KEEP);
        assert!(h.programs[0].contains("return 4"));
        assert_eq!(h.programs.iter().filter(|p| p.contains("return 4")).count(), 1);
    }

    #[test]
    fn blank_or_huge_programs_are_not_kept() {
        let mut h = ProgramHistory::default();
        assert!(!h.keep("  \n\t"));
        assert!(!h.keep(&"x".repeat(MAX_PROGRAM_BYTES + 1)));
        assert!(h.programs.is_empty());
    }

    #[test]
    fn the_history_round_trips_and_garbage_reads_as_empty() {
        let mut h = ProgramHistory::default();
        h.keep("int a;\nint main(void) { return a; }");
        assert_eq!(ProgramHistory::from_text(&h.to_text()), h);
        for bad in ["", "[", "{\"programs\": 3}", "null", "\u{0}"] {
            assert_eq!(ProgramHistory::from_text(bad), ProgramHistory::default(), "{bad:?}");
        }
        let long = format!("{{\"programs\": [{}]}}", ["\"p\""; 9].join(","));
        assert_eq!(ProgramHistory::from_text(&long).programs, vec!["p".to_string()], "duplicates and excess dropped");
    }

    #[test]
    fn a_replacement_keeps_the_old_text_and_says_what_replaced_it() {
        let mut h = ProgramHistory::default();
        let mine = "// my work\n#include <stdio.h>\nint main(void) {\n  return 0;\n}\n";
        let r = replace(&mut h, mine, "int main(void) { return 1; }", ReplacedBy::Link).expect("replaced");
        assert_eq!(r.previous, mine);
        assert_eq!(h.programs, vec![mine.to_string()]);
        assert!(r.message().starts_with("The opened link replaced your program (5 lines · int main(void) {)"), "{}", r.message());
        // The same text, or an empty editor, is not a loss.
        assert_eq!(replace(&mut h, "same", "same", ReplacedBy::ResetExample), None);
        assert_eq!(replace(&mut h, "", "int main(void) { return 1; }", ReplacedBy::ResetExample), None);
        assert_eq!(h.programs.len(), 1);
    }

    #[test]
    fn labels_name_the_first_line_of_code_shortened() {
        assert_eq!(label("int x;"), "1 line · int x;");
        let long = format!("int {} = 0;", "v".repeat(60));
        assert!(label(&long).ends_with('…'));
        assert_eq!(label("/* only a comment */"), "1 line · ");
    }
}
