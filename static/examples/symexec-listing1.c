// Symbolic execution in CPAchecker, Listing 1.
// `b` is `a` or `a + 1`, so `b < a` never holds. The value analysis cannot
// keep the relation between `a` and `b` (neither has a known value) and
// reports an (unconfirmed) violation; octagons keep `0 <= b - a <= 1` and
// symbolic execution keeps `b = a₁` or `b = a₁ + 1` under constraints on `a₁`
// (the value __VERIFIER_nondet_int() gave `a`).
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
  int a = __VERIFIER_nondet_int();
  int b;
  if (a >= 0) {
    b = a;
  } else {
    b = a + 1;
  }
  if (b < a) {
    reach_error();
  }
  return 0;
}
