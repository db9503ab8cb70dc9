// Octagon thesis, Listing 2.1: an unbounded loop before an infeasible error.
// `ticks` grows without bound, so merge^sep and merge^join never converge
// (a new octagon for every value of `ticks`); merge^widening jumps to
// `ticks >= 0` and terminates. `flag` alone decides the error: it is
// unreachable because `flag <= 0` and `flag > 0` cannot both be false.
extern int __VERIFIER_nondet_int(void);
extern int systemCall(void);

int main(void) {
  int ticks = 0;
  int flag = __VERIFIER_nondet_int();
  while (!systemCall()) {
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
