// A global holds an abstract value: memory keeps its layout, so the
// abstract value goes to the global's shadow slot (freeze) and comes back
// from it when read (thaw) — here across a function call.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int g;

void add(int v) {
  g = g + v;
}

int main(void) {
  int x = __VERIFIER_nondet_int();
  g = 2 * x;
  add(4);
  if (g % 2 == 1) {
    reach_error();
  }
  return 0;
}
