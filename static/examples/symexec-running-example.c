// The running example (Fig. 1) of Jonáš, Strejček, Griggio: "Combining
// Symbolic Execution with Predicate Abstraction and CEGAR". Safe: x and y
// grow in turns while n counts down by two, so x >= y after the loop. The
// loop runs about n/2 times for an input n, so the symbolic-execution tree
// has a path for every n: plain symbolic execution never ends.
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

int main() {
  int n = __VERIFIER_nondet_int();
  int x = 0;
  int y = 0;
  __VERIFIER_assume(n >= 0);
  while (n > 0) {
    x = x + 1;
    n = n - 1;
    if (n > 0) {
      y = y + 1;
      n = n - 1;
    }
  }
  if (x < y) reach_error();
  return 0;
}
