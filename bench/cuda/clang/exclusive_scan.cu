// Twin of examples/exclusive_scan.loom for clang 19 and NVRTC: y[k] = x[0] + ... + x[k - 1]
// in one launch, the inclusive scan of x shifted right by one (zero first) through
// grid_lookback.h: the chunk's sum, the look-back, then the chunk scanned again with the
// prefix as its carry.
#include "grid_lookback.h"

static __device__ inline int shifted(const int* x, int i, int hi) {
  return i < hi && i >= 1 ? x[i - 1] : 0;
}

extern "C" __global__ void __launch_bounds__(BLOCK)
exclusiveScan(int n, const int* __restrict__ x, int* __restrict__ y, unsigned long long* scratch) {
  Chunk c = grid_chunk(scratch, n);
  int aggregate = 0;
  for (int base = c.lo; base < c.hi; base += BLOCK)
    aggregate += tile_sum(shifted(x, base + threadIdx.x, c.hi));
  int carry = grid_prefix(scratch, c.ticket, aggregate);
  for (int base = c.lo; base < c.hi; base += BLOCK) {
    int i = base + threadIdx.x, total;
    int sum = tile_scan(shifted(x, i, c.hi), total);
    if (i < c.hi) y[i] = carry + sum;
    carry += total;
  }
  grid_finish(scratch);
}
