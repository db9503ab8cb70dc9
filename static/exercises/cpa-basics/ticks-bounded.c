// Listing 2.1 with its loop bounded: every merge operator terminates, and the
// shape of the thesis's Table 3.1 appears: merge^sep keeps one state per
// value of `ticks` (the reached set grows with the bound), merge^join keeps
// one state per location but creates many states on the way, and
// merge^widening creates only a handful.
extern int __VERIFIER_nondet_int(void);
extern int systemCall(void);

int main(void) {
  int ticks = 0;
  int flag = __VERIFIER_nondet_int();
  while (!systemCall() && ticks < 100) {
    ticks++;
  }
  if (flag <= 0) {
    return 0;
  }
  if (flag > 0) {
    return 0;
  }
ERROR:
  return 1;
}
