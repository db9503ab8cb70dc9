// The running example of Jonáš, Strejček, Griggio, "Combining Symbolic
// Execution with Predicate Abstraction and CEGAR" (Fig. 1), in mini-C:
// safe, but its symbolic-execution tree is infinite (the loop runs n/2
// times for an input n). x and y grow alternately, so x >= y at the end.
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
