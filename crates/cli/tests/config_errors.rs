//! Configuration errors end to end: the real binary refuses a configuration
//! the engine cannot run soundly with `error: configuration: ...` on stderr
//! and exit status 2 — never a panic, never a verdict.

use std::process::{Command, Output};

fn cpaplay(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cpaplay")).args(args).env("RUST_BACKTRACE", "1").output().expect("run cpaplay")
}

fn write(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("cpaplay-config-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

/// Two call sites of one function, and a third function called from two
/// others: without the call stack the octagon once compared frames of
/// different functions and panicked.
const CALLS: &str = "extern void reach_error(void);\n\
int g(int b) { return b + 1; }\n\
int f(int a) { int r = g(a); return r; }\n\
int h(int c, int d) { int s = g(c) + d; int t = s; return t; }\n\
int main() { int z = 5; int x = f(1); int y = h(2, 3); if (z != 5) reach_error(); return 0; }\n";

const NO_CALLS: &str =
    "extern void reach_error(void);\nint main() {\n  int x = 1;\n  if (x == 2) reach_error();\n  return 0;\n}\n";

/// Asserts a configuration error: exit 2, the prefix, every `needle`, no
/// panic, nothing on stdout.
fn assert_config_error(out: &Output, needles: &[&str]) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "stderr: {err}");
    assert!(err.starts_with("error: configuration: "), "{err}");
    for n in needles {
        assert!(err.contains(n), "missing `{n}` in: {err}");
    }
    assert!(!err.contains("panicked") && !err.contains("backtrace"), "{err}");
    assert!(out.stdout.is_empty(), "no verdict: {}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn calls_without_the_callstack_cpa_are_a_configuration_error_not_a_panic() {
    let f = write("calls.c", CALLS);
    for config in ["octagon-widening", "octagon-join", "value"] {
        let other = if config == "value" { "cpa.value.ValueAnalysisCPA" } else { "cpa.octagon.OctagonCPA" };
        let set = format!("CompositeCPA.cpas=cpa.location.LocationCPA,{other}");
        for command in ["verify", "trace"] {
            let out = cpaplay(&[command, &f, "--config", config, "--set", &set]);
            assert_config_error(
                &out,
                &[
                    "--set: CompositeCPA.cpas",
                    "this program calls functions (line 3: g; line 5: f; line 5: h)",
                    "cpa.callstack.CallstackCPA",
                ],
            );
        }
    }
    // The same composite is fine on a program without calls.
    let g = write("nocalls.c", NO_CALLS);
    let out = cpaplay(&[
        "verify",
        &g,
        "--config",
        "octagon-join",
        "--set",
        "CompositeCPA.cpas=cpa.location.LocationCPA,cpa.octagon.OctagonCPA",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("Verification result: TRUE"));
}

#[test]
fn program_independent_problems_are_reported_before_the_program_is_read() {
    // The file does not exist: the configuration is checked first.
    let missing = "/nonexistent/cpaplay/missing.c";
    let cases: &[(&[&str], &[&str])] = &[
        (
            &["--set", "CompositeCPA.cpas=cpa.callstack.CallstackCPA,cpa.value.ValueAnalysisCPA"],
            &["must include cpa.location.LocationCPA"],
        ),
        (&["--set", "CompositeCPA.cpas=LocationCPA,LocationCPA"], &["lists cpa.location.LocationCPA twice"]),
        (&["--set", "CompositeCPA.cpas=LocationCPA,ConstraintsCPA"], &["needs cpa.value.symbolic.SymbolicValueCPA"]),
        (&["--set", "analysis.algorithm.CEGAR=true"], &["analysis.algorithm.CEGAR", "cpa.value.precision = EMPTY"]),
        (&["--config", "octagon-cegar", "--set", "cpa.octagon.precision=FULL"], &["cpa.octagon.precision = EMPTY"]),
        (
            &["--config", "octagon-join-cex", "--set", "counterexample.checker.config=value-cegar"],
            &["sets analysis.algorithm.CEGAR = true"],
        ),
        (&["--set", "cpa.callstack.depth=0"], &["cpa.callstack.depth", "from 1 to 1000000"]),
        (&["--set", "solver.timeout=0"], &["solver.timeout"]),
        (&["--set", "limits.states=99999999999"], &["limits.states"]),
        (&["--set", "no.such.option=1"], &["unknown option `no.such.option`"]),
        (&["--set", "cpa.value.merge=WIDENING"], &["bad value for `cpa.value.merge`"]),
        (&["--config", "no-such-preset"], &["unknown configuration `no-such-preset`"]),
        (&["--max-steps", "-1"], &["--max-steps", "limits.steps"]),
    ];
    for (args, needles) in cases {
        let mut all = vec!["verify", missing];
        all.extend_from_slice(args);
        assert_config_error(&cpaplay(&all), needles);
    }
}

#[test]
fn a_bad_stage_of_a_restart_configuration_names_the_stage() {
    let f = write("calls2.c", CALLS);
    let dir = std::path::Path::new(&f).parent().unwrap();
    let stage = dir.join("nocallstack.properties");
    std::fs::write(
        &stage,
        "#include octagon-widening.properties\nCompositeCPA.cpas = cpa.location.LocationCPA, cpa.octagon.OctagonCPA\n",
    )
    .unwrap();
    let seq = dir.join("seq.properties");
    std::fs::write(
        &seq,
        format!("analysis.restartAfterUnknown = true\nrestartAlgorithm.configFiles = value, {}\n", stage.display()),
    )
    .unwrap();
    let out = cpaplay(&["verify", &f, "--config", seq.to_str().unwrap()]);
    assert_config_error(&out, &["restartAlgorithm.configFiles", "nocallstack.properties", "this program calls functions"]);
}

#[test]
fn options_without_effect_are_warnings_and_the_run_goes_on() {
    let f = write("nocalls2.c", NO_CALLS);
    let cases: &[(&[&str], &str)] = &[
        (&["--set", "cegar.restart=PIVOT"], "--set: cegar.restart = PIVOT has no effect: it is a CEGAR option"),
        (&["--set", "counterexample.checker.config=octagon-sep"], "counterexample.checker.config = octagon-sep has no effect"),
        (&["--set", "restartAlgorithm.configFiles=value"], "restart-algorithm option"),
        (
            &["--config", "octagon-seq-widening-cegar", "--set", "cpa.octagon.mergeop.type=JOIN"],
            "each stage of restartAlgorithm.configFiles runs its own configuration",
        ),
    ];
    for (args, needle) in cases {
        let mut all = vec!["verify", f.as_str()];
        all.extend_from_slice(args);
        let out = cpaplay(&all);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {err}");
        assert!(err.starts_with("warning: configuration: ") && err.contains(needle), "{args:?}: {err}");
        assert!(String::from_utf8_lossy(&out.stdout).contains("Verification result: TRUE"), "{args:?}");
    }
    // A valid configuration says nothing on stderr.
    let out = cpaplay(&["verify", &f, "--config", "octagon-cegar"]);
    assert!(out.status.success() && out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
}
