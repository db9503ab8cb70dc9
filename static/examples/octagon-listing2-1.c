// Octagon thesis, Listing 2.1: the loop runs an
// unknown number of times; `flag` is <= 0 or > 0,
// so the ERROR label is unreachable.
extern int systemCall(void);
extern int __VERIFIER_nondet_int(void);

int main() {
  int ticks = 0;
  int flag = __VERIFIER_nondet_int();
  while (!systemCall()) {
    ticks++;
  }
  if (flag <= 0) return 0;
  if (flag > 0) return 0;
ERROR:
  return 1;
}
