// verdict: ok  block: 256
// Each thread updates its own element (the grid-stride saxpy of the CUDA samples, one pass).
__global__ void saxpy(float *y, const float *x, float a) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  y[g] = a * x[g] + y[g];
}
