// verdict: ok  block: 256
// Each block scales its own slice of the output, reading only the input.
__global__ void chain(const float *in, float *out) {
  unsigned i = blockIdx.x * 256 + threadIdx.x;
  out[i] = 2.0f * in[i];
}
