extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
  int x = 6;
  int n = __VERIFIER_nondet_int();
  int i = 0;
  while (i < n) {
    i = i + 1;
  }
  if (x != 6) {
    reach_error();
  }
  return 0;
}
