// merge^join forgets which branch was taken. After the `if`, the value
// analysis with merge^sep keeps two states (c = 0, x = 2) and (c = 1, x = 1),
// so it sees that `c == 1 && x == 2` is impossible. With merge^join the two
// states become one where neither `c` nor `x` has a known value, and the
// check looks reachable: a false alarm bought with fewer states.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
  int c = __VERIFIER_nondet_int();
  int x;
  if (c == 1) {
    x = 1;
  } else {
    c = 0;
    x = 2;
  }
  if (c == 1 && x == 2) {
    reach_error();
  }
  return 0;
}
