// verdict: ok  block: 256
// The CUDA samples' reduce3: each thread adds two elements while loading, then a tree with
// sequential addressing.
__global__ void reduce3(const float *in, float *out) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * (blockDim.x * 2) + t;
  s[t] = in[i] + in[i + blockDim.x];
  __syncthreads();
  for (unsigned d = blockDim.x / 2; d > 0; d >>= 1) {
    if (t < d) s[t] += s[t + d];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
