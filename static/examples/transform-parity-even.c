// An even counter: x starts at 0 and grows by 2, as often as the input
// says. Is it ever odd? The parity domain keeps exactly "x is even";
// intervals and octagons keep only "x >= 0", which says nothing about
// x % 2.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  int x = 0;
  while (n > 0) {
    x = x + 2;
    n = n - 1;
  }
  if (x % 2 == 1) {
    reach_error();
  }
  return 0;
}
