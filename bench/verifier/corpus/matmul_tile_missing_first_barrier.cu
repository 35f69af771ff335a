// verdict: race  block: 16,16  grid: 64,64
// The tiled multiply without its first barrier: a thread reads as[ty][i] and bs[i][tx] before
// the threads that load them have stored them (twin of matmul_tile_ok.cu).
__global__ void matmul(const float *a, const float *b, float *c) {
  __shared__ float as[16][16], bs[16][16];
  unsigned tx = threadIdx.x, ty = threadIdx.y;
  unsigned row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float sum = 0;
  for (unsigned k = 0; k < 1024; k += 16) {
    as[ty][tx] = a[row * 1024 + k + tx];
    bs[ty][tx] = b[(k + ty) * 1024 + col];
    for (unsigned i = 0; i < 16; i++) sum += as[ty][i] * bs[i][tx];
    __syncthreads();
  }
  c[row * 1024 + col] = sum;
}
