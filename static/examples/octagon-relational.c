// Octagon thesis: a relational invariant. After `y = |x|`, the octagon keeps
// `y - x >= 0` and `y + x >= 0`, so `y <= 69` implies `-69 <= x <= 69`.
// Intervals and explicit values lose the link between `x` and `y`.
// (Mathematical integers: under C's int, `-x` of INT_MIN overflows.)
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = x;
  if (y < 0) {
    y = -y;
  }
  if (y <= 69) {
    if (x < -70 || x > 70) {
      reach_error();
    }
  }
  return 0;
}
