extern void reach_error(void);
int main() {
  int i = 0;
  while (i < 2) { i = i + 1; }
  if (i == 2) reach_error();
  return 0;
}
