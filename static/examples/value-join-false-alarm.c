extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
  int c = __VERIFIER_nondet_int();
  int x;
  if (c == 1) {
    x = 1;
  } else {
    c = 0;
    x = 2;
  }
  if (c == 1 && x == 2) {
    reach_error();
  }
  return 0;
}
