// Safe: x stays even; the acceleration runs, finds no error, and the
// refinement goes on to the same TRUE as without it.
extern void reach_error(void);
int main(void) {
  unsigned int x = 0;
  while (x < 1000000) {
    x += 2;
  }
  if (x % 2) {
    reach_error();
  }
  return 0;
}
