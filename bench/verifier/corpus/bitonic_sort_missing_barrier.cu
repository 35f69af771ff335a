// verdict: race  block: 256
// The bitonic sort with the barrier between compare-exchange steps forgotten: the pairs of one
// step overlap those of the next.
__global__ void bitonic(unsigned *keys) {
  __shared__ unsigned s[256];
  unsigned t = threadIdx.x;
  s[t] = keys[blockIdx.x * 256 + t];
  __syncthreads();
  for (unsigned k = 2; k <= 256; k <<= 1) {
    for (unsigned j = k >> 1; j > 0; j >>= 1) {
      unsigned p = t ^ j;
      if (p > t) {
        unsigned a = s[t], b = s[p];
        if (((t & k) == 0) == (a > b)) {
          s[t] = b;
          s[p] = a;
        }
      }
    }
  }
  __syncthreads();
  keys[blockIdx.x * 256 + t] = s[t];
}
