// The error is reached only through wrap-around: in C the unsigned char c
// ends at 300000 mod 256 = 224 (over mathematical integers at 300000).
extern void reach_error(void);
int main(void) {
  unsigned char c = 0;
  unsigned int n = 0;
  while (n < 300000) {
    c = c + 1;
    n = n + 1;
  }
  if (c == 224) {
    reach_error();
  }
  return 0;
}
