// Twin of examples/histogram.loom for clang 19 and NVRTC: one atomic per element in range.
#include "clang_cuda.h"

extern "C" __global__ void __launch_bounds__(BLOCK)
histogram(int n, int bins, const int* __restrict__ x, unsigned* __restrict__ hist) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n && x[i] >= 0 && x[i] < bins) atomic_add(&hist[x[i]], 1u);
}
