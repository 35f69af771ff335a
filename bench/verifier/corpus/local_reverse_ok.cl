// verdict: ok  block: 64
// Reverse a work-group's elements through a __local buffer passed as a kernel parameter.
__kernel void reverse(__global float *out, __global const float *in, __local float *tmp) {
  size_t l = get_local_id(0), g = get_global_id(0), n = get_local_size(0);
  tmp[l] = in[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = tmp[n - 1 - l];
}
