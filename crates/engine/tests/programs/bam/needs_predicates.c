extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int magnitude(int x) {
  if (x < 0) {
    return -x;
  }
  return x;
}
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n > 0 && n < 100) {
    int a = magnitude(n);
    int b = magnitude(n);
    if (a != b) {
      reach_error();
    }
  }
  return 0;
}
