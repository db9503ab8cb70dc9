extern void reach_error(void);
int depth(int n) {
  if (n <= 0) {
    return 0;
  }
  return 1 + depth(n - 1);
}
int main(void) {
  int r = depth(3);
  if (r == 3) {
    reach_error();
  }
  return 0;
}
