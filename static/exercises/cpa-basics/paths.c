extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
  int x = 0;
  if (__VERIFIER_nondet_int()) { x = x + 1; }
  if (__VERIFIER_nondet_int()) { x = x + 2; }
  if (__VERIFIER_nondet_int()) { x = x + 4; }
  if (__VERIFIER_nondet_int()) { x = x + 8; }
  if (x > 15) {
    reach_error();
  }
  return 0;
}
