//! Structural and typing invariants of lowered CFAs, checked on every
//! SV-COMP task and on the example programs: the contract analyses rely on.

mod contract;

use contract::{check_program, sources};

#[test]
fn lowered_programs_satisfy_the_cfa_contract() {
    let mut bad = Vec::new();
    let mut count = 0;
    for (name, src) in sources() {
        match cfa::from_source(&src) {
            Ok(p) => {
                count += 1;
                bad.extend(check_program(&name, &p));
            }
            Err(d) if name.contains("sv-comp") || !name.contains('/') => bad.push(format!("{name}: {d:?}")),
            Err(_) => {}
        }
    }
    assert!(count >= 59);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn loop_heads_are_exactly_the_back_edge_targets() {
    let src = "int main() {\n  int i = 0;\n  while (i < 3) {\n    int j = 0;\n    do { j++; } while (j < i);\n    i++;\n  }\n  L: i--;\n  if (i > 0) goto L;\n  return 0;\n}\n";
    let p = cfa::from_source(src).unwrap();
    let heads: Vec<u32> = p.nodes.iter().filter(|n| n.loop_head).map(|n| n.line).collect();
    // the while head (line 3), the do body (line 5), the label (line 8)
    assert_eq!(heads, vec![3, 5, 8]);
}

#[test]
fn reverse_postorder_puts_the_loop_body_before_the_exit() {
    let src = "int main() {\n  int i = 0;\n  while (i < 3) {\n    i++;\n  }\n  return i;\n}\n";
    let p = cfa::from_source(src).unwrap();
    let rpo = p.reverse_postorder();
    let f = p.main_function();
    let by_label = |l: &str| p.edges.iter().find(|e| e.label == l).unwrap().source;
    assert_eq!(rpo[f.entry.0 as usize], 0);
    assert!(rpo[by_label("i = i + 1;").0 as usize] > rpo[by_label("while").0 as usize]);
    assert!(rpo[by_label("return i;").0 as usize] > rpo[by_label("[!(i < 3)]").0 as usize]);
    assert_eq!(rpo[f.exit.0 as usize] as usize, p.function_nodes(f.id).count() - 1);
}
