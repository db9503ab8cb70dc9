// An abstract value stored in an array cell and a struct field: memory
// keeps its layout (each cell holds a concrete placeholder), and the
// abstract value goes to the cell's entry in the shadow map (freeze); a
// read of the cell gives it back (thaw).
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

struct pair {
  int first;
  int second;
};

int main(void) {
  int a[3] = {0, 0, 0};
  struct pair p;
  int x = __VERIFIER_nondet_int();
  a[0] = 2 * x;
  a[1] = 3;
  p.second = a[0] + a[1];
  if (p.second % 2 == 0) {
    reach_error();
  }
  return 0;
}
