extern void reach_error(void);
int main() {
  int i = 0;
  int s = 0;
  while (i < 3) {
    int j = 0;
    while (j < 2) {
      s = s + 1;
      j = j + 1;
    }
    i = i + 1;
  }
  if (s != 6) reach_error();
  return 0;
}
