extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
  int x = 1;
  int y = __VERIFIER_nondet_int();
  int z;
  if (y > 0) {
    z = 1;
  } else {
    z = 2;
  }
  if (x != 1) {
    reach_error();
  }
  return z;
}
