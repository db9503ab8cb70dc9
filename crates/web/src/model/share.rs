//! Share links: the program, the configuration, the compare set and the
//! current step, compressed into the URL fragment — computed in the page,
//! nothing sent anywhere, nothing stored.
//!
//! A link's fragment is `share=1.` followed by URL-safe base64 (no padding)
//! of the DEFLATE-compressed JSON of a [`ShareState`]. Decoding distrusts
//! the link: the fragment's length is capped ([`MAX_FRAGMENT`]) before
//! anything is decoded, inflation stops at [`MAX_INFLATED`] bytes (a
//! "zip bomb" is refused, never expanded), unknown JSON fields are
//! rejected, and every field is validated ([`ShareState::validate`]): the
//! program's size and characters, a preset the page offers, bounded
//! numbers. Nothing from a link is ever inserted as HTML: the program goes
//! into the editor as text and the configuration is matched against
//! [`crate::model::analysis::PRESETS`].
//!
//! UI-free; tested natively (round trips, proptest, malformed links).

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use minic::IntModel;
use serde::{Deserialize, Serialize};

use crate::model::analysis::{RunSpec, PRESETS};

/// The fragment key that marks a share link: `#share=1.…`.
pub const KEY: &str = "share=";
/// The format version written after the key.
pub const VERSION: &str = "1.";
/// Longest fragment accepted (characters after `#`).
pub const MAX_FRAGMENT: usize = 64 * 1024;
/// Largest JSON a fragment may inflate to.
pub const MAX_INFLATED: usize = 256 * 1024;
/// Longest program accepted (bytes of UTF-8).
pub const MAX_PROGRAM: usize = 100_000;
/// Largest step limit a link may ask for.
pub const MAX_STEP_LIMIT: u64 = 1_000_000;
/// Largest event position a link may ask to show.
pub const MAX_POSITION: usize = 10_000_000;
/// Most configurations in a compare set.
pub const MAX_COMPARE: usize = 3;
/// Longest configuration-panel properties text accepted (bytes).
pub const MAX_PROPERTIES: usize = 16 * 1024;

/// What a share link carries.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShareState {
    /// The program text.
    pub program: String,
    /// The analysis configuration: a preset of [`PRESETS`].
    pub preset: String,
    /// `math` or `c`.
    pub int_model: String,
    /// The step limit (`limits.steps`; 0: none).
    pub max_steps: u64,
    /// Properties text from the configuration panel, used instead of the
    /// preset (which it started from).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub properties: Option<String>,
    /// The event position shown (the timeline), if an analysis was run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<usize>,
    /// The compare view's configurations (presets, possibly with option
    /// overrides: `symbolic[solver.theory=INTEGER]`), if it is open.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub compare: Vec<String>,
    /// The compare view's position (its shared step), if it is open.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compare_position: Option<usize>,
}

/// Why a link cannot be opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShareError(pub String);

impl std::fmt::Display for ShareError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

fn err<T>(msg: impl Into<String>) -> Result<T, ShareError> {
    Err(ShareError(msg.into()))
}

fn known_preset(name: &str) -> bool {
    PRESETS.iter().any(|(p, _)| *p == name)
}

impl ShareState {
    /// The state for a program and an analysis configuration.
    pub fn new(program: &str, spec: &RunSpec) -> ShareState {
        ShareState {
            program: program.to_string(),
            preset: spec.preset.clone(),
            int_model: spec.int_model.name().to_string(),
            max_steps: spec.max_steps,
            properties: spec.properties.clone(),
            position: None,
            compare: Vec::new(),
            compare_position: None,
        }
    }

    /// The analysis configuration it names (call [`ShareState::validate`] first).
    pub fn spec(&self) -> RunSpec {
        RunSpec {
            preset: self.preset.clone(),
            int_model: if self.int_model == "c" { IntModel::C } else { IntModel::Math },
            max_steps: self.max_steps,
            properties: self.properties.clone(),
        }
    }

    /// Whether opening the link runs a solver-backed analysis (its own
    /// configuration or one of its compare view's): the page then starts
    /// loading Z3 while it builds itself.
    pub fn uses_solver(&self) -> bool {
        let spec = self.spec();
        spec.uses_solver() || self.compare.iter().any(|c| crate::model::config_choice::uses_solver(c, spec.int_model))
    }

    /// Checks every field: sizes, characters, names and bounds.
    pub fn validate(&self) -> Result<(), ShareError> {
        if self.program.len() > MAX_PROGRAM {
            return err(format!("the program is too long ({} bytes; at most {MAX_PROGRAM})", self.program.len()));
        }
        if let Some(c) = self.program.chars().find(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t')) {
            return err(format!("the program contains a control character (U+{:04X})", c as u32));
        }
        if !known_preset(&self.preset) {
            return err(format!("unknown configuration `{}`", shorten(&self.preset)));
        }
        if self.int_model != "math" && self.int_model != "c" {
            return err(format!("unknown integer model `{}` (math or c)", shorten(&self.int_model)));
        }
        if let Some(p) = &self.properties {
            if p.len() > MAX_PROPERTIES {
                return err(format!("the configuration text is too long ({} bytes; at most {MAX_PROPERTIES})", p.len()));
            }
            if p.chars().any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t')) {
                return err("the configuration text contains a control character");
            }
            engine::Config::parse(p, "the link's configuration").map_err(|e| ShareError(shorten_long(&e.message)))?;
        }
        if self.max_steps > MAX_STEP_LIMIT {
            return err(format!("the step limit {} is above {MAX_STEP_LIMIT}", self.max_steps));
        }
        if self.position.is_some_and(|p| p > MAX_POSITION) || self.compare_position.is_some_and(|p| p > MAX_POSITION) {
            return err(format!("the step position is above {MAX_POSITION}"));
        }
        if self.compare.len() > MAX_COMPARE {
            return err(format!("the compare set has {} configurations (at most {MAX_COMPARE})", self.compare.len()));
        }
        // Compare entries may carry option overrides (`symbolic[solver.theory=INTEGER]`).
        if let Some(bad) = self.compare.iter().find(|p| crate::model::config_choice::parse(p).is_err()) {
            return err(format!("unknown configuration `{}` in the compare set", shorten(bad)));
        }
        Ok(())
    }
}

/// At most `max` characters of `s` (then `…`), without control characters.
fn shorten_to(s: &str, max: usize) -> String {
    let t: String = s.chars().take(max).filter(|c| !c.is_control()).collect();
    if s.chars().count() > max {
        format!("{t}…")
    } else {
        t
    }
}

fn shorten_long(s: &str) -> String {
    shorten_to(s, 160)
}

fn shorten(s: &str) -> String {
    shorten_to(s, 40)
}

/// serde's message about the link's JSON, which quotes the link's own text
/// (`unknown field `…``, `invalid type: string "…"`): each part in
/// backticks shortened, control characters dropped, the whole bounded.
fn json_error(e: &serde_json::Error) -> String {
    let m = e.to_string();
    let parts: Vec<String> =
        m.split('`').enumerate().map(|(i, p)| if i % 2 == 1 { shorten(p) } else { shorten_to(p, 240) }).collect();
    shorten_to(&parts.join("`"), 240)
}

/// The fragment (without `#`) that carries `state`.
pub fn encode(state: &ShareState) -> String {
    // Serializing plain strings and numbers cannot fail; fall back to an
    // empty object rather than panic.
    let json = serde_json::to_vec(state).unwrap_or_else(|_| b"{}".to_vec());
    let deflated = miniz_oxide::deflate::compress_to_vec(&json, 9);
    format!("{KEY}{VERSION}{}", URL_SAFE_NO_PAD.encode(deflated))
}

/// Reads a URL fragment (with or without the leading `#`): `Ok(None)` when
/// it is not a share link (an empty or unrelated fragment), the validated
/// state when it is a good one, and an error saying what is wrong otherwise.
pub fn decode(fragment: &str) -> Result<Option<ShareState>, ShareError> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    let Some(rest) = fragment.strip_prefix(KEY) else { return Ok(None) };
    if fragment.len() > MAX_FRAGMENT {
        return err(format!("the link is too long ({} characters; at most {MAX_FRAGMENT})", fragment.len()));
    }
    let Some(data) = rest.strip_prefix(VERSION) else {
        return err("the link was made by another version of the playground (unknown format)");
    };
    let deflated = URL_SAFE_NO_PAD
        .decode(data.trim_end_matches('='))
        .or_else(|_| err("the link is damaged (not valid base64) — was it cut off or edited?"))?;
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&deflated, MAX_INFLATED).map_err(|e| {
        if e.status == miniz_oxide::inflate::TINFLStatus::HasMoreOutput {
            ShareError(format!("the link expands to more than {MAX_INFLATED} bytes; refused"))
        } else {
            ShareError("the link is damaged (its compressed data does not decompress) — was it cut off?".into())
        }
    })?;
    let state: ShareState = serde_json::from_slice(&json)
        .map_err(|e| ShareError(format!("the link's content is not a playground state ({})", json_error(&e))))?;
    state.validate()?;
    Ok(Some(state))
}

// Native only: proptest is a host dev-dependency (the wasm tests cover the
// glue, not this pure logic).
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::model::page::EXAMPLE_PROGRAM;
    use proptest::prelude::*;

    fn sample() -> ShareState {
        let mut s = ShareState::new(
            EXAMPLE_PROGRAM,
            &RunSpec { preset: "octagon-join".into(), int_model: IntModel::C, max_steps: 300, properties: None },
        );
        s.position = Some(37);
        s.compare = vec!["octagon-sep".into(), "octagon-join".into(), "octagon-widening".into()];
        s.compare_position = Some(120);
        s
    }

    #[test]
    fn a_link_uses_the_solver_when_its_analysis_or_a_compared_one_asks_z3() {
        let mut s = sample();
        assert!(!s.uses_solver(), "octagon analyses never ask Z3");
        s.compare.push("symbolic".into());
        assert!(s.uses_solver(), "a compared symbolic run asks Z3");
        s.compare.clear();
        for (preset, asks) in [
            ("symbolic", true),
            ("predicate", true),
            ("symexec-predabs", true),
            ("transform-term", true),
            ("transform-sign", false),
            ("value", false),
        ] {
            s.preset = preset.into();
            assert_eq!(s.uses_solver(), asks, "{preset}");
        }
        // A compare entry with an option override still names its preset.
        s.preset = "value".into();
        s.compare = vec!["symbolic[solver.theory=INTEGER]".into()];
        assert!(s.uses_solver());
    }

    #[test]
    fn round_trip_and_size() {
        let s = sample();
        let link = encode(&s);
        assert!(link.starts_with("share=1."), "{link}");
        assert!(link.chars().all(|c| c.is_ascii_alphanumeric() || "=._-".contains(c)), "URL-safe: {link}");
        assert!(
            link.len() < 600,
            "compressed: {} characters for a {}-byte program and its configuration",
            link.len(),
            EXAMPLE_PROGRAM.len()
        );
        let mut big = s.clone();
        big.program = EXAMPLE_PROGRAM.repeat(10);
        assert!(encode(&big).len() < big.program.len() / 4, "repetitive text compresses: {}", encode(&big).len());
        assert_eq!(decode(&format!("#{link}")), Ok(Some(s.clone())));
        assert_eq!(decode(&link), Ok(Some(s.clone())));
        let spec = s.spec();
        assert_eq!((spec.preset.as_str(), spec.int_model, spec.max_steps), ("octagon-join", IntModel::C, 300));
        // Optional parts are left out when absent.
        let plain = ShareState::new("int main() { return 0; }", &RunSpec::default());
        assert_eq!(decode(&encode(&plain)), Ok(Some(plain)));
        // A configuration written in the panel travels with the link.
        let custom = RunSpec {
            properties: Some("#include octagon-sep.properties\ncpa.octagon.mergeop.type = JOIN\n".into()),
            ..RunSpec::default()
        };
        let c = ShareState::new("int main() { return 0; }", &custom);
        assert_eq!(decode(&encode(&c)).unwrap().unwrap().spec(), custom);
    }

    #[test]
    fn other_fragments_are_not_share_links() {
        assert_eq!(decode(""), Ok(None));
        assert_eq!(decode("#"), Ok(None));
        assert_eq!(decode("#section-2"), Ok(None));
    }

    fn link_of_json(json: &str) -> String {
        format!("share=1.{}", URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 6)))
    }

    #[test]
    fn malformed_links_say_what_is_wrong() {
        let good = encode(&sample());
        let msg = |f: &str| decode(f).unwrap_err().0;
        assert!(msg("#share=2.abc").contains("another version"));
        assert!(msg("#share=1.@@@!").contains("not valid base64"));
        assert!(msg(&good[..good.len() / 2]).contains("damaged"), "{}", msg(&good[..good.len() / 2]));
        assert!(msg("#share=1.").contains("damaged") || msg("#share=1.").contains("not a playground state"));
        assert!(msg(&link_of_json("[1,2,3]")).contains("not a playground state"));
        assert!(msg(&link_of_json(r#"{"program":"x","preset":"value","int_model":"math","max_steps":1,"html":"<b>"}"#))
            .contains("unknown field"));
        assert!(msg(&link_of_json(r#"{"program":"x","preset":"rm -rf","int_model":"math","max_steps":1}"#))
            .contains("unknown configuration"));
        assert!(msg(&link_of_json(r#"{"program":"x","preset":"value","int_model":"bignum","max_steps":1}"#))
            .contains("integer model"));
        assert!(
            msg(&link_of_json(r#"{"program":"x","preset":"value","int_model":"c","max_steps":99999999}"#)).contains("step limit")
        );
        assert!(msg(&link_of_json(r#"{"program":"a\u0000b","preset":"value","int_model":"c","max_steps":1}"#))
            .contains("control character"));
        assert!(msg(&link_of_json(
            r#"{"program":"x","preset":"value","int_model":"c","max_steps":1,"compare":["value","value","value","value"]}"#
        ))
        .contains("compare set"));
        assert!(msg(&link_of_json(r#"{"program":"x","preset":"value","int_model":"c","max_steps":1,"compare":["nope"]}"#))
            .contains("compare set"));
        // A compare entry may carry option overrides, but only ones the option table knows.
        assert!(msg(&link_of_json(
            r#"{"program":"x","preset":"value","int_model":"c","max_steps":1,"compare":["symbolic[solver.theory=REAL]"]}"#
        ))
        .contains("compare set"));
        let with_overrides = ShareState {
            compare: vec!["symbolic[solver.theory=INTEGER]".into(), "symbolic".into()],
            ..ShareState::new("int main(void) { return 0; }", &RunSpec::default())
        };
        assert_eq!(with_overrides.validate(), Ok(()));
        assert_eq!(decode(&encode(&with_overrides)).unwrap().unwrap(), with_overrides);
        assert!(msg(&link_of_json(r#"{"program":"x","preset":"value","int_model":"c","max_steps":1,"position":99999999999}"#))
            .contains("position"));
        assert!(msg(&link_of_json(
            r##"{"program":"x","preset":"value","int_model":"c","max_steps":1,"properties":"cpa.octagon.mergeop.type = MAYBE"}"##
        ))
        .contains("mergeop.type"));
        assert!(msg(&link_of_json(
            r##"{"program":"x","preset":"value","int_model":"c","max_steps":1,"properties":"#include /etc/passwd"}"##
        ))
        .contains("cannot find included file"));
    }

    /// Found by `arbitrary_json_states_are_errors_or_round_trip`: serde's
    /// message quoted the link's unknown field name whole, control
    /// characters included, into the error the page shows.
    #[test]
    fn the_link_s_own_text_in_an_error_is_shortened_and_clean() {
        let name = format!("{}\\u0007\\u0000{}", "x".repeat(5000), "y".repeat(5000));
        let m = decode(&link_of_json(&format!(r#"{{"program":"x","preset":"value","int_model":"c","max_steps":1,"{name}":1}}"#)))
            .unwrap_err()
            .0;
        assert!(m.starts_with("the link's content is not a playground state (unknown field `xxxx"), "{m}");
        assert!(m.chars().count() < 400 && !m.chars().any(char::is_control), "{m}");
        let m = decode(&link_of_json(&format!(
            r#"{{"program":"x","preset":"value","int_model":"c","max_steps":"{}"}}"#,
            "9".repeat(9000)
        )))
        .unwrap_err()
        .0;
        assert!(m.contains("invalid type: string") && m.chars().count() < 400, "{m}");
    }

    #[test]
    fn oversized_links_and_zip_bombs_are_refused() {
        let long = format!("#share=1.{}", "A".repeat(MAX_FRAGMENT + 1));
        assert!(decode(&long).unwrap_err().0.contains("too long"));
        // 50 MB of spaces deflate to a few tens of KB: refused after MAX_INFLATED bytes.
        let bomb = vec![b' '; 50_000_000];
        let link = format!("share=1.{}", URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(&bomb, 10)));
        assert!(link.len() < MAX_FRAGMENT, "{}", link.len());
        assert!(decode(&link).unwrap_err().0.contains("expands to more than"), "{:?}", decode(&link));
        // A program above the size limit inside a small link.
        let mut s = sample();
        s.program = "/".repeat(MAX_PROGRAM + 1);
        assert!(decode(&encode(&s)).unwrap_err().0.contains("too long"));
    }

    /// `default_cases` unless `PROPTEST_CASES` says otherwise (long runs:
    /// `PROPTEST_CASES=200000 cargo test --release -p web --lib share`); a
    /// fixed seed unless `PROPTEST_RNG_SEED` gives one.
    fn fuzz_config(default_cases: u32) -> ProptestConfig {
        let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<u64>().ok());
        ProptestConfig {
            cases: env("PROPTEST_CASES").map_or(default_cases, |c| c as u32),
            rng_seed: proptest::test_runner::RngSeed::Fixed(env("PROPTEST_RNG_SEED").unwrap_or(0x0073_6861_7265)),
            failure_persistence: None,
            ..ProptestConfig::default()
        }
    }

    proptest! {
        #![proptest_config(fuzz_config(300))]

        #[test]
        fn any_state_round_trips(
            program in "[ -~\n\t\u{e9}\u{3bb}\u{2200}]{0,2000}",
            preset in 0..PRESETS.len(),
            c in any::<bool>(),
            max_steps in 0..=MAX_STEP_LIMIT,
            position in proptest::option::of(0..=MAX_POSITION),
            compare in proptest::collection::vec(0..PRESETS.len(), 0..=MAX_COMPARE),
        ) {
            let s = ShareState {
                program,
                preset: PRESETS[preset].0.into(),
                int_model: if c { "c" } else { "math" }.into(),
                max_steps,
                properties: None,
                position,
                compare: compare.into_iter().map(|i| PRESETS[i].0.to_string()).collect(),
                compare_position: position.map(|p| p / 2),
            };
            prop_assert_eq!(decode(&encode(&s)), Ok(Some(s)));
        }

        /// Any fragment at all: not a share link, a good state that
        /// round-trips, or an error in words.
        #[test]
        fn arbitrary_fragments_are_errors_or_round_trip(junk in "\\PC{0,300}") {
            for f in [junk.clone(), format!("share=1.{junk}"), format!("#share=1.{junk}"), format!("#share={junk}")] {
                outcome(&f)?;
            }
        }

        /// Link-shaped garbage: base64 of the right alphabet, which passes
        /// the first check and fails in decompression or JSON.
        #[test]
        fn base64_garbage_is_an_error_in_words(data in "[A-Za-z0-9_=-]{0,600}") {
            prop_assert_eq!(outcome(&format!("share=1.{data}"))?, Outcome::Error);
        }

        /// A good link cut anywhere, with characters replaced, or with bits
        /// flipped in the compressed bytes: an error in words, or (rarely,
        /// when the damage leaves valid data) a valid state.
        #[test]
        fn damaged_links_are_errors_or_valid_states(
            cut in 0usize..10_000,
            flips in proptest::collection::vec((0usize..10_000, 0u8..8), 1..4),
            replace in proptest::collection::vec((0usize..10_000, "[A-Za-z0-9_=@+/ -]"), 1..4),
        ) {
            let link = encode(&sample());
            // Truncation: every proper prefix of the data is broken.
            let cut = KEY.len() + VERSION.len() + cut % (link.len() - KEY.len() - VERSION.len());
            prop_assert_eq!(outcome(&link[..cut])?, Outcome::Error, "cut at {}", cut);
            // Characters of the link replaced.
            let mut chars: Vec<char> = link.chars().collect();
            for (at, c) in &replace {
                let at = 8 + at % (chars.len() - 8);
                chars[at] = c.chars().next().unwrap_or('A');
            }
            outcome(&chars.into_iter().collect::<String>())?;
            // Bits flipped in the deflated bytes, re-encoded as a valid link.
            let mut bytes = URL_SAFE_NO_PAD.decode(&link[8..]).unwrap();
            for (at, bit) in &flips {
                let at = at % bytes.len();
                bytes[at] ^= 1 << bit;
            }
            outcome(&format!("share=1.{}", URL_SAFE_NO_PAD.encode(&bytes)))?;
        }

        /// Hand-made JSON in a well-formed link: known and unknown fields
        /// with values of every type, huge and negative numbers, long and
        /// odd strings.
        #[test]
        fn arbitrary_json_states_are_errors_or_round_trip(
            fields in proptest::collection::vec((field_name(), json_value()), 0..10),
        ) {
            let body: Vec<String> = fields.iter().map(|(k, v)| format!("{}:{v}", serde_json::to_string(k).unwrap())).collect();
            outcome(&link_of_json(&format!("{{{}}}", body.join(","))))?;
        }

        /// A valid state with one field replaced by an arbitrary value.
        #[test]
        fn one_field_replaced_is_an_error_or_round_trips(field in 0usize..8, value in json_value()) {
            let serde_json::Value::Object(good) = serde_json::to_value(sample()).unwrap() else { unreachable!() };
            let name = ["program", "preset", "int_model", "max_steps", "properties", "position", "compare", "compare_position"][field];
            // As text: `1e400` is no serde_json::Value.
            let mut body: Vec<String> = good.iter().filter(|(k, _)| *k != name).map(|(k, v)| format!("{k:?}:{v}")).collect();
            body.push(format!("{name:?}:{value}"));
            outcome(&link_of_json(&format!("{{{}}}", body.join(","))))?;
        }
    }

    /// What decoding a fragment gave.
    #[derive(Debug, PartialEq, Eq)]
    enum Outcome {
        NotAShareLink,
        State,
        Error,
    }

    /// Decodes `fragment` and checks the result: not a share link only
    /// without the key; a state only if it is valid and round-trips; an
    /// error only with a message a person can read (some words, no control
    /// characters, bounded however long the link's strings are).
    fn outcome(fragment: &str) -> Result<Outcome, TestCaseError> {
        let key = fragment.strip_prefix('#').unwrap_or(fragment).starts_with(KEY);
        match decode(fragment) {
            Ok(None) => {
                prop_assert!(!key, "a share link read as none: {:?}", fragment);
                Ok(Outcome::NotAShareLink)
            }
            Ok(Some(s)) => {
                prop_assert!(key);
                prop_assert_eq!(s.validate(), Ok(()));
                prop_assert_eq!(decode(&encode(&s)), Ok(Some(s.clone())), "round trip");
                Ok(Outcome::State)
            }
            Err(ShareError(m)) => {
                prop_assert!(key);
                prop_assert!(m.split_whitespace().count() >= 3, "{:?}", m);
                prop_assert!(!m.chars().any(char::is_control), "{:?}", m);
                prop_assert!(m.chars().count() <= 400, "{} characters: {:?}", m.chars().count(), m);
                Ok(Outcome::Error)
            }
        }
    }

    fn field_name() -> impl Strategy<Value = String> {
        prop_oneof![
            proptest::sample::select(vec![
                "program",
                "preset",
                "int_model",
                "max_steps",
                "properties",
                "position",
                "compare",
                "compare_position"
            ])
            .prop_map(str::to_string),
            "\\PC{0,20}",
            "[a-z\\x00-\\x1f]{1000,3000}",
        ]
    }

    /// A JSON value as text.
    fn json_value() -> impl Strategy<Value = String> {
        let scalar = prop_oneof![
            Just("null".to_string()),
            any::<bool>().prop_map(|b| b.to_string()),
            any::<i64>().prop_map(|n| n.to_string()),
            any::<u64>().prop_map(|n| n.to_string()),
            proptest::sample::select(vec![
                "1e400",
                "-1e400",
                "18446744073709551616",
                "-0",
                "1.5",
                "1e3",
                "99999999999999999999999999"
            ])
            .prop_map(str::to_string),
            proptest::sample::select(PRESETS.iter().map(|(p, _)| p.to_string()).collect::<Vec<_>>())
                .prop_map(|p| format!("{p:?}")),
            "\\PC{0,40}".prop_map(|s| serde_json::to_string(&s).unwrap()),
            "[a-z\\x00-\\x1f\\u{7f}-\\u{9f}]{0,3000}".prop_map(|s| serde_json::to_string(&s).unwrap()),
            Just(r#""cpa.value.merge = JOIN\ncpa.octagon.mergeop.type = MAYBE""#.to_string()),
        ];
        scalar.prop_recursive(2, 16, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(|v| format!("[{}]", v.join(","))),
                proptest::collection::vec(("[a-z_]{1,10}", inner), 0..3)
                    .prop_map(|v| format!("{{{}}}", v.iter().map(|(k, x)| format!("{k:?}:{x}")).collect::<Vec<_>>().join(","))),
            ]
        })
    }
}
