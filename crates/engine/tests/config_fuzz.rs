//! Fuzzing the configuration space (offline, proptest; cargo-fuzz needs a
//! nightly toolchain).
//!
//! Inputs: arbitrary properties text — keys from the real option table with
//! random and adversarial values, every preset as `#include`, garbage
//! lines, comments, duplicated keys, continuation lines, unicode — and
//! random small mini-C programs (with and without calls, with recursion,
//! loops and nondeterministic inputs).
//!
//! Properties checked for every input:
//! * parsing never panics;
//! * a configuration either is rejected with an error (by the parser or by
//!   [`engine::validate::validate_for`]) or runs the [`Verifier`] to a verdict
//!   within a small step limit, without panicking; validation passing means
//!   building the verifier succeeds;
//! * TRUE is never answered when the concrete interpreter reaches the error
//!   location on one of a few input vectors (soundness first).
//!
//! Each panic is caught with `catch_unwind` and reported with the input.
//! The number of cases is `PROPTEST_CASES` (default: a small CI budget);
//! the seed is fixed unless `CONFIG_FUZZ_SEED` is set; `CONFIG_FUZZ_STEPS`
//! raises the step limit of each run (default 150). Every crash found
//! here became a named test at the end of this file.

use engine::cegar::Verifier;
use engine::config::{Config, KNOWN_CPAS, OPTIONS, PRESETS};
use engine::Stepper;
use engine::Verdict;
use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, RngSeed, TestCaseError, TestRunner};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

/// Values every option is tried with, whatever its type.
const ADVERSARIAL: &[&str] = &[
    "",
    " ",
    "true",
    "false",
    "TRUE",
    "yes",
    "0",
    "1",
    "2",
    "7",
    "-1",
    "300",
    "4294967295",
    "4294967296",
    "9007199254740992",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999",
    "1e3",
    "0x10",
    "DFS",
    "bfs",
    "SEP",
    "join",
    "WIDENING",
    "FULL",
    "EMPTY",
    "C",
    "math",
    "ROOT",
    "PIVOT",
    "AUTO",
    "INTEGER",
    "BITVECTOR",
    "NONE",
    "ASSUMPTIONS",
    "cpa.composite.CompositeCPA",
    "CompositeCPA",
    "value",
    "octagon-sep",
    "octagon-cegar",
    "value-cegar, octagon-sep",
    "octagon-seq-widening-cegar",
    "nothere",
    "x.properties",
    "/etc/passwd",
    "a b",
    ",,,",
    "=",
    "==",
    "ünïcödé 😀",
    "\u{202e}evil",
    "\\",
];

/// Programs the generator cannot easily produce: the defect's reproducer
/// and friends.
const FIXED_PROGRAMS: &[&str] = &[
    // Two call sites of one function.
    "extern void reach_error(void);\nint f(int a) { return a + 1; }\nint main() { int x = f(1); int y = f(2); if (x > y) reach_error(); return 0; }\n",
    // A function called from two others: frames of different functions.
    "extern void reach_error(void);\nint g(int b) { return b + 1; }\nint f(int a) { int r = g(a); return r; }\nint h(int c, int d) { int s = g(c) + d; int t = s; return t; }\nint main() { int z = 5; int x = f(1); int y = h(2, 3); if (z != 5) reach_error(); return 0; }\n",
    // Recursion.
    "extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\nint fact(int n) { if (n <= 1) return 1; return n * fact(n - 1); }\nint main() { int n = __VERIFIER_nondet_int(); if (n < 0 || n > 5) return 0; int r = fact(n); if (r < 1) reach_error(); return 0; }\n",
    // A loop and no calls.
    "extern void reach_error(void);\nint main() { int i = 0; int s = 0; while (i < 10) { s = s + 2; i = i + 1; } if (s != 20) reach_error(); return 0; }\n",
    // Reachable error.
    "extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\nint main() { int x = __VERIFIER_nondet_int(); if (x == 0) reach_error(); return 0; }\n",
];

/// One line of generated properties text.
#[derive(Clone, Debug)]
enum Line {
    /// `key = value` with a key of the option table.
    Set { key: usize, value: Value, spaces: bool },
    /// `#include PRESET.properties` (or a missing file).
    Include(usize),
    /// A comment.
    Comment(String),
    /// Anything.
    Garbage(String),
    /// `key = value \` continued on the next line.
    Continued { key: usize, first: String },
}

#[derive(Clone, Debug)]
enum Value {
    Adversarial(usize),
    /// The option's default.
    Default,
    /// A legal value of the option picked by the index.
    Legal(usize),
    /// A list of CPA names (indices into KNOWN_CPAS), maybe short names.
    Cpas(Vec<usize>, bool),
    Random(String),
}

fn line() -> impl Strategy<Value = Line> {
    let key = 0..OPTIONS.len();
    let value = prop_oneof![
        1 => (0..ADVERSARIAL.len()).prop_map(Value::Adversarial),
        2 => Just(Value::Default),
        12 => any::<usize>().prop_map(Value::Legal),
        1 => "[ -~äß😀\t]{0,12}".prop_map(Value::Random),
    ];
    prop_oneof![
        16 => (key.clone(), value, any::<bool>()).prop_map(|(key, value, spaces)| Line::Set { key, value, spaces }),
        4 => (prop::collection::vec(0..KNOWN_CPAS.len(), 0..6), any::<bool>()).prop_map(|(v, short)| Line::Set {
            key: OPTIONS.iter().position(|o| o.key == "CompositeCPA.cpas").unwrap(),
            value: Value::Cpas(v, short),
            spaces: short,
        }),
        3 => (0..PRESETS.len() + 2).prop_map(Line::Include),
        1 => "[ -~]{0,16}".prop_map(Line::Comment),
        1 => "[ -~äö😀\t=#\\\\]{0,24}".prop_map(Line::Garbage),
        1 => (key, "[A-Za-z0-9,. ]{0,10}").prop_map(|(key, first)| Line::Continued { key, first }),
    ]
}

/// A legal value of option `o` (by index `i`).
fn legal(o: &engine::config::OptionDecl, i: usize) -> String {
    use engine::config::OptionType::*;
    match o.ty {
        Bool => ["true", "false"][i % 2].to_string(),
        UInt => ["0", "1", "3", "50", "300", "2000"][i % 6].to_string(),
        Enum(vals) | Class(vals) => vals[i % vals.len()].to_string(),
        CpaList => {
            let mut v = vec!["cpa.location.LocationCPA"];
            if !i.is_multiple_of(3) {
                v.push("cpa.callstack.CallstackCPA");
            }
            v.push(KNOWN_CPAS[2 + (i / 3) % (KNOWN_CPAS.len() - 2)]);
            v.join(", ")
        }
        Names => {
            let names: Vec<&str> = PRESETS.iter().map(|p| p.0).collect();
            if i.is_multiple_of(4) {
                String::new()
            } else {
                names[i % names.len()].to_string()
            }
        }
    }
}

fn render(lines: &[Line]) -> String {
    let mut out = String::new();
    for l in lines {
        match l {
            Line::Set { key, value, spaces } => {
                let o = &OPTIONS[*key];
                let v = match value {
                    Value::Adversarial(i) => ADVERSARIAL[*i].to_string(),
                    Value::Default => o.default.to_string(),
                    Value::Legal(i) => legal(o, *i),
                    Value::Cpas(v, short) => v
                        .iter()
                        .map(|i| if *short { KNOWN_CPAS[*i].rsplit('.').next().unwrap() } else { KNOWN_CPAS[*i] })
                        .collect::<Vec<_>>()
                        .join(","),
                    Value::Random(s) => s.clone(),
                };
                if *spaces {
                    out.push_str(&format!("  {} =  {v}  \n", o.key));
                } else {
                    out.push_str(&format!("{}={v}\n", o.key));
                }
            }
            Line::Include(i) => match PRESETS.get(*i) {
                Some((_, file, _)) => out.push_str(&format!("#include {file}\n")),
                None if *i == PRESETS.len() => out.push_str("#include nothere.properties\n"),
                None => out.push_str("#include\n"),
            },
            Line::Comment(c) => out.push_str(&format!("# {c}\n")),
            Line::Garbage(g) => {
                out.push_str(g);
                out.push('\n');
            }
            Line::Continued { key, first } => out.push_str(&format!("{} = {first}\\\n  {first}\n", OPTIONS[*key].key)),
        }
    }
    out
}

/// A small random mini-C program decoded from `bytes`: up to three helper
/// functions (each may call the earlier ones and, guarded, itself), and a
/// `main` with nondeterministic inputs, calls, a bounded loop and an
/// assertion.
fn program(bytes: &[u8]) -> String {
    let mut it = bytes.iter().copied().chain(std::iter::repeat(0));
    let mut next = move || it.next().unwrap_or(0);
    let helpers = (next() % 4) as usize;
    let mut out = String::from("extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\n");
    let expr = |next: &mut dyn FnMut() -> u8, vars: &[&str]| -> String {
        let v = vars[next() as usize % vars.len()];
        let w = vars[next() as usize % vars.len()];
        let c = (next() % 7) as i32 - 2;
        match next() % 6 {
            0 => format!("{v} + {c}"),
            1 => format!("{v} - {w}"),
            2 => format!("{c}"),
            3 => format!("{v} * 2"),
            4 => v.to_string(),
            _ => format!("{w} + {v} + {c}"),
        }
    };
    for f in 0..helpers {
        let vars = ["a", "b", "x"];
        out.push_str(&format!("int f{f}(int a, int b) {{\n  int x = {};\n", expr(&mut next, &["a", "b"])));
        // Activations of different sizes (the octagon saves a frame each).
        for k in 0..(next() % 3) {
            out.push_str(&format!("  int l{k} = a + {k};\n"));
        }
        for _ in 0..(next() % 3) {
            match next() % 5 {
                0 if f > 0 => {
                    let g = next() as usize % f;
                    out.push_str(&format!("  x = f{g}({}, b);\n", expr(&mut next, &vars)));
                }
                1 => out.push_str(&format!("  if (a > 0 && a < 4) x = x + f{f}(a - 1, b);\n")),
                2 => out.push_str(&format!("  if (x > {}) x = {};\n", next() % 5, expr(&mut next, &vars))),
                _ => out.push_str(&format!("  x = {};\n", expr(&mut next, &vars))),
            }
        }
        out.push_str("  return x;\n}\n");
    }
    let vars = ["x", "y", "z"];
    out.push_str("int main() {\n  int x = __VERIFIER_nondet_int();\n  int y = 0;\n  int z = 1;\n");
    for _ in 0..(1 + next() % 4) {
        match next() % 6 {
            0 | 1 if helpers > 0 => {
                let f = next() as usize % helpers;
                let t = vars[next() as usize % 3];
                out.push_str(&format!("  {t} = f{f}({}, {});\n", expr(&mut next, &vars), expr(&mut next, &vars)));
            }
            2 => out.push_str(&format!("  while (y < {}) {{ y = y + 1; z = z + 2; }}\n", next() % 6)),
            3 => out.push_str(&format!(
                "  if (x < {}) {{ y = {}; }} else {{ z = {}; }}\n",
                next() % 4,
                expr(&mut next, &vars),
                expr(&mut next, &vars)
            )),
            _ => {
                let t = vars[next() as usize % 3];
                out.push_str(&format!("  {t} = {};\n", expr(&mut next, &vars)));
            }
        }
    }
    let v = vars[next() as usize % 3];
    let op = ["==", "!=", "<", ">"][next() as usize % 4];
    out.push_str(&format!("  if ({v} {op} {}) reach_error();\n  return 0;\n}}\n", (next() % 9) as i32 - 2));
    out
}

/// `CONFIG_FUZZ_STEPS` (default 150) waitlist pops per run and per stage.
fn limit(config: &mut Config) {
    let steps = std::env::var("CONFIG_FUZZ_STEPS").ok().and_then(|s| s.parse::<u32>().ok()).unwrap_or(150).to_string();
    for (k, v) in [
        ("limits.steps", steps.as_str()),
        ("restartAlgorithm.stageSteps", &steps),
        ("restartAlgorithm.stageTimeMs", "0"),
        ("cegar.maxIterations", "5"),
    ] {
        config.set(k, v).expect("limits are legal values");
    }
}

/// What one input did (for the summary).
#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    ParseError,
    Rejected,
    Ran(Verdict),
}

/// Parses `text`, validates it for `source` and runs it to a verdict; an
/// `Err` is a property violation (with the input in the message).
fn exercise(text: &str, source: &str) -> Result<Outcome, String> {
    let report = |what: &str| format!("{what}\n--- properties ---\n{text}\n--- program ---\n{source}");
    let parsed = catch_unwind(|| Config::parse(text, "fuzz.properties")).map_err(|_| report("Config::parse panicked"))?;
    let Ok(mut config) = parsed else { return Ok(Outcome::ParseError) };
    let program =
        Arc::new(cfa::from_source(source).map_err(|d| report(&format!("the generated program does not parse: {d:?}")))?);
    let checked = catch_unwind(AssertUnwindSafe(|| {
        let _ = engine::validate::problems(&config);
        let _ = engine::validate::warnings(&config);
        engine::validate::validate_for(&config, &program)
    }))
    .map_err(|_| report("validation panicked"))?;
    if checked.is_err() {
        // The engine must not panic even when validation is bypassed (a
        // composite assembled by hand), as long as it has a location.
        limit(&mut config);
        if config.cpas().iter().any(|c| c == "cpa.location.LocationCPA") {
            catch_unwind(AssertUnwindSafe(|| bypass(&program, &config)))
                .map_err(|_| report("the run bypassing validation panicked"))?;
        }
        return Ok(Outcome::Rejected);
    }
    limit(&mut config);
    let run = catch_unwind(AssertUnwindSafe(|| -> Result<Verdict, String> {
        let mut v = Verifier::new(program.clone(), &config, true)
            .map_err(|e| format!("validation passed but the verifier was refused: {e}"))?;
        // No solver: every query parks and is answered `unknown` (sound,
        // fast and the same on every machine).
        v.set_solver(None);
        let mut events = 0u64;
        loop {
            match v.next_event() {
                Some(_) => events += 1,
                None if v.pending_query().is_some() => v.answer_query("unknown"),
                None => break,
            }
            if events > 200_000 {
                return Err("no verdict after 200000 events".into());
            }
        }
        v.outcome().map(|o| o.0).ok_or_else(|| "the run ended without a verdict".to_string())
    }))
    .map_err(|_| report("the run panicked"))?
    .map_err(|e| report(&e))?;
    // Soundness: a TRUE must not contradict a concrete execution. (INTEGER
    // under the C model is documented to ignore overflow.)
    let integer_under_c = config.int_model() == minic::IntModel::C && config.get("solver.theory") == "INTEGER";
    if run == Verdict::True && !integer_under_c {
        for inputs in [vec![0i128; 8], vec![1; 8], vec![-1; 8], vec![3; 8], vec![2147483647; 8]] {
            let exec = engine::feasibility::replay(&program, &inputs, config.int_model(), 10_000);
            if matches!(exec.outcome, concrete::Outcome::ReachedError { .. }) {
                return Err(report(&format!("TRUE, but the concrete interpreter reaches the error with inputs {inputs:?}")));
            }
        }
    }
    Ok(Outcome::Ran(run))
}

/// Runs the composite of `config`'s CPAs without validation (no CEGAR,
/// check or restart around it, no solver): the verdict, if any.
fn bypass(program: &Arc<cfa::Program>, config: &Config) -> Option<Verdict> {
    use engine::cpas::composite::{CompositeAnalysis, CompositeCpa};
    let cpas = config.cpas().iter().filter_map(|n| engine::build::component_constructor(n)?(program, config).ok()).collect();
    let composite = CompositeCpa::new(cpas);
    let info = engine::trace::RunInfo {
        cpas: composite.component_names(),
        merge: None,
        order: String::new(),
        int_model: config.int_model(),
        properties: config.effective(),
    };
    let mut a = engine::Reachability::new(CompositeAnalysis::from(composite), program.clone(), config.algorithm_options(), info);
    a.set_solver(None);
    let mut events = 0;
    loop {
        match a.next_event() {
            Some(_) => events += 1,
            None if a.pending_query().is_some() => a.answer_query("unknown"),
            None => break,
        }
        if events > 200_000 {
            break;
        }
    }
    a.outcome().map(|o| o.0)
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(256)
}

fn seed() -> u64 {
    std::env::var("CONFIG_FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x636f_6e66_6967)
}

#[test]
fn fuzz_configurations_and_programs() {
    // Quiet the default panic message: caught panics are reported with the
    // input instead.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut runner = TestRunner::new(ProptestConfig {
        cases: cases(),
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(seed()),
        ..ProptestConfig::default()
    });
    let tally = std::cell::RefCell::new([0u64; 5]);
    let strategy = (
        prop::collection::vec(line(), 0..10),
        prop_oneof![1 => (0..FIXED_PROGRAMS.len()).prop_map(|i| FIXED_PROGRAMS[i].to_string()), 3 => prop::collection::vec(any::<u8>(), 0..40).prop_map(|b| program(&b))],
    );
    let result = runner.run(&strategy, |(lines, source)| {
        let text = render(&lines);
        let o = exercise(&text, &source).map_err(TestCaseError::fail)?;
        let mut t = tally.borrow_mut();
        t[0] += 1;
        match o {
            Outcome::ParseError => t[1] += 1,
            Outcome::Rejected => t[2] += 1,
            Outcome::Ran(Verdict::True | Verdict::False) => t[3] += 1,
            Outcome::Ran(_) => t[4] += 1,
        }
        Ok(())
    });
    std::panic::set_hook(hook);
    let t = tally.borrow();
    eprintln!(
        "config fuzz: {} executions: {} parse errors, {} rejected by validation, {} TRUE/FALSE, {} UNKNOWN",
        t[0], t[1], t[2], t[3], t[4]
    );
    if let Err(e) = result {
        panic!("{e}");
    }
    assert!(t[3] + t[4] > 0 || cases() < 16, "some configurations must run");
}

/// Presets alone, and each preset with a few overrides, on every fixed
/// program: the valid corner of the space must run, not be rejected.
#[test]
fn every_preset_runs_every_fixed_program() {
    for (name, file, _) in PRESETS {
        if *name == "octagon-base" {
            continue;
        }
        for source in FIXED_PROGRAMS {
            let o = exercise(&format!("#include {file}\n"), source).unwrap_or_else(|e| panic!("{e}"));
            assert!(matches!(o, Outcome::Ran(_)), "{name}: {o:?}\n{source}");
        }
    }
}

// ---------------------------------------------------------------------------
// Regression tests: one per crash or wrong verdict the fuzzer found.
// ---------------------------------------------------------------------------

/// The defect this validation came from: octagons without the call stack on
/// a program whose function `g` is called from two functions compared the
/// saved frames of `f` and `h` (different variables) and panicked in the
/// octagon lattice. Now the configuration is rejected, naming the calls.
#[test]
fn regression_octagon_without_callstack_is_rejected_not_a_panic() {
    let text = "#include octagon-join.properties\nCompositeCPA.cpas = cpa.location.LocationCPA, cpa.octagon.OctagonCPA\n";
    assert_eq!(exercise(text, FIXED_PROGRAMS[1]), Ok(Outcome::Rejected));
    let program = cfa::from_source(FIXED_PROGRAMS[1]).unwrap();
    let e = engine::validate::validate_for(&Config::parse(text, "x.properties").unwrap(), &program).unwrap_err();
    assert!(
        e.message.contains("x.properties:2: CompositeCPA.cpas: this program calls functions (line 3: g; line 5: f; line 5: h)"),
        "{}",
        e.message
    );
}

/// Found by the fuzzer: the explorer of a transformed program with a
/// composite the verifier cannot assemble for a program with calls passed
/// validation and was then refused. Validation now says so first.
#[test]
fn regression_transform_explorer_without_callstack_is_rejected_by_validation() {
    let text = "analysis.algorithm.transformExplorer=true\nCompositeCPA.cpas=cpa.location.LocationCPA\n";
    assert_eq!(exercise(text, FIXED_PROGRAMS[1]), Ok(Outcome::Rejected));
}

/// The same composite assembled by hand, bypassing validation: the Octagon
/// CPA no longer reaches the lattice's contract check (frames of different
/// functions are incomparable, not restored) and the run ends with a
/// verdict.
#[test]
fn regression_octagon_without_callstack_bypassing_validation_does_not_panic() {
    let program = Arc::new(cfa::from_source(FIXED_PROGRAMS[1]).unwrap());
    for merge in ["SEP", "JOIN", "WIDENING"] {
        let text = format!(
            "#include octagon-base.properties\ncpa.octagon.mergeop.type = {merge}\nCompositeCPA.cpas = LocationCPA, OctagonCPA\n"
        );
        let config = Config::parse(&text, "x.properties").unwrap();
        let verdict =
            catch_unwind(|| bypass(&program, &config)).unwrap_or_else(|_| panic!("merge {merge}: the octagon panicked"));
        assert!(verdict.is_some(), "merge {merge}: a verdict");
    }
}

/// Found by the fuzzer (on the engine before this test existed): a *valid*
/// configuration — the call stack is there — listing the Octagon CPA before
/// the Callstack CPA. The composite's ⊑ asks its components in order, so
/// the octagon compared the saved frames of states with different call
/// stacks (of `f` and of `h`, different variables) before the call stack
/// could say "different", and the lattice panicked. Frames of different
/// variables are now incomparable, and the run proves the program safe.
#[test]
fn regression_octagon_before_callstack_compares_frames_of_different_functions() {
    let text = "CompositeCPA.cpas=cpa.octagon.OctagonCPA,cpa.callstack.CallstackCPA,cpa.location.LocationCPA\ncpa.octagon.precision=EMPTY\n";
    // The octagon tracks no variable (EMPTY, no CEGAR): an unconfirmed FALSE.
    assert_eq!(exercise(text, FIXED_PROGRAMS[1]), Ok(Outcome::Ran(Verdict::False)));
    // With a full precision and every merge operator: safe.
    for merge in ["SEP", "JOIN", "WIDENING"] {
        let text = format!(
            "#include octagon-base.properties\nCompositeCPA.cpas = OctagonCPA, CallstackCPA, LocationCPA\ncpa.octagon.mergeop.type = {merge}\n"
        );
        assert_eq!(exercise(&text, FIXED_PROGRAMS[1]), Ok(Outcome::Ran(Verdict::True)), "{merge}");
    }
}
