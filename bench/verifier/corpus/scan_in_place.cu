// verdict: race  block: 128
// The Hillis-Steele scan done in place: a thread adds s[t - d] while thread t - d updates it.
__global__ void scan(const float *in, float *out) {
  __shared__ float s[128];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * 128 + t];
  __syncthreads();
  for (unsigned d = 1; d < 128; d *= 2) {
    if (t >= d) s[t] += s[t - d];
    __syncthreads();
  }
  out[blockIdx.x * 128 + t] = s[t];
}
