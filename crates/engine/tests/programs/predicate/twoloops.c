extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main() {
  int x = 0;
  int y = 0;
  int n = __VERIFIER_nondet_int();
  while (x < n) { x = x + 1; }
  while (y < x) { y = y + 1; }
  if (n > 0 && y < n) reach_error();
  return 0;
}
