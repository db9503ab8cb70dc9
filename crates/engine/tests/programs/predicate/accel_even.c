// The error needs the loop to run 134217728 times: x is even after it.
extern void reach_error(void);
int main(void) {
  unsigned int x = 0;
  while (x < 0x0fffffff) {
    x += 2;
  }
  if (!(x % 2)) {
    reach_error();
  }
  return 0;
}
