// Counts i up to 5; the error needs i != 5 after the loop.
extern void reach_error(void);

int main() {
  int i = 0;
  while (i < 5) {
    i = i + 1;
  }
  if (i != 5) reach_error();
  return 0;
}
