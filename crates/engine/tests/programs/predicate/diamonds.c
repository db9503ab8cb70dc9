// Ten sequential branches in one block: ABE merges them into one state per
// location (each merged-in state is covered by the merge result).
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
  int y = 0;
  if (__VERIFIER_nondet_int()) { y = y + 1; }
  if (__VERIFIER_nondet_int()) { y = y + 2; }
  if (__VERIFIER_nondet_int()) { y = y + 3; }
  if (__VERIFIER_nondet_int()) { y = y + 4; }
  if (__VERIFIER_nondet_int()) { y = y + 5; }
  if (__VERIFIER_nondet_int()) { y = y + 6; }
  if (__VERIFIER_nondet_int()) { y = y + 7; }
  if (__VERIFIER_nondet_int()) { y = y + 8; }
  if (__VERIFIER_nondet_int()) { y = y + 9; }
  if (__VERIFIER_nondet_int()) { y = y + 10; }
  if (y < 0) reach_error();
  return 0;
}
