// The solver's theory decides: over unbounded integers (INTEGER) `x > 0`
// and `x + 1 <= 0` cannot both hold, so the error looks unreachable; over
// 32-bit bit-vectors (BITVECTOR, exact for C's `int` in the playground's `c`
// model) x = 2147483647 wraps `x + 1` around to -2147483648 and reaches it.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x > 0) {
    int y = x + 1;
    if (y <= 0) {
      reach_error();
    }
  }
  return 0;
}
