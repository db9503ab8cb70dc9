extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  int x = 0;
  int y = 0;
  while (y < n) {
    x = x + 2;
    y = y + 1;
  }
  if (x != 2 * y) {
    reach_error();
  }
  int a = 0;
  int b = n;
  while (b > 0) {
    a = a + 1;
    b = b - 1;
  }
  if (n >= 0 && a + b != n) {
    reach_error();
  }
  return 0;
}
