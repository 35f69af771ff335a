// verdict: ok  block: 256
// The CUDA samples' reduce0: interleaved addressing, the active threads chosen by a modulo.
__global__ void reduce0(const float *in, float *out) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned d = 1; d < blockDim.x; d *= 2) {
    if (t % (2 * d) == 0) s[t] += s[t + d];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
