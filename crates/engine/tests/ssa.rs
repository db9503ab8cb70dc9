//! The SSA path formula agrees with the concrete interpreter: for real
//! executions of SV-COMP tasks (random inputs), the formula of the path the
//! interpreter took, with its inputs fixed to the values it read, is
//! satisfiable — so inputs are numbered in the interpreter's order and the
//! encoding does not exclude real executions (which would make CEGAR refine
//! on a feasible path).

use engine::ssa::path_formula;
use minic::IntModel;
use smt::{parse_response, SolverBackend, Status, Term};

#[test]
fn formulas_of_executed_paths_are_satisfiable_with_the_executed_inputs() {
    let mut z3 = smt::Z3Process::system(std::time::Duration::from_secs(20));
    let (mut checked, mut excluded, mut failures) = (0, 0, Vec::new());
    for (n, task) in svcomp_tasks::tasks().into_iter().enumerate() {
        let Ok(program) = cfa::from_source(&task.source()) else { continue };
        for model in [IntModel::C, IntModel::Math] {
            let mut inputs = concrete::RandomInputs::new(n as u64 * 7 + 1);
            let ex = concrete::execute(&program, &mut inputs, concrete::Options { model, max_steps: 600, record_states: false });
            if matches!(ex.outcome, concrete::Outcome::UndefinedOperation { .. } | concrete::Outcome::Stuck { .. }) {
                continue;
            }
            let f = path_formula(&program, &ex.path, model);
            assert_eq!(f.inputs.len(), ex.inputs.len(), "{}: one input per value the interpreter read", task.path);
            let mut q = f.query.clone();
            for (i, used) in f.inputs.iter().zip(&ex.inputs) {
                let var = Term::var(&i.name, f.encoding.sort(i.ty));
                q.assertions.push(Term::eq(var, f.encoding.constant(used.value, i.ty)));
            }
            let answer = parse_response(&z3.solve_text(&q.to_smtlib()));
            checked += 1;
            if answer.status() == Status::Unsat {
                failures.push(format!("{} ({}): the executed path's formula is unsat", task.path, model.name()));
            }
            // Control: other inputs often do not follow the same path.
            let mut other = f.query.clone();
            for (i, used) in f.inputs.iter().zip(&ex.inputs) {
                let var = Term::var(&i.name, f.encoding.sort(i.ty));
                other.assertions.push(Term::eq(var, f.encoding.constant(used.value.wrapping_add(7), i.ty)));
            }
            if !f.inputs.is_empty() && parse_response(&z3.solve_text(&other.to_smtlib())).status() == Status::Unsat {
                excluded += 1;
            }
        }
    }
    assert!(checked >= 60, "only {checked} executions checked");
    assert!(excluded >= 10, "the formulas constrain the inputs ({excluded} of {checked} exclude shifted inputs)");
    assert!(failures.is_empty(), "{failures:#?}");
}
