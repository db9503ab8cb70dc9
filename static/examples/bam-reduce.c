extern void reach_error(void);

int dist(int from, int to) {
  if (from < to) {
    return to - from;
  }
  return from - to;
}

int main(void) {
  int total = 0;
  total = total + dist(2, 7);
  total = total + dist(2, 7);
  total = total + dist(2, 7);
  if (total != 15) {
    reach_error();
  }
  return 0;
}
