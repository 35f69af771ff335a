// Twin of examples/collatz.loom for clang 19 and NVRTC: scalar code, one call per block.
#include "clang_cuda.h"

static __device__ int collatzSteps(long long start) {
  long long n = start;
  int steps = 0;
  while (n != 1) {
    n = n % 2 == 0 ? n / 2 : 3 * n + 1;
    steps++;
  }
  return steps;
}

extern "C" __global__ void __launch_bounds__(BLOCK) collatz(long long first, int* __restrict__ out) {
  if (threadIdx.x == 0) out[blockIdx.x] = collatzSteps(first + blockIdx.x);
}
