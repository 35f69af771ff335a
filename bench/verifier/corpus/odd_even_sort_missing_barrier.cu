// verdict: race  block: 128
// The odd-even transposition sort without its barrier: thread 1 of an odd phase exchanges
// s[1] and s[2] while thread 0 of the even phase before it still exchanges s[0] and s[1].
__global__ void odd_even(int *keys) {
  __shared__ int s[128];
  unsigned t = threadIdx.x;
  s[t] = keys[blockIdx.x * 128 + t];
  __syncthreads();
  for (unsigned p = 0; p < 128; p++) {
    if ((t & 1) == (p & 1) && t + 1 < 128) {
      int a = s[t], b = s[t + 1];
      if (a > b) {
        s[t] = b;
        s[t + 1] = a;
      }
    }
  }
  __syncthreads();
  keys[blockIdx.x * 128 + t] = s[t];
}
