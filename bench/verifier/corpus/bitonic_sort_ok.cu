// verdict: ok  block: 256
// Block-wide bitonic sort of 256 keys in shared memory (the CUDA samples' sortingNetworks,
// bitonicSortShared), a barrier after every compare-exchange step.
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
      __syncthreads();
    }
  }
  keys[blockIdx.x * 256 + t] = s[t];
}
