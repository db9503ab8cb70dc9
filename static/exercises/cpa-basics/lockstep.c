extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  int x = 0;
  int y = 0;
  while (x < n) {
    x = x + 1;
    y = y + 1;
  }
  if (x != y) {
    reach_error();
  }
  return 0;
}
