// Twin of examples/grid_sum.loom for clang 19 and NVRTC: the sum of the whole array in one
// launch, through grid_lookback.h; the block of the last chunk stores it.
#include "grid_lookback.h"

extern "C" __global__ void __launch_bounds__(BLOCK)
gridSum(int n, const float* __restrict__ x, float* __restrict__ total, unsigned long long* scratch) {
  Chunk c = grid_chunk(scratch, n);
  float aggregate = 0.0f;
  for (int base = c.lo; base < c.hi; base += BLOCK) {
    int i = base + threadIdx.x;
    aggregate += tile_sum(i < c.hi ? x[i] : 0.0f);
  }
  float prefix = grid_prefix(scratch, c.ticket, aggregate);
  if (threadIdx.x == 0 && c.lo < c.hi && c.hi == n) total[0] = prefix + aggregate;
  grid_finish(scratch);
}
