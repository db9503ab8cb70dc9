extern void reach_error(void);
int inc(int a) { return a + 1; }
int main() {
  int x = 0;
  while (x < 3) { x = inc(x); }
  if (x != 3) reach_error();
  return 0;
}
