//! Whole-analysis soundness against the concrete interpreter: random small
//! programs (as source text) run on random inputs; every visited concrete
//! state (location, call stack, values) must be covered by some reached
//! state of a completed value analysis, and no configuration may answer
//! TRUE when a concrete run reaches the error location.

use cfa::Program;
use concrete::{execute, Options, Outcome, RandomInputs};
use engine::cpas::value::ValueState;
use engine::{build_analysis, Config, Verdict};
use minic::IntModel;
use proptest::prelude::*;
use std::sync::Arc;

struct Gen {
    rng: svcomp_tasks::XorShift,
    out: String,
    loops: usize,
}

impl Gen {
    fn next(&mut self, n: u64) -> u64 {
        self.rng.below(n)
    }
    fn var(&mut self) -> &'static str {
        ["a", "b", "c"][self.next(3) as usize]
    }
    fn operand(&mut self) -> String {
        if self.next(2) == 0 {
            self.var().to_string()
        } else {
            (self.next(7) as i64 - 3).to_string()
        }
    }
    fn expr(&mut self) -> String {
        let op = ["+", "-", "*", "/", "%", "+"][self.next(6) as usize];
        format!("{} {op} {}", self.var(), self.operand())
    }
    fn cond(&mut self) -> String {
        let op = ["<", "<=", ">", ">=", "==", "!="][self.next(6) as usize];
        format!("{} {op} {}", self.var(), self.operand())
    }
    fn stmts(&mut self, depth: usize, indent: usize) {
        let n = 1 + self.next(3);
        for _ in 0..n {
            let pad = "  ".repeat(indent);
            match self.next(if depth == 0 { 4 } else { 7 }) {
                0 | 1 => {
                    let (v, e) = (self.var(), self.expr());
                    self.out.push_str(&format!("{pad}{v} = {e};\n"));
                }
                2 => {
                    let v = self.var();
                    self.out.push_str(&format!("{pad}{v} = __VERIFIER_nondet_int();\n"));
                }
                3 => {
                    let c = self.cond();
                    self.out.push_str(&format!("{pad}if ({c}) reach_error();\n"));
                }
                4 | 5 => {
                    let c = self.cond();
                    self.out.push_str(&format!("{pad}if ({c}) {{\n"));
                    self.stmts(depth - 1, indent + 1);
                    self.out.push_str(&format!("{pad}}} else {{\n"));
                    self.stmts(depth - 1, indent + 1);
                    self.out.push_str(&format!("{pad}}}\n"));
                }
                _ => {
                    self.loops += 1;
                    let i = format!("i{}", self.loops);
                    let k = 1 + self.next(4);
                    self.out.push_str(&format!("{pad}for (int {i} = 0; {i} < {k}; {i}++) {{\n"));
                    self.stmts(depth - 1, indent + 1);
                    self.out.push_str(&format!("{pad}}}\n"));
                }
            }
        }
    }
}

fn program_text(seed: u64) -> String {
    let mut g = Gen { rng: svcomp_tasks::XorShift::new(seed | 1), out: String::new(), loops: 0 };
    g.out.push_str("extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\nint main() {\n");
    for v in ["a", "b", "c"] {
        let init = if g.next(2) == 0 { "__VERIFIER_nondet_int()".to_string() } else { (g.next(5) as i64 - 2).to_string() };
        g.out.push_str(&format!("  int {v} = {init};\n"));
    }
    g.stmts(2, 1);
    g.out.push_str("  return 0;\n}\n");
    g.out
}

/// Checks one generated program; returns (TRUE verdicts, concrete states checked).
fn check(seed: u64) -> Result<(usize, usize), TestCaseError> {
    let mut counts = (0, 0);
    let src = program_text(seed);
    let program: Arc<Program> = Arc::new(cfa::from_source(&src).map_err(|d| TestCaseError::fail(format!("{d:?}\n{src}")))?);
    for model in [IntModel::Math, IntModel::C] {
        // Ground truth: a few random concrete runs.
        let runs: Vec<_> = (0..6u64)
            .map(|s| {
                let opts = Options { model, max_steps: 10_000, record_states: true };
                execute(&program, &mut RandomInputs::new(seed ^ (s * 7919 + 1)), opts)
            })
            .collect();
        let error_reachable = runs.iter().any(|r| matches!(r.outcome, Outcome::ReachedError { .. }));
        for (preset, sets) in [
            ("value", vec![]),
            ("value-join", vec![]),
            ("value", vec!["analysis.traversal.order=BFS"]),
        ] {
            let mut c = Config::preset(preset).unwrap();
            c.set("analysis.intModel", model.name()).unwrap();
            c.set("limits.steps", "20000").unwrap();
            for s in &sets {
                c.set_pair(s).unwrap();
            }
            let mut a = build_analysis(program.clone(), &c, false).unwrap();
            a.run_with(|_| {});
            let (verdict, _) = a.outcome().unwrap();
            prop_assert!(
                !(error_reachable && verdict == Verdict::True),
                "wrong TRUE ({preset} {sets:?}, {model:?}) for\n{src}"
            );
            if verdict != Verdict::True {
                continue; // not a complete reached set
            }
            counts.0 += 1;
            // Every visited concrete state is covered by a reached state.
            let reached: Vec<(cfa::NodeId, Vec<cfa::NodeId>, ValueState)> = a
                .reached()
                .map(|(_, s)| {
                    let loc = *s.parts[0].as_any().downcast_ref::<cfa::NodeId>().unwrap();
                    let cs = s.parts[1].as_any().downcast_ref::<engine::cpas::callstack::CallstackState>().unwrap();
                    let v = s.parts[2].as_any().downcast_ref::<ValueState>().unwrap().clone();
                    (loc, cs.frames.iter().map(|f| f.call_site).collect(), v)
                })
                .collect();
            for run in &runs {
                for cs in &run.states {
                    let covered = reached.iter().any(|(loc, stack, v)| {
                        *loc == cs.node
                            && *stack == cs.call_stack
                            && v.values.iter().all(|(var, val)| cs.values.get(var).is_none_or(|c| c == val))
                    });
                    counts.1 += 1;
                    prop_assert!(covered, "concrete state {cs:?} not covered ({preset} {sets:?}, {model:?}) in\n{src}");
                }
            }
        }
    }
    Ok(counts)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]
    #[test]
    fn value_analysis_covers_every_concrete_run(seed in any::<u64>()) {
        check(seed)?;
    }
}

#[test]
fn the_soundness_check_is_not_vacuous() {
    let (mut trues, mut states) = (0, 0);
    for seed in 1..=40u64 {
        let (t, s) = check(seed.wrapping_mul(0x2545_F491_4F6C_DD1D)).unwrap_or_else(|e| panic!("{e}"));
        trues += t;
        states += s;
    }
    eprintln!("soundness: {trues} TRUE verdicts, {states} concrete states checked for coverage");
    assert!(trues >= 20, "only {trues} TRUE verdicts: the coverage check hardly ran");
    assert!(states >= 1000, "only {states} concrete states checked");
}

#[test]
fn generated_programs_parse() {
    for seed in 0..50 {
        let src = program_text(seed * 31 + 7);
        cfa::from_source(&src).unwrap_or_else(|d| panic!("{d:?}\n{src}"));
    }
}
