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
  if (n > 0 && y != n) {
    reach_error();
  }
  return 0;
}
