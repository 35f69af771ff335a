// Twin of examples/compaction.loom for clang 19 and NVRTC: the positive elements of x, in
// order, at the front of out (each at its flag's inclusive scan minus one, through
// grid_lookback.h), and their number in count[0] (a grid-wide sum of the flags, with scratch of
// its own).
#include "grid_lookback.h"

static __device__ inline int kept(const float* x, int i, int hi) { return i < hi && x[i] > 0.0f; }

extern "C" __global__ void __launch_bounds__(BLOCK)
compact(int n, const float* __restrict__ x, float* __restrict__ out, int* __restrict__ count,
        unsigned long long* keep, unsigned long long* total) {
  Chunk c = grid_chunk(keep, n);
  int aggregate = 0;
  for (int base = c.lo; base < c.hi; base += BLOCK) aggregate += tile_sum(kept(x, base + threadIdx.x, c.hi));
  int carry = grid_prefix(keep, c.ticket, aggregate);
  for (int base = c.lo; base < c.hi; base += BLOCK) {
    int i = base + threadIdx.x, tile;
    int position = carry + tile_scan(kept(x, i, c.hi), tile) - 1;
    if (i < c.hi && x[i] > 0.0f && position >= 0 && position < n) out[position] = x[i];
    carry += tile;
  }
  grid_finish(keep);

  Chunk d = grid_chunk(total, n);
  int flags = 0;
  for (int base = d.lo; base < d.hi; base += BLOCK) flags += tile_sum(kept(x, base + threadIdx.x, d.hi));
  int before = grid_prefix(total, d.ticket, flags);
  if (threadIdx.x == 0 && d.lo < d.hi && d.hi == n) count[0] = before + flags;
  grid_finish(total);
}
