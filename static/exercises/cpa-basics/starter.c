extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
  int i = 0;
  // Write a loop here, and a check that calls reach_error() only when
  // something impossible happens.
  return 0;
}
