extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int g = 0;
void wait(int t) {
  int c = 0;
  while (c < 2) {
    c++;
  }
  g = g + t;
}
int main() {
  int a = __VERIFIER_nondet_int();
  wait(1);
  wait(2);
  wait(3);
  if (g != 6) reach_error();
  return 0;
}
