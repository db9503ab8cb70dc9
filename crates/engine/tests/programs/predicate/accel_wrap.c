// Over mathematical integers c ends at 300000 and the error is reached;
// in C an unsigned char wraps around (c ends at 300000 mod 256 = 224) and
// the error is unreachable: acceleration must not jump over the wrap.
extern void reach_error(void);
int main(void) {
  unsigned char c = 0;
  unsigned int n = 0;
  while (n < 300000) {
    c = c + 1;
    n = n + 1;
  }
  if (c == 300000) {
    reach_error();
  }
  return 0;
}
