//! The configuration panel without any browser: the form (which CPAs,
//! merge operator, only at loop heads, waitlist order, precision, CEGAR,
//! state limit) and the equivalent properties text, kept in sync both ways.
//!
//! The text is the truth. [`PanelValues::read`] parses it with the engine's
//! own parser ([`engine::Config::parse`], `#include`s of the presets
//! resolved) and reads each field's effective value; a form change
//! ([`Change`]) becomes an edit of the text ([`apply`]): the last
//! `key = value` line of that key is rewritten in place, or a line is
//! appended (a later line overrides an `#include`d one, as in CPAchecker),
//! so comments and the student's own lines survive. A panel starts from a
//! preset as `#include <preset>.properties` ([`preset_text`]).
//!
//! The stop operator is stop^sep in every configuration but symbolic
//! execution's, which needs stop^never (every path on its own, the ARG a
//! tree); the panel shows which one and sets it with the domain rather
//! than offering a choice that would only be refused. The
//! integer model and the step limit stay in the analysis chooser (they
//! override the text, as the CLI's `--int-model`/`--max-steps` do).
//!
//! Plain Rust, tested natively.

use engine::Config;

/// The component CPAs next to Location and Callstack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Domain {
    /// Explicit values (`cpa.value.ValueAnalysisCPA`).
    Value,
    /// Octagons (`cpa.octagon.OctagonCPA`).
    Octagon,
    /// Symbolic values + path constraints (`SymbolicValueCPA`, `ConstraintsCPA`; Z3).
    Symbolic,
    /// Predicate analysis (`cpa.predicate.PredicateCPA`; Z3): its own
    /// options are the form's predicate group ([`PanelValues::predicate`]).
    Predicate,
    /// Symbolic execution (`cpa.symexec.SymExecCPA`; Z3) with stop^never,
    /// optionally with implicit predicate abstraction: its options are the
    /// form's symbolic-execution group ([`PanelValues::symexec`]).
    SymExec,
    /// Any other combination (written by hand in the text).
    Other,
}

impl Domain {
    /// The five the form offers, with their labels.
    pub const CHOICES: [(Domain, &'static str); 5] = [
        (Domain::Value, "values"),
        (Domain::Octagon, "octagons"),
        (Domain::Symbolic, "symbolic + constraints (Z3)"),
        (Domain::Predicate, "predicates (Z3)"),
        (Domain::SymExec, "symbolic execution tree (Z3)"),
    ];

    /// `CompositeCPA.cpas` for this choice.
    pub fn cpas(self) -> Option<&'static str> {
        match self {
            Domain::Value => Some("cpa.location.LocationCPA, cpa.callstack.CallstackCPA, cpa.value.ValueAnalysisCPA"),
            Domain::Octagon => Some("cpa.location.LocationCPA, cpa.callstack.CallstackCPA, cpa.octagon.OctagonCPA"),
            Domain::Symbolic => Some(
                "cpa.location.LocationCPA, cpa.callstack.CallstackCPA, cpa.value.symbolic.SymbolicValueCPA, cpa.constraints.ConstraintsCPA",
            ),
            Domain::Predicate => Some("cpa.location.LocationCPA, cpa.callstack.CallstackCPA, cpa.predicate.PredicateCPA"),
            Domain::SymExec => Some("cpa.location.LocationCPA, cpa.callstack.CallstackCPA, cpa.symexec.SymExecCPA"),
            Domain::Other => None,
        }
    }

    /// Whether the form's generic merge and precision choices apply (the
    /// value and octagon CPAs; symbolic execution has none, predicate
    /// analysis its own group).
    pub fn has_merge_and_precision(self) -> bool {
        matches!(self, Domain::Value | Domain::Octagon)
    }

    /// A short name for the form's value attribute.
    pub fn name(self) -> &'static str {
        match self {
            Domain::Value => "value",
            Domain::Octagon => "octagon",
            Domain::Symbolic => "symbolic",
            Domain::Predicate => "predicate",
            Domain::SymExec => "symexec",
            Domain::Other => "other",
        }
    }

    /// The choice named `name`.
    pub fn from_name(name: &str) -> Domain {
        Domain::CHOICES.iter().map(|(d, _)| *d).find(|d| d.name() == name).unwrap_or(Domain::Other)
    }
}

/// What the form shows, read from the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PanelValues {
    /// Which CPAs.
    pub domain: Domain,
    /// `SEP`, `JOIN` or `WIDENING` (the merge of the chosen domain; widening
    /// only for octagons).
    pub merge: String,
    /// Octagons: merge only at loop heads.
    pub only_loop_heads: bool,
    /// `DFS` or `BFS`.
    pub order: String,
    /// Reverse postorder first.
    pub reverse_postorder: bool,
    /// `FULL` (static) or `EMPTY` (refined by CEGAR).
    pub precision: String,
    /// CEGAR on.
    pub cegar: bool,
    /// `limits.states` (0: none).
    pub max_states: u64,
    /// The stages of a sequential combination (`restartAlgorithm.configFiles`),
    /// empty for a single configuration: stages are whole configurations,
    /// which the form cannot compose (they are edited as text).
    pub stages: String,
    /// Predicate analysis: every `cpa.predicate.*` option of the engine
    /// with its effective value (empty for the other domains).
    pub predicate: Vec<OptionField>,
    /// The composite's stop operator (`SEP`, or `NEVER` for symbolic
    /// execution).
    pub stop: String,
    /// Symbolic execution: every `symexec.*` option of the engine with its
    /// effective value (empty for the other domains).
    pub symexec: Vec<OptionField>,
}

/// One engine option as a form field: its key, effective value, what it
/// may be and what it means (the engine's option table).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionField {
    /// The property key (`cpa.predicate.merge`).
    pub key: &'static str,
    /// The field's label: the key without its `cpa.predicate.` prefix.
    pub label: &'static str,
    /// The effective value (set in the text or the default).
    pub value: String,
    /// `None`: a checkbox (`true`/`false`) or a number; `Some`: the words
    /// a select offers.
    pub choices: Option<&'static [&'static str]>,
    /// Whether it is a number (`UInt`).
    pub number: bool,
    /// What the option means (the tooltip).
    pub doc: &'static str,
}

/// The prefix of predicate analysis' options.
pub const PREDICATE_PREFIX: &str = "cpa.predicate.";

/// The prefix of symbolic execution's options.
pub const SYMEXEC_PREFIX: &str = "symexec.";

/// The options of a configuration whose key starts with `prefix`, in the
/// engine's order, labelled without the prefix.
fn option_fields(c: &Config, prefix: &str) -> Vec<OptionField> {
    use engine::config::OptionType;
    engine::config::OPTIONS
        .iter()
        .filter_map(|o| {
            let label = o.key.strip_prefix(prefix)?;
            let (choices, number) = match o.ty {
                OptionType::Bool => (None, false),
                OptionType::UInt => (None, true),
                OptionType::Enum(words) => (Some(words), false),
                _ => return None,
            };
            Some(OptionField { key: o.key, label, value: c.get(o.key).to_string(), choices, number, doc: o.doc })
        })
        .collect()
}

/// One form change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// Which CPAs.
    Domain(Domain),
    /// The merge operator (`SEP`, `JOIN`, `WIDENING`).
    Merge(String),
    /// Merge only at loop heads.
    OnlyLoopHeads(bool),
    /// `DFS` or `BFS`.
    Order(String),
    /// Reverse postorder first.
    ReversePostorder(bool),
    /// `FULL` or `EMPTY`.
    Precision(String),
    /// CEGAR.
    Cegar(bool),
    /// `limits.states`.
    MaxStates(u64),
    /// A predicate-analysis option (`cpa.predicate.*`) and its new value.
    PredicateOption(String, String),
    /// A symbolic-execution option (`symexec.*`) and its new value.
    SymExecOption(String, String),
}

/// The text a panel starts from for a preset.
pub fn preset_text(preset: &str) -> String {
    format!("# Start: the `{preset}` preset. Lines below override it.\n#include {preset}.properties\n")
}

fn merge_key(domain: Domain) -> &'static str {
    if domain == Domain::Value {
        "cpa.value.merge"
    } else {
        "cpa.octagon.mergeop.type"
    }
}

fn precision_key(domain: Domain) -> &'static str {
    if domain == Domain::Value {
        "cpa.value.precision"
    } else {
        "cpa.octagon.precision"
    }
}

impl PanelValues {
    /// Parses the text and reads the form's fields; an error names the
    /// line that is wrong (the engine's message).
    pub fn read(text: &str) -> Result<PanelValues, String> {
        let c = Config::parse(text, "panel.properties").map_err(|e| e.message)?;
        Ok(PanelValues::of(&c))
    }

    /// The form's fields of a parsed configuration.
    pub fn of(c: &Config) -> PanelValues {
        let cpas = c.cpas();
        let has = |n: &str| cpas.iter().any(|x| x == n);
        let domain = Domain::CHOICES
            .iter()
            .map(|(d, _)| *d)
            .find(|d| d.cpas().is_some_and(|list| list.split(", ").all(has) && cpas.len() == list.split(", ").count()))
            .unwrap_or(Domain::Other);
        PanelValues {
            domain,
            merge: c.get(merge_key(domain)).to_string(),
            only_loop_heads: c.get("cpa.octagon.mergeop.onlyMergeAtLoopHeads") == "true",
            order: c.get("analysis.traversal.order").to_string(),
            reverse_postorder: c.get("analysis.traversal.useReversePostorder") == "true",
            precision: c.get(precision_key(domain)).to_string(),
            cegar: c.get("analysis.algorithm.CEGAR") == "true",
            max_states: c.get("limits.states").parse().unwrap_or(0),
            stages: c.get("restartAlgorithm.configFiles").to_string(),
            predicate: if domain == Domain::Predicate { option_fields(c, PREDICATE_PREFIX) } else { Vec::new() },
            stop: c.get("cpa.composite.stop").to_string(),
            symexec: if domain == Domain::SymExec { option_fields(c, SYMEXEC_PREFIX) } else { Vec::new() },
        }
    }
}

/// What the panel says about its text as a configuration: `Err` with the
/// parse error (the form cannot be used), or the validation problems the
/// engine finds in it alone ([`engine::validate::problems`], errors that
/// refuse a run) and the options that have no effect
/// ([`engine::validate::warnings`]). The program-dependent checks (calls need
/// the Callstack CPA) run when Analyze is pressed ([`crate::model::analysis::Run::start`]).
pub fn check(text: &str) -> Result<Checked, String> {
    let c = Config::parse(text, "panel.properties").map_err(|e| e.message)?;
    Ok(Checked {
        errors: engine::validate::problems(&c).into_iter().map(|e| e.message).collect(),
        warnings: engine::validate::warnings(&c),
    })
}

/// The validation result of a parsed panel text ([`check`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    /// Problems that refuse a run (`panel.properties:3: ...`).
    pub errors: Vec<String>,
    /// Options set without effect (the run still starts).
    pub warnings: Vec<String>,
}

/// Sets `key = value` in `text`: the last line that sets `key` is rewritten
/// in place (its indentation kept), otherwise the line is appended.
pub fn set(text: &str, key: &str, value: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let sets_key = |l: &str| {
        let t = l.trim_start();
        !t.starts_with('#') && !t.starts_with("//") && t.split_once('=').is_some_and(|(k, _)| k.trim() == key)
    };
    match lines.iter().rposition(|l| sets_key(l)) {
        Some(i) => {
            let indent: String = lines[i].chars().take_while(|c| c.is_whitespace()).collect();
            lines[i] = format!("{indent}{key} = {value}");
        }
        None => lines.push(format!("{key} = {value}")),
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// The text after a form change. Switching domains also keeps the merge
/// operator meaningful (widening exists only for octagons).
pub fn apply(text: &str, change: &Change) -> Result<String, String> {
    let now = PanelValues::read(text)?;
    let out = match change {
        Change::Domain(d) => {
            let Some(list) = d.cpas() else { return Ok(text.to_string()) };
            let mut t = set(text, "CompositeCPA.cpas", list);
            if *d == Domain::Value && now.merge == "WIDENING" {
                t = set(&t, "cpa.value.merge", "JOIN");
            }
            // Symbolic execution needs stop^never (its tree); every other
            // CPA stop^sep.
            let stop = if *d == Domain::SymExec { "NEVER" } else { "SEP" };
            if now.stop != stop {
                t = set(&t, "cpa.composite.stop", stop);
            }
            t
        }
        Change::Merge(m) => {
            if now.domain == Domain::Value && m == "WIDENING" {
                return Err("widening is an octagon operator; the value analysis merges with SEP or JOIN".into());
            }
            set(text, merge_key(now.domain), m)
        }
        Change::OnlyLoopHeads(b) => set(text, "cpa.octagon.mergeop.onlyMergeAtLoopHeads", &b.to_string()),
        Change::Order(o) => set(text, "analysis.traversal.order", o),
        Change::ReversePostorder(b) => set(text, "analysis.traversal.useReversePostorder", &b.to_string()),
        Change::Precision(p) => set(text, precision_key(now.domain), p),
        Change::Cegar(b) => set(text, "analysis.algorithm.CEGAR", &b.to_string()),
        Change::MaxStates(n) => set(text, "limits.states", &n.to_string()),
        Change::PredicateOption(key, value) => {
            if !key.starts_with(PREDICATE_PREFIX) || engine::config::option(key).is_none() {
                return Err(format!("{key} is not a predicate-analysis option"));
            }
            set(text, key, value)
        }
        Change::SymExecOption(key, value) => {
            if !key.starts_with(SYMEXEC_PREFIX) || engine::config::option(key).is_none() {
                return Err(format!("{key} is not a symbolic-execution option"));
            }
            set(text, key, value)
        }
    };
    // The engine checks the result (an illegal value never reaches a run).
    PanelValues::read(&out)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::analysis::PRESETS;

    #[test]
    fn every_preset_reads_into_the_form() {
        let mut checked = 0;
        for (name, _) in PRESETS {
            let v = PanelValues::read(&preset_text(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
            // A sequential combination names whole configurations per stage;
            // its own CPA keys are the defaults, edited as text only.
            if !v.stages.is_empty() {
                assert_eq!(*name, "octagon-seq-widening-cegar");
                continue;
            }
            checked += 1;
            // BAM presets read as their analysis; value ∥ predicate is a
            // composite the form has no choice for (edited as text).
            let base = name.strip_prefix("bam-").unwrap_or(name);
            let expect = if *name == "bam-value-predicate" {
                Domain::Other
            } else if base.starts_with("value") {
                Domain::Value
            } else if base.starts_with("octagon") {
                Domain::Octagon
            } else if base.starts_with("predicate") {
                Domain::Predicate
            } else if name.starts_with("symexec") {
                Domain::SymExec
            } else if name.starts_with("transform") {
                // The explorer of a transformed program is not a composite
                // of the form's domains: its options are edited as text.
                Domain::Other
            } else {
                Domain::Symbolic
            };
            assert_eq!(v.domain, expect, "{name}");
        }
        assert_eq!(checked, PRESETS.len() - 1, "only the restart preset is text-only");
        let w = PanelValues::read(&preset_text("octagon-widening")).unwrap();
        assert_eq!(w.merge, "WIDENING");
        assert_eq!(PanelValues::read(&preset_text("octagon-join")).unwrap().merge, "JOIN");
        assert_eq!(PanelValues::read(&preset_text("value-join")).unwrap().merge, "JOIN");
    }

    #[test]
    fn predicate_analysis_offers_its_options_as_one_group() {
        let v = PanelValues::read(&preset_text("predicate")).unwrap();
        assert_eq!(v.domain, Domain::Predicate);
        assert!(!v.domain.has_merge_and_precision());
        let keys: Vec<&str> = v.predicate.iter().map(|f| f.key).collect();
        // Every cpa.predicate.* option of the engine, nothing else.
        let engine_keys: Vec<&str> =
            engine::config::OPTIONS.iter().map(|o| o.key).filter(|k| k.starts_with(PREDICATE_PREFIX)).collect();
        assert_eq!(keys, engine_keys);
        let field = |v: &PanelValues, label: &str| v.predicate.iter().find(|f| f.label == label).unwrap().clone();
        assert_eq!(field(&v, "abstraction.cartesian").value, "false");
        assert_eq!(field(&v, "merge").choices, Some(&["ABE", "SEP"][..]));
        assert!(field(&v, "blk.threshold").number);
        let cart = PanelValues::read(&preset_text("predicate-cartesian")).unwrap();
        assert_eq!(field(&cart, "abstraction.cartesian").value, "true");
        // A change edits the text; the engine refuses an illegal value and
        // the form refuses a key that is not a predicate option.
        let t = apply(&preset_text("predicate"), &Change::PredicateOption("cpa.predicate.merge".into(), "SEP".into())).unwrap();
        assert!(t.ends_with("cpa.predicate.merge = SEP\n"), "{t}");
        assert_eq!(field(&PanelValues::read(&t).unwrap(), "merge").value, "SEP");
        assert!(apply(&t, &Change::PredicateOption("cpa.predicate.merge".into(), "JOIN".into())).is_err());
        assert!(apply(&t, &Change::PredicateOption("cpa.value.merge".into(), "JOIN".into())).is_err());
        // Choosing the domain in the form gives predicate analysis' CPAs.
        let p = apply(&preset_text("value"), &Change::Domain(Domain::Predicate)).unwrap();
        assert_eq!(PanelValues::read(&p).unwrap().domain, Domain::Predicate);
        assert!(PanelValues::read(&preset_text("value")).unwrap().predicate.is_empty());
    }

    #[test]
    fn symbolic_execution_offers_its_options_and_stop_never() {
        let v = PanelValues::read(&preset_text("symexec-predabs")).unwrap();
        assert_eq!((v.domain, v.stop.as_str()), (Domain::SymExec, "NEVER"));
        assert!(!v.domain.has_merge_and_precision());
        let keys: Vec<&str> = v.symexec.iter().map(|f| f.key).collect();
        let engine_keys: Vec<&str> =
            engine::config::OPTIONS.iter().map(|o| o.key).filter(|k| k.starts_with(SYMEXEC_PREFIX)).collect();
        assert_eq!(keys, engine_keys);
        let field = |v: &PanelValues, label: &str| v.symexec.iter().find(|f| f.label == label).unwrap().clone();
        assert_eq!(field(&v, "abstraction").value, "true");
        assert!(field(&v, "abstraction.threshold").number);
        assert_eq!(field(&PanelValues::read(&preset_text("symexec")).unwrap(), "abstraction").value, "false");
        let t =
            apply(&preset_text("symexec-predabs"), &Change::SymExecOption("symexec.abstraction.threshold".into(), "2".into()))
                .unwrap();
        assert_eq!(field(&PanelValues::read(&t).unwrap(), "abstraction.threshold").value, "2");
        assert!(apply(&t, &Change::SymExecOption("cpa.value.merge".into(), "JOIN".into())).is_err());
        // Choosing the domain sets stop^never; leaving it sets stop^sep.
        let s = apply(&preset_text("value"), &Change::Domain(Domain::SymExec)).unwrap();
        let sv = PanelValues::read(&s).unwrap();
        assert_eq!((sv.domain, sv.stop.as_str()), (Domain::SymExec, "NEVER"), "{s}");
        let back = apply(&s, &Change::Domain(Domain::Value)).unwrap();
        assert_eq!(PanelValues::read(&back).unwrap().stop, "SEP");
        assert!(PanelValues::read(&preset_text("value")).unwrap().symexec.is_empty());
    }

    #[test]
    fn form_changes_edit_the_text_and_read_back() {
        let t0 = preset_text("octagon-sep");
        let t1 = apply(&t0, &Change::Merge("JOIN".into())).unwrap();
        assert_eq!(t1, format!("{t0}cpa.octagon.mergeop.type = JOIN\n"), "appended after the include");
        let t2 = apply(&t1, &Change::Merge("WIDENING".into())).unwrap();
        assert_eq!(t2.matches("cpa.octagon.mergeop.type").count(), 1, "rewritten in place:\n{t2}");
        let t3 = apply(&t2, &Change::OnlyLoopHeads(true)).unwrap();
        let t4 = apply(&t3, &Change::Order("BFS".into())).unwrap();
        let t5 = apply(&t4, &Change::MaxStates(5000)).unwrap();
        let v = PanelValues::read(&t5).unwrap();
        assert_eq!(
            v,
            PanelValues {
                domain: Domain::Octagon,
                merge: "WIDENING".into(),
                only_loop_heads: true,
                order: "BFS".into(),
                reverse_postorder: true,
                precision: "FULL".into(),
                cegar: false,
                max_states: 5000,
                stages: String::new(),
                predicate: Vec::new(),
                stop: "SEP".into(),
                symexec: Vec::new(),
            }
        );
        // The text runs as the form says.
        let c = Config::parse(&t5, "t").unwrap();
        assert_eq!(c.get("cpa.octagon.mergeop.type"), "WIDENING");
        assert_eq!(c.get("limits.states"), "5000");
    }

    #[test]
    fn text_edits_show_in_the_form() {
        let t = "#include value.properties\n# my comment\n  cpa.value.merge = join\nanalysis.traversal.order=BFS\n";
        let v = PanelValues::read(t).unwrap();
        assert_eq!((v.domain, v.merge.as_str(), v.order.as_str()), (Domain::Value, "JOIN", "BFS"));
        // A form change keeps the comment and the indentation.
        let t2 = apply(t, &Change::Merge("SEP".into())).unwrap();
        assert_eq!(t2, "#include value.properties\n# my comment\n  cpa.value.merge = SEP\nanalysis.traversal.order=BFS\n");
        // A key commented out is not rewritten.
        assert_eq!(set("# limits.states = 1\n", "limits.states", "2"), "# limits.states = 1\nlimits.states = 2\n");
    }

    #[test]
    fn switching_domains_keeps_the_configuration_valid() {
        let t = preset_text("octagon-widening");
        let v = apply(&t, &Change::Domain(Domain::Value)).unwrap();
        let pv = PanelValues::read(&v).unwrap();
        assert_eq!((pv.domain, pv.merge.as_str()), (Domain::Value, "JOIN"));
        assert!(apply(&v, &Change::Merge("WIDENING".into())).is_err());
        let s = apply(&t, &Change::Domain(Domain::Symbolic)).unwrap();
        assert_eq!(PanelValues::read(&s).unwrap().domain, Domain::Symbolic);
        let c = apply(&t, &Change::Cegar(true)).unwrap();
        assert!(PanelValues::read(&c).unwrap().cegar);
        let p = apply(&c, &Change::Precision("EMPTY".into())).unwrap();
        assert_eq!(PanelValues::read(&p).unwrap().precision, "EMPTY");
    }

    #[test]
    fn the_panel_reports_what_the_engine_would_refuse() {
        // Every preset is valid as it stands.
        for (name, _) in PRESETS {
            assert_eq!(check(&preset_text(name)), Ok(Checked::default()), "{name}");
        }
        // CEGAR on a full precision: a form change the panel applies (the
        // text is the truth) but reports, naming the line and the fix.
        let t = apply(&preset_text("octagon-widening"), &Change::Cegar(true)).unwrap();
        let c = check(&t).unwrap();
        assert_eq!(c.errors.len(), 1, "{c:?}");
        assert!(
            c.errors[0].starts_with("panel.properties:3: analysis.algorithm.CEGAR")
                && c.errors[0].contains("cpa.octagon.precision = EMPTY"),
            "{c:?}"
        );
        let fixed = apply(&t, &Change::Precision("EMPTY".into())).unwrap();
        assert_eq!(check(&fixed), Ok(Checked::default()));
        // A composite without location.
        let c = check("CompositeCPA.cpas = cpa.callstack.CallstackCPA, cpa.value.ValueAnalysisCPA\n").unwrap();
        assert!(c.errors[0].contains("must include cpa.location.LocationCPA"), "{c:?}");
        // An option without effect is a warning only.
        let c = check(&format!("{}cegar.restart = PIVOT\n", preset_text("value"))).unwrap();
        assert!(c.errors.is_empty() && c.warnings.len() == 1 && c.warnings[0].contains("has no effect"), "{c:?}");
        // A parse error stays an error of the text.
        assert!(check("cpa.callstack.depth = 0\n").unwrap_err().contains("panel.properties:1"));
    }

    #[test]
    fn analyze_refuses_a_configuration_the_program_cannot_run_with() {
        use crate::model::analysis::{is_config_error, Run, RunSpec};
        let calls = "extern void reach_error(void);\nint f(int a) { return a + 1; }\nint main() { int x = f(1); int y = f(2); if (x > y) reach_error(); return 0; }\n";
        let text =
            format!("{}CompositeCPA.cpas = cpa.location.LocationCPA, cpa.octagon.OctagonCPA\n", preset_text("octagon-widening"));
        // Valid on its own: the panel shows nothing before Analyze ...
        assert_eq!(check(&text), Ok(Checked::default()));
        let spec = RunSpec { preset: "octagon-widening".into(), properties: Some(text), ..RunSpec::default() };
        // ... but Analyze refuses it for a program with calls, with a
        // configuration error the pane shows in the panel too.
        let e = Run::start(calls, spec.clone()).err().expect("refused");
        assert!(is_config_error(&e), "{e}");
        assert!(
            e.contains("panel.properties:3: CompositeCPA.cpas: this program calls functions (line 3: f)")
                && e.contains("cpa.callstack.CallstackCPA"),
            "{e}"
        );
        // The same configuration runs a program without calls.
        let plain = "extern void reach_error(void);\nint main() { int x = 1; if (x == 2) reach_error(); return 0; }\n";
        let run = Run::start(plain, spec).expect("runs").complete();
        assert!(run.finished());
        // A program error is not a configuration error.
        assert!(!is_config_error(&Run::start("int main() { return 0 }", RunSpec::default()).err().unwrap()));
    }

    #[test]
    fn broken_text_is_reported_not_applied() {
        let e = PanelValues::read("cpa.octagon.mergeop.type = MAYBE\n").unwrap_err();
        assert!(e.contains("panel.properties:1") && e.contains("mergeop.type"), "{e}");
        assert!(PanelValues::read("nonsense line\n").unwrap_err().contains("expected `key = value`"));
        assert!(PanelValues::read("#include nowhere.properties\n").is_err());
        assert!(apply("nonsense\n", &Change::Cegar(true)).is_err());
        assert!(PanelValues::read("CompositeCPA.cpas = cpa.location.LocationCPA\n").is_ok_and(|v| v.domain == Domain::Other));
    }
}
