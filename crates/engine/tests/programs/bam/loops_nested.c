extern void reach_error(void);
int main() {
  int n = 0;
  int k = 0;
  while (k < 3) {
    int j = 0;
    while (j < 2) {
      j++;
    }
    n = n + j;
    k++;
  }
  if (n != 6) reach_error();
  return 0;
}
