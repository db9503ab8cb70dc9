extern void reach_error(void);

int main(void) {
  int i = 0;
  while (i < 100) {
    i = i + 1;
  }
  if (i > 100) {
    reach_error();
  }
  return 0;
}
