// Runs bench/opencl/kernels.cl through OpenCL (PoCL on the CPU) for bench/cpu_backend.rs, which
// drives it over a pipe so that its runs interleave with the others of the same benchmark run.
//
//   pocl_bench KERNELS.cl
//
// Prints one line naming the platform and device, then answers each line `saxpy N` or
// `sumOfSquares N` on standard input with the seconds one launch took: clEnqueueNDRangeKernel to
// clFinish, 256 work-items per group, the program built and the buffers made beforehand (host
// memory the device uses in place, CL_MEM_USE_HOST_PTR). The inputs are those of
// bench/cpu_backend.rs; the first launch of each kernel and size is checked against a plain C
// loop. Any error ends it with exit 1 and a message on standard error.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define GROUP 256
#define SLOTS 8

static void fail(const char *what, cl_int err) {
  fprintf(stderr, "pocl_bench: %s failed (OpenCL error %d)\n", what, (int)err);
  exit(1);
}
#define CHECK(call)                   \
  do {                                \
    cl_int err_ = (call);             \
    if (err_ != CL_SUCCESS) fail(#call, err_); \
  } while (0)

static cl_context context;
static cl_command_queue queue;
static cl_kernel saxpy, squares;

// The buffers of one kernel at one size, made at its first launch.
struct slot {
  int squares;
  long n;
  float *a, *b;  // saxpy: x, y; sumOfSquares: in, out
  cl_mem da, db;
  int checked;
};
static struct slot slots[SLOTS];
static int used;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static float *host_array(long n) {
  // 4 KiB aligned, as PoCL wants host memory it uses in place.
  void *p = NULL;
  if (posix_memalign(&p, 4096, (size_t)n * sizeof(float)) != 0) {
    fprintf(stderr, "pocl_bench: out of memory for %ld floats\n", n);
    exit(1);
  }
  return p;
}

static cl_mem device_view(float *host, long n, cl_mem_flags flags) {
  cl_int err;
  cl_mem m = clCreateBuffer(context, flags | CL_MEM_USE_HOST_PTR, (size_t)n * sizeof(float), host, &err);
  if (err != CL_SUCCESS) fail("clCreateBuffer", err);
  return m;
}

static struct slot *slot_for(int is_squares, long n) {
  for (int i = 0; i < used; i++)
    if (slots[i].squares == is_squares && slots[i].n == n) return &slots[i];
  if (used == SLOTS) {
    fprintf(stderr, "pocl_bench: more than %d kernel sizes\n", SLOTS);
    exit(1);
  }
  struct slot *s = &slots[used++];
  s->squares = is_squares;
  s->n = n;
  s->a = host_array(n);
  s->b = host_array(is_squares ? n / GROUP : n);
  // The inputs of bench/cpu_backend.rs.
  for (long i = 0; i < n; i++) s->a[i] = (float)(i % 1000) * 1e-3f;
  for (long i = 0; !is_squares && i < n; i++) s->b[i] = 1.0f - (float)(i % 7);
  s->da = device_view(s->a, n, CL_MEM_READ_ONLY);
  s->db = device_view(s->b, is_squares ? n / GROUP : n, is_squares ? CL_MEM_WRITE_ONLY : CL_MEM_READ_WRITE);
  s->checked = 0;
  return s;
}

// Maps a buffer for reading, so that the host sees what the kernel wrote.
static void sync_host(cl_mem m, long n) {
  cl_int err;
  void *p = clEnqueueMapBuffer(queue, m, CL_TRUE, CL_MAP_READ, 0, (size_t)n * sizeof(float), 0, NULL, NULL, &err);
  if (err != CL_SUCCESS) fail("clEnqueueMapBuffer", err);
  CHECK(clEnqueueUnmapMemObject(queue, m, p, 0, NULL, NULL));
  CHECK(clFinish(queue));
}

static double launch(int is_squares, long n) {
  struct slot *s = slot_for(is_squares, n);
  const float a = 2.5f;
  const int n32 = (int)n;
  cl_kernel k = is_squares ? squares : saxpy;
  if (is_squares) {
    CHECK(clSetKernelArg(k, 0, sizeof(cl_mem), &s->da));
    CHECK(clSetKernelArg(k, 1, sizeof(cl_mem), &s->db));
  } else {
    CHECK(clSetKernelArg(k, 0, sizeof(int), &n32));
    CHECK(clSetKernelArg(k, 1, sizeof(float), &a));
    CHECK(clSetKernelArg(k, 2, sizeof(cl_mem), &s->da));
    CHECK(clSetKernelArg(k, 3, sizeof(cl_mem), &s->db));
  }
  size_t global = (size_t)(n + GROUP - 1) / GROUP * GROUP, local = GROUP;
  double t = now();
  CHECK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK(clFinish(queue));
  double seconds = now() - t;
  if (!s->checked) {
    s->checked = 1;
    sync_host(s->db, is_squares ? n / GROUP : n);
    for (long i = 0; i < (is_squares ? n / GROUP : n); i++) {
      double want = 0;
      if (is_squares)
        for (long j = i * GROUP; j < (i + 1) * GROUP; j++) want += (double)s->a[j] * s->a[j];
      else
        want = (double)a * s->a[i] + (1.0 - (double)(i % 7));
      if (fabs(s->b[i] - want) > 1e-5 * fabs(want) + 1e-6) {
        fprintf(stderr, "pocl_bench: %s element %ld is %g, not %g\n", is_squares ? "sumOfSquares" : "saxpy", i,
                (double)s->b[i], want);
        exit(1);
      }
    }
  }
  return seconds;
}

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    exit(1);
  }
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  rewind(f);
  char *text = malloc(size + 1);
  if (!text || fread(text, 1, size, f) != (size_t)size) {
    fprintf(stderr, "pocl_bench: cannot read %s\n", path);
    exit(1);
  }
  text[size] = 0;
  fclose(f);
  return text;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: pocl_bench KERNELS.cl\n");
    return 2;
  }
  cl_platform_id platform;
  cl_device_id device;
  cl_uint count;
  cl_int err;
  CHECK(clGetPlatformIDs(1, &platform, &count));
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &device, &count));
  char version[256] = "", name[256] = "";
  CHECK(clGetPlatformInfo(platform, CL_PLATFORM_VERSION, sizeof version, version, NULL));
  CHECK(clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, NULL));
  context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  if (err != CL_SUCCESS) fail("clCreateContext", err);
  queue = clCreateCommandQueue(context, device, 0, &err);
  if (err != CL_SUCCESS) fail("clCreateCommandQueue", err);
  const char *source = read_file(argv[1]);
  cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
  if (err != CL_SUCCESS) fail("clCreateProgramWithSource", err);
  if (clBuildProgram(program, 1, &device, "", NULL, NULL) != CL_SUCCESS) {
    char log[16384] = "";
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "pocl_bench: %s does not build:\n%s\n", argv[1], log);
    return 1;
  }
  saxpy = clCreateKernel(program, "saxpy", &err);
  if (err != CL_SUCCESS) fail("clCreateKernel(saxpy)", err);
  squares = clCreateKernel(program, "sumOfSquares", &err);
  if (err != CL_SUCCESS) fail("clCreateKernel(sumOfSquares)", err);
  printf("%s, %s\n", version, name);
  fflush(stdout);
  char line[256], kernel[64];
  long n;
  while (fgets(line, sizeof line, stdin)) {
    if (sscanf(line, "%63s %ld", kernel, &n) != 2 || n <= 0 || n % GROUP != 0 || n > 0x7fffffffL) {
      fprintf(stderr, "pocl_bench: expected `saxpy N` or `sumOfSquares N` (N a positive multiple of %d), got %s",
              GROUP, line);
      return 1;
    }
    int is_squares = strcmp(kernel, "sumOfSquares") == 0;
    if (!is_squares && strcmp(kernel, "saxpy") != 0) {
      fprintf(stderr, "pocl_bench: no kernel %s\n", kernel);
      return 1;
    }
    printf("%.9f\n", launch(is_squares, n));
    fflush(stdout);
  }
  return 0;
}
