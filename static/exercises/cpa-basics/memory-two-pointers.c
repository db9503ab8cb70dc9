extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

struct point {
  int x;
  int y;
};

int main(void) {
  struct point s1, s2;
  struct point *p = __VERIFIER_nondet_int() ? &s1 : &s2;
  struct point *q = __VERIFIER_nondet_int() ? &s1 : &s2;
  p->x = 1;
  q->y = 2;
  q->x = 3;
  int v = p->x;
  if (v != 1 && v != 3) {
    reach_error();
  }
  return 0;
}
