//! Golden CFA listings for small programs, one per statement kind.
//! Review changes to `snapshots/*.snap` like code: they are the spec.

fn listing(src: &str) -> String {
    match cfa::from_source(src) {
        Ok(p) => {
            let mut s = p.to_listing();
            let vars: Vec<String> = p.variables.iter().map(|v| format!("{}: {}", v.qualified, v.ty)).collect();
            s.push_str(&format!("\nvariables: {}\n", vars.join(", ")));
            for w in &p.warnings {
                s.push_str(&format!("{w}\n"));
            }
            s
        }
        Err(diags) => {
            let msgs: Vec<String> = diags.iter().map(|d| d.to_string()).collect();
            panic!("does not lower:\n{}", msgs.join("\n"))
        }
    }
}

macro_rules! golden {
    ($name:ident, $src:expr) => {
        #[test]
        fn $name() {
            insta::assert_snapshot!(stringify!($name), listing($src), $src);
        }
    };
}

golden!(
    declarations_and_assignments,
    r#"int g;
int h = 5;
int main() {
  int x = 1, y;
  unsigned char c = 300;
  y = x + h;
  x += 2;
  x *= y - 1;
  x++;
  --y;
  x = y = 0;
  c = c + 1;
  return x;
}
"#
);

golden!(
    if_else,
    r#"int main() {
  int x = __VERIFIER_nondet_int();
  int y = 0;
  if (x > 0) {
    y = 1;
  } else if (x < -5) {
    y = 2;
  } else {
    y = 3;
  }
  if (y == 2) y = 0;
  return y;
}
"#
);

golden!(
    loops,
    r#"int main() {
  int s = 0;
  int i = 0;
  while (i < 10) {
    i++;
    if (i == 3) continue;
    if (i == 8) break;
    s += i;
  }
  do {
    s--;
  } while (s > 0);
  for (int k = 0; k < 4; k++) {
    s = s + k;
  }
  for (;;) {
    if (s > 100) break;
    s++;
  }
  return s;
}
"#
);

golden!(
    goto_and_labels,
    r#"int main() {
  int x = 0;
again:
  x++;
  if (x < 5) goto again;
  goto done;
  x = 42;
done:
  return x;
}
"#
);

golden!(
    switch_with_fallthrough_and_default,
    r#"int main() {
  int x = __VERIFIER_nondet_int();
  int y = 0;
  switch (x) {
    case 1:
      y = 10;
      break;
    case 2:
      y = 20;
    case 3:
      y = y + 30;
      break;
    default:
      y = -1;
  }
  return y;
}
"#
);

golden!(
    logical_operators_in_conditions_and_values,
    r#"int main() {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
  int r = 0;
  if (a > 0 && b > 0) r = 1;
  if (a == 0 || !(b < 3)) r = 2;
  int c = a && b;
  int m = a > b ? a : b;
  while (a > 0 ? b > 0 : b < 0) { a--; b--; }
  return r + c + m;
}
"#
);

golden!(
    side_effects_in_conditions,
    r#"int f(int x) { return x + 1; }
int main() {
  int i = 0;
  int j = 0;
  while (i++ < 3 && f(j) > 0) {
    j = f(j) * 2;
  }
  return j;
}
"#
);

golden!(
    calls_and_recursion,
    r#"int fibo(int n) {
  if (n < 1) {
    return 0;
  } else if (n == 1) {
    return 1;
  } else {
    return fibo(n - 1) + fibo(n - 2);
  }
}
void count(int n) {
  if (n > 0) count(n - 1);
}
int main(void) {
  int r = fibo(5);
  count(2);
  char c = fibo(3);
  return r;
}
"#
);

golden!(
    verification_vocabulary,
    r#"extern void abort(void);
extern void exit(int);
extern int systemCall(void);
void reach_error() {}
int main() {
  unsigned int x = __VERIFIER_nondet_uint();
  int s = systemCall();
  systemCall();
  __VERIFIER_assume(x < 100 && x > 2);
  __VERIFIER_assert(x != 50);
  if (x == 7) reach_error();
  if (x == 8) abort();
  if (x == 9) exit(1);
  if (x == 10) {
    ERROR: reach_error();
  }
  return s;
}
"#
);

golden!(
    sv_comp_assert_defined_in_file,
    r#"extern void abort(void);
void reach_error() {}
void __VERIFIER_assert(int cond) {
  if (!(cond)) {
    ERROR: {reach_error();abort();}
  }
  return;
}
int main(void) {
  unsigned int x = 0;
  while (x < 0x0fffffff) {
    x++;
  }
  __VERIFIER_assert(x % 2);
  return 0;
}
"#
);

golden!(
    dead_code_and_shadowing,
    r#"int x = 1;
int main() {
  int x = 2;
  {
    int x = 3;
    x++;
  }
  return x;
  x = 5;
}
"#
);

golden!(
    static_locals_live_as_long_as_the_program,
    r#"int next(void) {
  static int count = 10;
  count++;
  return count;
}
int main() {
  int a = next();
  int b = next();
  return a + b;
}
"#
);

#[test]
fn numbering_is_deterministic() {
    let src = svcomp_tasks::task("loop-lit/gsv2008.i").source();
    let a = cfa::from_source(&src).expect("lowers");
    let b = cfa::from_source(&src).expect("lowers");
    assert_eq!(a, b);
    for (i, n) in a.nodes.iter().enumerate() {
        assert_eq!(n.id.0 as usize, i);
    }
    for (i, e) in a.edges.iter().enumerate() {
        assert_eq!(e.id.0 as usize, i);
        assert!(a.node(e.source).outgoing.contains(&e.id));
        assert!(a.node(e.target).incoming.contains(&e.id));
    }
}
