extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int g = 0;
int inc(int x) {
  int y = x + 1;
  return y;
}
int main(void) {
  int a = 0;
  a = inc(a);
  a = inc(0);
  int b = inc(0);
  int c = inc(0);
  int d = inc(0);
  if (a + b + c + d != 4) { reach_error(); }
  return 0;
}
