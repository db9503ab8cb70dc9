extern void reach_error(void);

/* Counts up to n in a loop: the body of the block BAM caches. */
int count(int n) {
  int i = 0;
  while (i < n) {
    i = i + 1;
  }
  return i;
}

int main(void) {
  int a = count(3);
  int b = count(3);
  int c = count(3);
  int d = count(3);
  int e = count(3);
  if (a + b + c + d + e != 15) {
    reach_error();
  }
  return 0;
}
