// verdict: ok  block: 256
// Each block's thread 0 writes the block's own output element (a per-block partial sum).
__global__ void partial(const float *in, float *out) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * 256 + t];
  __syncthreads();
  if (t == 0) {
    float sum = 0;
    for (unsigned i = 0; i < 256; i++) sum += s[i];
    out[blockIdx.x] = sum;
  }
}
