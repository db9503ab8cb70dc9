// Two phases of one loop: 500000 iterations of the first branch, then
// 500000 of the second; y catches up with x exactly at the end.
extern void reach_error(void);
int main(void) {
  int x = 0;
  int y = 500000;
  while (x < 1000000) {
    if (x < 500000) {
      x = x + 1;
    } else {
      x = x + 1;
      y = y + 1;
    }
  }
  if (y == x) {
    reach_error();
  }
  return 0;
}
