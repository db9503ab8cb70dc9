extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
  int x = __VERIFIER_nondet_int();
  int r = 0;
  while (r < 2) {
    int c = 0;
    while (c < 2) {
      c++;
    }
    r++;
  }
  if (x == 5) reach_error();
  return 0;
}
