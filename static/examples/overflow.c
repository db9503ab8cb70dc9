// The integer model decides the verdict. With mathematical integers `x + 1`
// is always greater than `x`; with C's 32-bit int, INT_MAX + 1 wraps to
// INT_MIN (the page's `c` model wraps; real C calls it undefined), so the
// error is reachable when the input is 2147483647.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = x + 1;
  if (y < x) {
    reach_error();
  }
  return 0;
}
