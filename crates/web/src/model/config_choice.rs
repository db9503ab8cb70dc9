//! A configuration named as a preset with option overrides:
//! `symbolic[solver.theory=INTEGER]` is the `symbolic` preset (its CPAs,
//! merge and stop operators) with one option of the configuration table
//! changed. The gallery's front matter and the compare view name
//! configurations this way, so an example can compare two settings of one
//! analysis (the SMT theory of symbolic execution) side by side.
//!
//! Syntax: `PRESET` or `PRESET[key=value, key=value]`; keys and values are
//! checked against the engine's option table (`engine::Config::set`), so a
//! misspelt key or value is a located message, never a run that silently
//! does something else. An override that makes the analysis unsound on
//! purpose (an INTEGER theory under C's integers) is named by
//! [`ConfigChoice::unsound_by_choice`], so the page can label it.
//!
//! Plain Rust, tested natively.

use minic::IntModel;

use crate::model::analysis::RunSpec;

/// A preset and the options that override it, in the order written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigChoice {
    /// The preset the configuration starts from.
    pub preset: String,
    /// `(key, value)` pairs applied on top of the preset.
    pub overrides: Vec<(String, String)>,
}

/// Why a configuration name cannot be read: the 1-based column in the
/// text and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChoiceError {
    /// The 1-based character column in the configuration name.
    pub column: usize,
    /// What is wrong, in words.
    pub message: String,
}

impl std::fmt::Display for ChoiceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "column {}: {}", self.column, self.message)
    }
}

/// Reads `PRESET` or `PRESET[key=value, …]` and checks the preset, every
/// key and every value against the engine's configuration table.
pub fn parse(text: &str) -> Result<ConfigChoice, ChoiceError> {
    let err = |column: usize, message: String| Err(ChoiceError { column, message });
    let text_trimmed = text.trim_end();
    let (preset, inner, inner_at) = match text_trimmed.find('[') {
        None => (text_trimmed, None, 0),
        Some(open) => {
            let Some(body) = text_trimmed[open + 1..].strip_suffix(']') else {
                return err(text_trimmed.chars().count() + 1, "the option list opened by `[` is not closed by `]`".into());
            };
            (&text_trimmed[..open], Some(body), open + 1)
        }
    };
    let lead = preset.len() - preset.trim_start().len();
    let preset = preset.trim();
    if preset.is_empty() {
        return err(1, "no preset is named before the options".into());
    }
    let mut config = match engine::Config::preset(preset) {
        Ok(c) => c,
        Err(_) => return err(lead + 1, format!("`{preset}` is not a preset")),
    };
    let mut overrides = Vec::new();
    if let Some(body) = inner {
        if body.trim().is_empty() {
            return err(inner_at + 1, "`[]` names no option; leave the brackets out".into());
        }
        let mut at = inner_at;
        for item in body.split(',') {
            let column = at + (item.len() - item.trim_start().len()) + 1;
            at += item.len() + 1;
            let item = item.trim();
            let Some((key, value)) = item.split_once('=') else {
                return err(column, format!("expected `key=value`, found `{item}`"));
            };
            let (key, value) = (key.trim(), value.trim());
            if key == "analysis.intModel" {
                return err(column, "the integer model is the example's `int-model`, not an option override".into());
            }
            if let Err(e) = config.set(key, value) {
                return err(column, e.message);
            }
            overrides.push((key.to_string(), value.to_string()));
        }
    }
    Ok(ConfigChoice { preset: preset.to_string(), overrides })
}

impl ConfigChoice {
    /// The canonical name (`symbolic[solver.theory=INTEGER]`, or just the
    /// preset): what the compare view and share links carry.
    pub fn name(&self) -> String {
        if self.overrides.is_empty() {
            return self.preset.clone();
        }
        let pairs: Vec<String> = self.overrides.iter().map(|(k, v)| format!("{k}={v}")).collect();
        format!("{}[{}]", self.preset, pairs.join(","))
    }

    /// The name in words for the page: `symbolic with solver.theory = INTEGER`.
    pub fn readable(&self) -> String {
        if self.overrides.is_empty() {
            return self.preset.clone();
        }
        let pairs: Vec<String> = self.overrides.iter().map(|(k, v)| format!("{k} = {v}")).collect();
        format!("{} with {}", self.preset, pairs.join(", "))
    }

    /// The configuration text the run uses: the preset included, then one
    /// line per override (`None` for a plain preset).
    pub fn properties(&self) -> Option<String> {
        (!self.overrides.is_empty()).then(|| {
            self.overrides.iter().fold(crate::model::config_panel::preset_text(&self.preset), |text, (k, v)| {
                crate::model::config_panel::set(&text, k, v)
            })
        })
    }

    /// What to run: the whole name as the run's label, the overrides as its
    /// properties text.
    pub fn run_spec(&self, int_model: IntModel, max_steps: u64) -> RunSpec {
        RunSpec { preset: self.name(), int_model, max_steps, properties: self.properties() }
    }

    /// Why this configuration is unsound on purpose under `int_model`, if it
    /// is: an INTEGER theory ignores C's wrap-around, so a TRUE may be wrong.
    pub fn unsound_by_choice(&self, int_model: IntModel) -> Option<&'static str> {
        let integer = self.overrides.iter().any(|(k, v)| k == "solver.theory" && v.eq_ignore_ascii_case("INTEGER"));
        (integer && int_model == IntModel::C).then_some(
            "unsound by choice: unbounded integers ignore C's overflow, so a TRUE may be wrong (for teaching the theory choice)",
        )
    }
}

/// Whether the configuration `text` (a preset, possibly with option
/// overrides) asks an SMT solver under `int_model`
/// ([`RunSpec::uses_solver`]); text that does not parse does not.
pub fn uses_solver(text: &str, int_model: IntModel) -> bool {
    parse(text).is_ok_and(|c| c.run_spec(int_model, 0).uses_solver())
}

/// The run for a compare-set entry: a plain preset as before, a preset
/// with overrides through its properties text (errors are the parser's,
/// with the name).
pub fn run_spec_of(name: &str, int_model: IntModel, max_steps: u64) -> Result<RunSpec, String> {
    parse(name).map(|c| c.run_spec(int_model, max_steps)).map_err(|e| format!("configuration `{name}`: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_preset_has_no_overrides() {
        let c = parse("symbolic").unwrap();
        assert_eq!(c, ConfigChoice { preset: "symbolic".into(), overrides: vec![] });
        assert_eq!(c.name(), "symbolic");
        assert_eq!(c.properties(), None);
        assert_eq!(c.unsound_by_choice(IntModel::C), None);
    }

    #[test]
    fn overrides_are_read_checked_and_applied() {
        let c = parse("symbolic[solver.theory=INTEGER, limits.steps = 40]").unwrap();
        assert_eq!(c.overrides, vec![("solver.theory".into(), "INTEGER".into()), ("limits.steps".into(), "40".into())]);
        assert_eq!(c.name(), "symbolic[solver.theory=INTEGER,limits.steps=40]");
        assert_eq!(parse(&c.name()).unwrap(), c, "the canonical name reads back");
        assert_eq!(c.readable(), "symbolic with solver.theory = INTEGER, limits.steps = 40");
        let spec = c.run_spec(IntModel::C, 100);
        assert_eq!(spec.preset, c.name());
        let config = spec.config().unwrap();
        assert_eq!(config.get("solver.theory"), "INTEGER");
        assert!(config.cpas().iter().any(|p| p == "cpa.constraints.ConstraintsCPA"), "still the symbolic preset");
        assert!(c.unsound_by_choice(IntModel::C).is_some());
        assert_eq!(c.unsound_by_choice(IntModel::Math), None, "INTEGER is exact for mathematical integers");
        assert_eq!(parse("symbolic[solver.theory=BITVECTOR]").unwrap().unsound_by_choice(IntModel::C), None);
    }

    #[test]
    fn bad_names_are_located() {
        let cases: &[(&str, usize, &str)] = &[
            ("nope[solver.theory=INTEGER]", 1, "`nope` is not a preset"),
            ("symbolic[solver.theory=INTEGER", 31, "not closed"),
            ("symbolic[solver.theory]", 10, "expected `key=value`"),
            ("symbolic[solver.theory=INTEGER, solver.thoery=X]", 33, "solver.thoery"),
            ("symbolic[solver.theory=REAL]", 10, "REAL"),
            ("symbolic[]", 10, "names no option"),
            ("[solver.theory=INTEGER]", 1, "no preset"),
            ("symbolic[analysis.intModel=MATH]", 10, "int-model"),
        ];
        for (text, column, message) in cases {
            let e = parse(text).unwrap_err();
            assert_eq!(e.column, *column, "{text}: {e}");
            assert!(e.message.contains(message), "{text}: {e}");
        }
        assert!(run_spec_of("symbolic[x=1]", IntModel::C, 10)
            .unwrap_err()
            .starts_with("configuration `symbolic[x=1]`: column 10"));
    }
}
