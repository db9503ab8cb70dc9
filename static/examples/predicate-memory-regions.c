extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

struct S {
  int f;
  char g;
  int h;
};

int main(void) {
  struct S s1, s2;
  struct S *p = __VERIFIER_nondet_int() ? &s1 : &s2;
  struct S *q = __VERIFIER_nondet_int() ? &s1 : &s2;
  int a = __VERIFIER_nondet_int();
  p->f = a;
  q->g = 'x';
  p->h = 7;
  if (p->f != a) {
    reach_error();
  }
  return 0;
}
