// The shape of SV-COMP's loop-invgen/down.i (safe): `i` and `k` count up
// to a nondet `n`, then `j` counts from `n` down to 0 while `k` counts
// down with it, so `k` never drops below 0. `n` is bounded, so nothing
// overflows under C's ints either. Symbolic execution unrolls both loops;
// the per-step queries see only a window of the path constraints, so a
// target is reached whose whole path is infeasible (a false alarm unless
// the target is checked before it is reported).
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 0 && n <= 40);
  int i = 0;
  int k = 0;
  while (i < n) {
    i++;
    k++;
  }
  int j = n;
  while (j > 0) {
    j--;
    k--;
    if (k < 0) {
      reach_error();
    }
  }
  return 0;
}
