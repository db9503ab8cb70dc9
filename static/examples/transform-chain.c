// Value propagation: one input, a chain of computations that depend on it,
// and a computation that does not. Only the chain is lifted (a_mul,
// a_add, ...); `k` and `m` stay plain C, computed exactly.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
  int a = __VERIFIER_nondet_int();
  int b = a * 2;
  int c = b + 1;
  int d = c * 3;
  int k = 7;
  int m = k * 5;
  if (d % 2 == 0) {
    reach_error();
  }
  if (m != 35) {
    reach_error();
  }
  return 0;
}
