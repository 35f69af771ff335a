// verdict: ok  block: 256
// 1-D three-point stencil with a halo loaded into shared memory, then a barrier.
__global__ void stencil(const float *in, float *out) {
  __shared__ float s[258];
  unsigned t = threadIdx.x, g = blockIdx.x * 256 + t;
  s[t + 1] = in[g + 1];
  if (t == 0) s[0] = in[g];
  if (t == 255) s[257] = in[g + 2];
  __syncthreads();
  out[g] = s[t] + s[t + 1] + s[t + 2];
}
