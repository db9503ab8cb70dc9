extern void reach_error(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
int main() {
  unsigned char c = __VERIFIER_nondet_uchar();
  if (c < 255) return 0;
  c = c + 1;
  if (c == 0) reach_error();
  return 0;
}
