// The Constraints CPA strengthens with the symbolic values: a condition is
// encoded over what the variables hold (`y` holds 3·x₁), and an assumed
// equality (`x₁ = 7`) makes x₁ explicit everywhere, so `y` becomes 21.
// No octagon relates y and x (the coefficient is 3) and explicit values
// know neither: both report an error here; symbolic execution proves it.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = 3 * x;
  if (x == 7) {
    if (y != 21) {
      reach_error();
    }
  }
  if (y == 3 * x + 1) {
    reach_error();
  }
  return 0;
}
