extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int sum(int k) {
  if (k <= 0) return 0;
  return k + sum(k - 1);
}
int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 100) return 0;
  int s = sum(n);
  if (s < 0) reach_error();
  return 0;
}
