extern void reach_error(void);
void down(int k) {
  if (k < 5) return;
  k = k - 1;
  down(k);
  reach_error();
}
int main() {
  down(3);
  return 0;
}
