// verdict: ok  block: 128
// Hillis-Steele inclusive scan with two buffers (GPU Gems 3, ch. 39, the naive scan).
__global__ void scan(const float *in, float *out) {
  __shared__ float buf[2][128];
  unsigned t = threadIdx.x;
  int from = 0;
  buf[0][t] = in[blockIdx.x * 128 + t];
  __syncthreads();
  for (unsigned d = 1; d < 128; d *= 2) {
    int to = 1 - from;
    buf[to][t] = t >= d ? buf[from][t] + buf[from][t - d] : buf[from][t];
    __syncthreads();
    from = to;
  }
  out[blockIdx.x * 128 + t] = buf[from][t];
}
