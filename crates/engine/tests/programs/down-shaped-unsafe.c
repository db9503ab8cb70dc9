// Unsafe variant of down-shaped.c: the second loop runs once more than
// the first (`j` starts at `n + 1`), so `k` drops to -1 for every `n`
// (at least 3: zero inputs do not replay, the solver must find them).
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 3 && n <= 40);
  int i = 0;
  int k = 0;
  while (i < n) {
    i++;
    k++;
  }
  int j = n + 1;
  while (j > 0) {
    j--;
    k--;
    if (k < 0) {
      reach_error();
    }
  }
  return 0;
}
