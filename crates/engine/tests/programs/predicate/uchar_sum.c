extern void reach_error(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
/* An unsigned char sum of n inputs: over mathematical integers the sum is
   never below the last input, in C it wraps after two large inputs. */
int main() {
  unsigned char n = __VERIFIER_nondet_uchar();
  unsigned char last = 0;
  unsigned char sum = 0;
  unsigned int k = 0;
  while (k < n) {
    last = __VERIFIER_nondet_uchar();
    sum = sum + last;
    k = k + 1;
  }
  if (sum < last) reach_error();
  return 0;
}
