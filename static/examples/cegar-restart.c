// `seen` becomes 1 in the sixth iteration, so it is 1 when the loop ends.
// Widening forgets when: an error path that no execution takes. A
// counterexample check finds it spurious (UNKNOWN); the restart algorithm
// then switches to octagon CEGAR, which proves the program.
extern void reach_error(void);

int main(void) {
  int i = 0;
  int seen = 0;
  while (i < 10) {
    if (i == 5) {
      seen = 1;
    }
    i++;
  }
  if (seen != 1) {
    reach_error();
  }
  return 0;
}
