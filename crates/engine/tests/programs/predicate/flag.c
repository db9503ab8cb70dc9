extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main() {
  int flag = 0;
  int n = __VERIFIER_nondet_int();
  int i = 0;
  while (i < n) {
    if (i == 5) flag = 1;
    i = i + 1;
  }
  if (flag == 1 && n < 5) reach_error();
  return 0;
}
