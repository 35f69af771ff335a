// loomc's grid-wide sum and scan (src/codegen/grid.rs), written by hand for the examples' twins
// (grid_sum, exclusive_scan, compaction): a ticket per block, a chunk of positions per ticket
// walked in tiles of BLOCK, thread 0's decoupled look-back over 64-bit words (flag and value
// together), the statement over the chunk, and the last block to finish zeroing `scratch`.
// Sums only, so lanes past the end hold 0 instead of taking no part.
#pragma once
#include "clang_cuda.h"

constexpr unsigned long long AGGREGATE = 1ull << 32;
constexpr unsigned long long INCLUSIVE = 2ull << 32;

static __device__ inline unsigned to_bits(int v) { return (unsigned)v; }
static __device__ inline unsigned to_bits(float v) { return float_bits(v); }
static __device__ inline void from_bits(unsigned long long w, int& v) { v = (int)(unsigned)w; }
static __device__ inline void from_bits(unsigned long long w, float& v) { v = bits_float((unsigned)w); }

struct Chunk {
  unsigned ticket;
  int lo, hi;
};

// The block's ticket (thread 0 draws it, a shared slot and a barrier give it to every thread)
// and its chunk: ceil(ceil(n / blocks) / BLOCK) * BLOCK positions per ticket.
static __device__ inline Chunk grid_chunk(unsigned long long* scratch, int n) {
  __shared__ unsigned ticket;
  if (threadIdx.x == 0) ticket = (unsigned)atomic_add(&scratch[0], 1ull);
  __syncthreads();
  int blocks = gridDim.x;
  int per = ((n + blocks - 1) / blocks + BLOCK - 1) / BLOCK * BLOCK;
  long long lo = (long long)ticket * per, hi = lo + per;
  Chunk c;
  c.ticket = ticket;
  c.lo = lo < n ? (int)lo : n;
  c.hi = hi < n ? (int)hi : n;
  return c;
}

// The sum of one tile's values, in thread 0 (clang_cuda.h's block reduction); a barrier after,
// so the next tile may reuse the partials.
template <typename T> static __device__ inline T tile_sum(T v) {
  v = block_reduce(v, Sum{});
  __syncthreads();
  return v;
}

// Each thread's inclusive sum within one tile, and the tile's total in every thread.
template <typename T> static __device__ inline T tile_scan(T v, T& total) {
  __shared__ T totals[WARPS];
  unsigned lane = threadIdx.x % WARP, warp = threadIdx.x / WARP;
  for (int d = 1; d < WARP; d *= 2) {
    T up = shfl_up(v, d);
    if (lane >= (unsigned)d) v += up;
  }
  if (lane == WARP - 1) totals[warp] = v;
  __syncthreads();
  T before = 0;
  total = 0;
  for (unsigned w = 0; w < WARPS; ++w) {
    if (w < warp) before += totals[w];
    total += totals[w];
  }
  __syncthreads();
  return v + before;
}

// Thread 0: publishes the chunk's aggregate, walks back to the nearest inclusive word, folds
// forward from it, publishes the inclusive prefix and returns the sum of the chunks before.
template <typename T>
static __device__ inline T look_back(unsigned long long* scratch, unsigned ticket, T aggregate) {
  unsigned long long* words = scratch + 2;
  if (ticket == 0) {
    atomic_exch(&words[0], INCLUSIVE | to_bits(aggregate));
    return 0;
  }
  atomic_exch(&words[ticket], AGGREGATE | to_bits(aggregate));
  unsigned i = ticket - 1;
  unsigned long long w;
  for (;;) {
    w = atomic_read(&words[i]);
    if (w & INCLUSIVE) break;
    if (w != 0) --i;
  }
  T prefix, v;
  from_bits(w, prefix);
  for (unsigned j = i + 1; j < ticket; ++j) {
    w = atomic_read(&words[j]);
    from_bits(w, v);
    prefix = (w & INCLUSIVE) ? v : prefix + v;
  }
  atomic_exch(&words[ticket], INCLUSIVE | to_bits(prefix + aggregate));
  return prefix;
}

// The chunk's prefix in every thread: thread 0's look-back through a shared slot.
template <typename T>
static __device__ inline T grid_prefix(unsigned long long* scratch, unsigned ticket, T aggregate) {
  __shared__ T prefix;
  if (threadIdx.x == 0) prefix = look_back(scratch, ticket, aggregate);
  __syncthreads();
  return prefix;
}

// Thread 0: counts the block as finished; the last one zeroes `scratch` (BLOCKS + 2 words).
static __device__ inline void grid_finish(unsigned long long* scratch) {
  if (threadIdx.x != 0) return;
  __threadfence();
  if (atomic_add(&scratch[1], 1ull) == gridDim.x - 1)
    for (unsigned i = 0; i < gridDim.x + 2; ++i) scratch[i] = 0;
}
