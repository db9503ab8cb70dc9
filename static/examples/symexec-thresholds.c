// Two loops that want different thresholds: the first runs exactly five
// times (symbolic execution just walks through it), the second as often as
// an input says (only abstraction ends it). The error needs s != 10 after
// the first loop, which never happens.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main() {
  int i = 0;
  int s = 0;
  while (i < 5) {
    i = i + 1;
    s = s + 2;
  }
  int n = __VERIFIER_nondet_int();
  int x = 0;
  while (x < n) {
    x = x + 1;
  }
  if (s != 10) reach_error();
  return 0;
}
