// a + b == 3 * i at the loop head (with i <= n): interpolants enumerate
// i == 0, 1, 2, …; the affine path invariant (Karr) finds it at once.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 0) return 0;
  int a = 0, b = 0, i = 0;
  while (i < n) {
    a = a + 1;
    b = b + 2;
    i = i + 1;
  }
  if (a + b != 3 * n) reach_error();
  return 0;
}
