// The octagon thesis's footnote case: `x` is nondeterministic, so the
// explicit-value analysis never knows its value and explicit-value
// interpolation cannot refute the error path; the octagon sees that
// `x > 5` and `x < 3` contradict each other. The loop counter `n` plays no
// part in the property and CEGAR never tracks it.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern int systemCall(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int n = 0;
  while (!systemCall()) {
    n++;
  }
  if (x > 5) {
    if (x < 3) {
      reach_error();
    }
  }
  return 0;
}
