extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int twice(int v) {
  return v + v;
}

int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = twice(x);
  if (y != x + x) {
    reach_error();
  }
  int z = twice(3);
  if (z != 6) {
    reach_error();
  }
  return 0;
}
