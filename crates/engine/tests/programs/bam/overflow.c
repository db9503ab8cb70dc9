extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int twice(int x) {
  return x + x;
}
int main(void) {
  int a = twice(2000000000);
  int b = twice(2000000000);
  if (a != b) {
    reach_error();
  }
  return 0;
}
