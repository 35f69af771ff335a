// verdict: ok  block: 128
// Block-wide odd-even transposition sort: in phase p, the threads t with t % 2 == p % 2
// compare-exchange s[t] and s[t + 1]; a barrier ends every phase.
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
    __syncthreads();
  }
  keys[blockIdx.x * 128 + t] = s[t];
}
