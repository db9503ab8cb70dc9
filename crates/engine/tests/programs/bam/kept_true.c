extern void reach_error(void);
int noise(int k) {
  int t = k * 2;
  return t - k;
}
int inc(int x) {
  return x + 1;
}
int main(void) {
  int z = noise(5);
  int a = 0;
  a = inc(a);
  if (a == 1) {
    if (z != 5) {
      reach_error();
    }
  } else {
    reach_error();
  }
  return 0;
}
