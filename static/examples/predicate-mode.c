extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  int i = 0;
  int mode = 0;
  int x = 0;
  while (i < n) {
    if (__VERIFIER_nondet_int()) {
      mode = 1;
      x = x + 1;
    } else {
      mode = 0;
      x = 0;
    }
    i = i + 1;
  }
  if (mode == 0 && x != 0) {
    reach_error();
  }
  return 0;
}
