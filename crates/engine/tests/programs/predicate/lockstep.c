extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main() {
  int x = 0;
  int y = 0;
  while (__VERIFIER_nondet_int()) {
    x = x + 1;
    y = y + 1;
  }
  if (x != y) reach_error();
  return 0;
}
