//! The accelerated interpreter: it reaches the same outcome and final
//! values as the plain one wherever the plain one finishes (wrap-around,
//! `!=` guards, resets, calls, nested loops), and finishes loops of
//! hundreds of millions of iterations in a few jumps.

use concrete::{execute, execute_accelerated, Options, Outcome, SliceInputs};
use minic::IntModel;

fn program(src: &str) -> cfa::Program {
    cfa::from_source(src).unwrap_or_else(|d| panic!("does not lower: {d:?}"))
}

const ASSERT: &str = "void reach_error(void);\nvoid __VERIFIER_assert(int c) { if (!c) { reach_error(); } }\n";

/// Plain and accelerated runs agree (outcome and final values).
fn same(body: &str, model: IntModel) -> usize {
    let src = format!("{ASSERT}{body}");
    let p = program(&src);
    let opts = Options { model, max_steps: 3_000_000, record_states: false };
    let plain = execute(&p, &mut SliceInputs::new(vec![]), opts);
    assert!(!matches!(plain.outcome, Outcome::StepLimit { .. }), "plain run too long: {body}");
    let fast = execute_accelerated(&p, &mut SliceInputs::new(vec![]), opts);
    assert_eq!(plain.outcome, fast.execution.outcome, "outcome of {body} under {model:?} (jumps {:?})", fast.jumps);
    assert_eq!(plain.final_values, fast.execution.final_values, "final values of {body} under {model:?}");
    fast.jumps.len()
}

#[test]
fn agrees_with_the_plain_interpreter() {
    let cases = [
        // a plain translation, exits by its guard
        "int main() { unsigned int x = 0; while (x < 100000) { x += 3; } __VERIFIER_assert(x != 100002); return 0; }",
        // wrap-around in the middle of the loop: unsigned char
        "int main() { unsigned char c = 7; unsigned int n = 0; while (n < 5000) { c += 3; n++; } __VERIFIER_assert(c != 1); return 0; }",
        // a `!=` guard skipped over by a step of 2 wraps around
        "int main() { unsigned short x = 1; unsigned int n = 0; while (x != 0 && n < 200000) { x += 2; n++; } __VERIFIER_assert(n != 200000); return 0; }",
        "int main() { unsigned short x = 0; while (x != 60000) { x += 3; } __VERIFIER_assert(x != 60000); return 0; }",
        // a reset and a translation (const_1-2)
        "int main() { unsigned int x = 1; unsigned int y = 0; while (y < 1024) { x = 0; y++; } __VERIFIER_assert(x == 1); return 0; }",
        // two phases (phases_1-2 in small)
        "int main() { unsigned int x = 0; while (x < 300000) { if (x < 1000) { x++; } else { x += 2; } } __VERIFIER_assert(!(x % 2)); return 0; }",
        // two phases of one loop on two variables (Mono3)
        "int main() { unsigned int x = 0; unsigned int y = 0; while (x < 100000) { if (x < 50000) { y++; } else { y--; } x++; } __VERIFIER_assert(y != 0); return 0; }",
        // signed, down-counting
        "int main() { int x = 100000; int y = -5; while (x > -100000) { x = x - 7; y = y + 2 * 3; } __VERIFIER_assert(y != 0); return 0; }",
        // not a translation: doubling (never jumped over)
        "int main() { unsigned int x = 1; unsigned int n = 0; while (n < 10000) { x = x * 2 + 1; n++; } __VERIFIER_assert(x != 0); return 0; }",
        // a guard that is not affine
        "int main() { unsigned int x = 0; while (x % 1000 != 998) { x += 2; } __VERIFIER_assert(x > 5); return 0; }",
        // a call in the body (functions_1-2)
        "unsigned int f(unsigned int z) { return z + 2; }\nint main() { unsigned int x = 0; while (x < 100000) { x = f(x); } __VERIFIER_assert(x % 2); return 0; }",
        // nested: a short inner loop unrolled in the outer iteration
        "int main() { unsigned int x = 0; unsigned int y = 0; while (x < 20000) { y = 0; while (y < 10) { y++; } x++; } __VERIFIER_assert(!(x % 2)); return 0; }",
        // a guard comparing two translated variables
        "int main() { int a = 0; int b = 100000; while (a < b) { a += 3; b -= 2; } __VERIFIER_assert(a != b); return 0; }",
        // an equality guard that holds from some iteration on
        "int main() { unsigned int x = 0; unsigned int y = 0; while (y < 50000) { if (x == 7) { y += 1; } else { x += 1; y += 2; } } __VERIFIER_assert(y != 1); return 0; }",
        // signed overflow at the end of a run of a loop
        "int main() { signed char c = 0; unsigned int n = 0; while (n < 1000) { c = c + 1; n++; } __VERIFIER_assert(c != 0); return 0; }",
        // a conversion to _Bool inside an affine sum: n - 3 crosses 0
        "int main() { int n = -20000; unsigned int x = 0; while (n < 20000) { x = x + (_Bool)(n - 3); n++; } __VERIFIER_assert(x != 39996); return 0; }",
        // _Bool assignment (normalizes: not a translation)
        "int main() { _Bool b = 0; unsigned int n = 0; while (n < 1000) { b = n + 1; n++; } __VERIFIER_assert(b); return 0; }",
    ];
    let mut jumped = 0;
    for case in cases {
        for model in [IntModel::C, IntModel::Math] {
            jumped += same(case, model).min(1);
        }
    }
    assert!(jumped >= 10, "most cases jump: {jumped}");
}

fn accelerated(body: &str) -> concrete::AcceleratedExecution {
    let p = program(&format!("{ASSERT}{body}"));
    let opts = Options { model: IntModel::C, max_steps: 100_000, record_states: false };
    execute_accelerated(&p, &mut SliceInputs::new(vec![]), opts)
}

#[test]
fn long_loops_reach_the_error_in_a_few_jumps() {
    // simple_4-1: 134217720 iterations
    let run = accelerated(
        "int main(void) { unsigned int x = 0x0ffffff1; while (x > 1) { x -= 2; } __VERIFIER_assert(!(x % 2)); return 0; }",
    );
    assert!(matches!(run.execution.outcome, Outcome::ReachedError { .. }), "{}", run.execution.outcome);
    assert_eq!(run.jumps.len(), 1);
    assert!(run.jumps[0].iterations > 134_000_000, "{}", run.jumps_in_words());
    // phases: two jumps at the same loop head
    let run = accelerated(
        "int main(void) { unsigned int x = 0; while (x < 0x0fffffff) { if (x < 0xfff1) { x++; } else { x += 2; } } __VERIFIER_assert(!(x % 2)); return 0; }",
    );
    assert!(matches!(run.execution.outcome, Outcome::ReachedError { .. }), "{}", run.execution.outcome);
    assert_eq!(run.jumps.len(), 2, "{}", run.jumps_in_words());
    assert_eq!(run.jumps[0].loop_head, run.jumps[1].loop_head);
    // a wrap-around ends the translation: x += 2 from an odd start never
    // stops at 0x0fffffff exactly, and the run goes on past the wrap
    let run = accelerated("int main(void) { unsigned int x = 1; while (x != 0) { x += 2; } return 0; }");
    assert!(matches!(run.execution.outcome, Outcome::StepLimit { .. }), "{}", run.execution.outcome);
}
