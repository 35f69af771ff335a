// verdict: ok  block: 256
// The same without the early return: the loads are guarded, the barrier is reached by all.
__global__ void guarded(const float *in, float *out, unsigned n) {
  __shared__ float s[256];
  unsigned g = blockIdx.x * 256 + threadIdx.x;
  s[threadIdx.x] = g < n ? in[g] : 0.0f;
  __syncthreads();
  if (g < n) out[g] = s[(threadIdx.x + 1) % 256];
}
