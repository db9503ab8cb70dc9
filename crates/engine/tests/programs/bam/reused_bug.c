extern void reach_error(void);
int next(int x) {
  int y = x + 1;
  return y;
}
int main(void) {
  int a = next(0);
  int b = next(0);
  if (a + b == 2) {
    reach_error();
  }
  return 0;
}
