extern void reach_error(void);

int main(void) {
  int i = 0;
  int sum = 0;
  while (i < 5) {
    sum = sum + 2;
    i = i + 1;
  }
  if (sum != 10) {
    reach_error();
  }
  return 0;
}
