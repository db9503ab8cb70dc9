// A path that is p-feasible but not feasible: x and y start equal and grow
// together, so x != y never holds. With no predicates the abstraction at
// the loop head forgets that they are equal, and the error path becomes
// possible — until CEGAR checks it and adds the predicate x == y.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main() {
  int x = __VERIFIER_nondet_int();
  int y = x;
  while (__VERIFIER_nondet_int()) {
    x = x + 1;
    y = y + 1;
  }
  if (x != y) reach_error();
  return 0;
}
