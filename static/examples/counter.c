// The value analysis unrolls a loop with a known bound: every iteration has
// a different value of `i`, so merge^sep keeps one state per value and stop
// never covers until the loop exits. Raise the bound and watch the reached
// set grow; with value-join the loop head's states are joined and `i`
// loses its value (the analysis then cannot prove the assertion).
extern void reach_error(void);

int main(void) {
  int i = 0;
  int sum = 0;
  while (i < 10) {
    sum = sum + 2;
    i = i + 1;
  }
  if (sum != 20) {
    reach_error();
  }
  return 0;
}
