extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main() {
  int a = 0;
  int b = 1;
  while (__VERIFIER_nondet_int()) {
    int t = a;
    a = b;
    b = t;
  }
  if (a == b) reach_error();
  return 0;
}
