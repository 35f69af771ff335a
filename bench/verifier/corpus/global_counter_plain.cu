// verdict: interblock  block: 256
// Thread 0 of every block bumps one global counter with a plain read-modify-write.
__global__ void count(unsigned *counter) {
  if (threadIdx.x == 0) *counter = *counter + 1;
}
