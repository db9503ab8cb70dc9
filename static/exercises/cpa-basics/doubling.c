extern void reach_error(void);

int main(void) {
  int i = 0;
  int j = 0;
  while (i < 10) {
    i = i + 1;
    j = j + 2;
  }
  if (j != 20) {
    reach_error();
  }
  return 0;
}
