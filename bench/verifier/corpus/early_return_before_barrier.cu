// verdict: barrier  block: 256
// Threads past the end of the data return before the block's barrier.
__global__ void early(const float *in, float *out, unsigned n) {
  __shared__ float s[256];
  unsigned g = blockIdx.x * 256 + threadIdx.x;
  if (g >= n) return;
  s[threadIdx.x] = in[g];
  __syncthreads();
  out[g] = s[(threadIdx.x + 1) % 256];
}
