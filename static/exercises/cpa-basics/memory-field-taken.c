extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

struct pair {
  int f;
  int g;
};

int main(void) {
  struct pair s;
  struct pair *p = &s;
  int *r = &s.g;
  p->f = 1;
  p->g = 2;
  *r = 3;
  int v = p->f;
  if (v != 1) {
    reach_error();
  }
  return 0;
}
