extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

struct pair {
  int f;
  int g;
};

int main(void) {
  struct pair s1, s2;
  struct pair *p = __VERIFIER_nondet_int() ? &s1 : &s2;
  int *r = &s1.f;
  p->f = 1;
  p->g = 2;
  *r = 5;
  int v = p->f;
  if (v != 1) {
    reach_error();
  }
  return 0;
}
