extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int abs_(int v) { if (v < 0) return -v; return v; }
int main() {
  int x = __VERIFIER_nondet_int();
  if (x < -1000 || x > 1000) return 0;
  int y = abs_(x);
  if (y < 0) reach_error();
  return 0;
}
