extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
  int a = __VERIFIER_nondet_int();
  int x = 0;
  int y = 0;
  if (a > 0) {
    x = 1;
  }
  if (a > 0) {
    y = 1;
  }
  if (x != y) {
    reach_error();
  }
  return 0;
}
