extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main() {
  int x = __VERIFIER_nondet_int();
  if (x > 0) {
    int y = x + 1;
    if (y <= 0) reach_error();
  }
  return 0;
}
