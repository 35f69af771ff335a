// verdict: ok  block: 128
// Work-group inclusive scan in __local memory (Hillis-Steele, as in the OpenCL scan samples'
// naive kernel): read the partner, barrier, add, barrier.
__kernel void scan(__global const float *in, __global float *out) {
  __local float s[128];
  size_t l = get_local_id(0);
  s[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t d = 1; d < 128; d *= 2) {
    float x = l >= d ? s[l - d] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    s[l] += x;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = s[l];
}
