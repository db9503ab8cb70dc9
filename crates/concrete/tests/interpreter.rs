//! The concrete interpreter on small programs with known results, under
//! both integer models.

use concrete::{execute, ConcreteState, Execution, FnInputs, Options, Outcome, RandomInputs, SliceInputs};
use minic::IntModel;

fn program(src: &str) -> cfa::Program {
    cfa::from_source(src).unwrap_or_else(|d| panic!("does not lower: {d:?}"))
}

fn run(src: &str, inputs: &[i128], model: IntModel) -> (cfa::Program, Execution) {
    let p = program(src);
    let opts = Options { model, max_steps: 10_000, record_states: true };
    let e = execute(&p, &mut SliceInputs::new(inputs.to_vec()), opts);
    (p, e)
}

fn value_of(p: &cfa::Program, e: &Execution, qualified: &str) -> Option<i128> {
    let v = p.variables.iter().find(|v| v.qualified == qualified)?;
    e.final_values.get(&v.id).copied()
}

fn error_line(p: &cfa::Program, e: &Execution) -> Option<u32> {
    match e.outcome {
        Outcome::ReachedError { node } => Some(p.node(node).line),
        _ => None,
    }
}

#[test]
fn unsigned_underflow_reaches_the_error_only_under_c() {
    let src = "int main() {\n  unsigned x = 0;\n  x = x - 1;\n  if (x > 5) reach_error();\n  return 0;\n}\n";
    let (p, c) = run(src, &[], IntModel::C);
    assert_eq!(error_line(&p, &c), Some(4));
    assert_eq!(value_of(&p, &c, "main::x"), Some(4294967295));
    let (p, m) = run(src, &[], IntModel::Math);
    assert_eq!(m.outcome, Outcome::Returned { value: Some(0) });
    assert_eq!(value_of(&p, &m, "main::x"), Some(-1));
}

#[test]
fn signed_char_wraps_under_c() {
    let src = "int main() {\n  signed char c = 127;\n  c = c + 1;\n  char d = 200;\n  return c;\n}\n";
    let (p, c) = run(src, &[], IntModel::C);
    assert_eq!(c.outcome, Outcome::Returned { value: Some(-128) });
    assert_eq!(value_of(&p, &c, "main::d"), Some(-56));
    let (_, m) = run(src, &[], IntModel::Math);
    assert_eq!(m.outcome, Outcome::Returned { value: Some(128) });
}

#[test]
fn division_truncates_toward_zero() {
    let src = "int main() {\n  int a = -7 / 2;\n  int b = -7 % 2;\n  int c = 7 / -2;\n  return a * 100 + b * 10 + c;\n}\n";
    for model in [IntModel::C, IntModel::Math] {
        let (p, e) = run(src, &[], model);
        assert_eq!(value_of(&p, &e, "main::a"), Some(-3));
        assert_eq!(value_of(&p, &e, "main::b"), Some(-1));
        assert_eq!(value_of(&p, &e, "main::c"), Some(-3));
        assert_eq!(e.outcome, Outcome::Returned { value: Some(-313) });
    }
}

#[test]
fn recursion_uses_a_real_stack() {
    let src = "int fibo(int n) {\n  if (n < 1) return 0;\n  else if (n == 1) return 1;\n  return fibo(n - 1) + fibo(n - 2);\n}\nint main() {\n  int r = fibo(5);\n  if (r != 5) reach_error();\n  return r;\n}\n";
    let (_, e) = run(src, &[], IntModel::Math);
    assert_eq!(e.outcome, Outcome::Returned { value: Some(5) });
    // the deepest state has four frames below main: fibo(5) .. fibo(1)
    let depth = e.states.iter().map(|s| s.call_stack.len()).max().unwrap();
    assert_eq!(depth, 5);
}

#[test]
fn nondet_inputs_are_taken_in_order_and_converted() {
    let src = "int main() {\n  int a = __VERIFIER_nondet_int();\n  unsigned char b = __VERIFIER_nondet_uchar();\n  int u;\n  int s = a + b + u;\n  return s;\n}\n";
    let (p, e) = run(src, &[3, 300, -1], IntModel::C);
    assert_eq!(value_of(&p, &e, "main::b"), Some(44));
    assert_eq!(e.outcome, Outcome::Returned { value: Some(46) });
    assert_eq!(e.inputs.iter().map(|u| u.value).collect::<Vec<_>>(), vec![3, 44, -1]);
    let (_, e) = run(src, &[3], IntModel::C);
    assert!(matches!(e.outcome, Outcome::InputsExhausted { .. }), "{:?}", e.outcome);
}

#[test]
fn a_false_assumption_ends_the_path() {
    let src = "int main() {\n  int x = __VERIFIER_nondet_int();\n  __VERIFIER_assume(x > 10);\n  return x;\n}\n";
    let (p, e) = run(src, &[5], IntModel::Math);
    match e.outcome {
        Outcome::AssumeFailed { node } => assert_eq!(p.node(node).line, 3),
        other => panic!("{other:?}"),
    }
    let (_, e) = run(src, &[11], IntModel::Math);
    assert_eq!(e.outcome, Outcome::Returned { value: Some(11) });
}

#[test]
fn abort_and_exit_terminate() {
    let src =
        "extern void abort(void);\nint main() {\n  int x = __VERIFIER_nondet_int();\n  if (x) abort();\n  reach_error();\n}\n";
    let (p, e) = run(src, &[1], IntModel::C);
    assert!(matches!(e.outcome, Outcome::Terminated { .. }));
    let (p2, e2) = run(src, &[0], IntModel::C);
    assert_eq!(error_line(&p2, &e2), Some(5));
    assert_eq!(error_line(&p, &e), None);
}

/// A constant-false `__VERIFIER_assume` ends the path as a failed
/// assumption, like a false one with variables (it used to leave a node
/// without successors, where the interpreter reported "stuck").
#[test]
fn a_constant_false_assumption_fails_like_any_other() {
    for src in [
        "int main() {\n  int x = 1;\n  __VERIFIER_assume(0);\n  reach_error();\n}\n",
        "int main() {\n  int x = __VERIFIER_nondet_int();\n  __VERIFIER_assume(x && 0);\n  reach_error();\n}\n",
        "int main() {\n  int x = __VERIFIER_nondet_int();\n  __VERIFIER_assume(x);\n  reach_error();\n}\n",
    ] {
        let (p, e) = run(src, &[0], IntModel::C);
        match e.outcome {
            Outcome::AssumeFailed { node } => assert_eq!(p.node(node).line, 3, "{src}"),
            ref o => panic!("{src}: {o:?}"),
        }
    }
}

#[test]
fn division_by_zero_is_an_undefined_operation() {
    let src = "int main() {\n  int z = __VERIFIER_nondet_int();\n  int x = 10 / z;\n  return x;\n}\n";
    let (p, e) = run(src, &[0], IntModel::C);
    match e.outcome {
        Outcome::UndefinedOperation { edge, error } => {
            assert_eq!(p.edge(edge).line, 3);
            assert_eq!(error, cfa::EvalError::DivisionByZero);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_infinite_loop_hits_the_step_limit() {
    let p = program("int main() {\n  int x = 0;\n  while (1) { x++; }\n}\n");
    let e = execute(&p, &mut SliceInputs::new(vec![]), Options { model: IntModel::C, max_steps: 500, record_states: false });
    assert_eq!(e.outcome, Outcome::StepLimit { steps: 500 });
    assert_eq!(e.path.len(), 500);
    assert!(e.states.is_empty());
}

#[test]
fn recorded_states_follow_the_path() {
    let src = "int g;\nint main() {\n  int x = 2;\n  g = x * 3;\n  return g;\n}\n";
    let (p, e) = run(src, &[], IntModel::Math);
    assert_eq!(e.states.len(), e.path.len() + 1);
    assert_eq!(e.states[0].node, p.main_function().entry);
    for (k, edge) in e.path.iter().enumerate() {
        assert_eq!(e.states[k].node, p.edge(*edge).source);
        assert_eq!(e.states[k + 1].node, p.edge(*edge).target);
    }
    let last: &ConcreteState = e.states.last().unwrap();
    let g = p.variables.iter().find(|v| v.qualified == "g").unwrap().id;
    assert_eq!(last.values.get(&g), Some(&6));
}

/// An SV-COMP FALSE task: some inputs reach its error location.
#[test]
fn sv_comp_false_task_reaches_its_error() {
    let src = svcomp_tasks::task("loop-acceleration/diamond_1-2.c").source();
    let p = program(&src);
    let mut found = None;
    for seed in 0..200u64 {
        let mut input = RandomInputs::new(seed);
        let e = execute(&p, &mut input, Options { model: IntModel::C, max_steps: 2_000_000, record_states: false });
        if let Outcome::ReachedError { node } = e.outcome {
            found = Some(p.node(node).line);
            break;
        }
    }
    let line = found.expect("some input reaches the error");
    assert!(src.lines().nth(line as usize - 1).unwrap().contains("ERROR:"));
}

#[test]
fn closure_inputs_work() {
    let p = program("int main() {\n  int a = __VERIFIER_nondet_int();\n  int b = __VERIFIER_nondet_int();\n  return a - b;\n}\n");
    let mut k = 0;
    let mut src = FnInputs(|_| {
        k += 10;
        k
    });
    let e = execute(&p, &mut src, Options::default());
    assert_eq!(e.outcome, Outcome::Returned { value: Some(-10) });
}

#[test]
fn static_locals_keep_their_value_between_calls() {
    let src = "int next(void) {\n  static int count = 10;\n  count++;\n  return count;\n}\nint main() {\n  int a = next();\n  int b = next();\n  if (b != 12) reach_error();\n  return a + b;\n}\n";
    let (p, e) = run(src, &[], IntModel::Math);
    assert_eq!(e.outcome, Outcome::Returned { value: Some(23) });
    assert_eq!(value_of(&p, &e, "next::count"), Some(12));
}
