extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
  int x = 0;
  if (a == 1 || b == 1) {
    x = 1;
  } else {
    x = 2;
  }
  if (a == 1 && a == 2) {
    reach_error();
  }
  return x;
}
