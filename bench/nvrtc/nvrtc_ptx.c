// nvrtc_ptx LIBNVRTC SOURCE.cu OUTPUT.ptx [OPTION...]: compiles one CUDA source to PTX with
// NVRTC, as a process of its own, so that scripts/bench-compile can time it whole beside loomc
// and clang (NVRTC is a library: a program that uses it pays for loading it, as this one does).
// The library is opened by path (the pip wheel's, from scripts/setup): nothing here needs CUDA's
// headers or a GPU.
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

typedef int (*create_fn)(void **, const char *, const char *, int, const char *const *,
                         const char *const *);
typedef int (*compile_fn)(void *, int, const char *const *);
typedef int (*size_fn)(void *, size_t *);
typedef int (*get_fn)(void *, char *);

static char *read_all(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc((size_t)n + 1);
  if (text && fread(text, 1, (size_t)n, f) != (size_t)n) {
    free(text);
    text = NULL;
  }
  if (text) text[n] = '\0';
  fclose(f);
  return text;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: nvrtc_ptx LIBNVRTC SOURCE.cu OUTPUT.ptx [OPTION...]\n");
    return 2;
  }
  void *lib = dlopen(argv[1], RTLD_NOW);
  if (!lib) {
    fprintf(stderr, "nvrtc_ptx: %s\n", dlerror());
    return 1;
  }
  create_fn create = (create_fn)dlsym(lib, "nvrtcCreateProgram");
  compile_fn compile = (compile_fn)dlsym(lib, "nvrtcCompileProgram");
  size_fn ptx_size = (size_fn)dlsym(lib, "nvrtcGetPTXSize");
  get_fn get_ptx = (get_fn)dlsym(lib, "nvrtcGetPTX");
  size_fn log_size = (size_fn)dlsym(lib, "nvrtcGetProgramLogSize");
  get_fn get_log = (get_fn)dlsym(lib, "nvrtcGetProgramLog");
  if (!create || !compile || !ptx_size || !get_ptx || !log_size || !get_log) {
    fprintf(stderr, "nvrtc_ptx: %s lacks the NVRTC entry points\n", argv[1]);
    return 1;
  }
  char *source = read_all(argv[2]);
  if (!source) {
    fprintf(stderr, "nvrtc_ptx: cannot read %s\n", argv[2]);
    return 1;
  }
  void *program = NULL;
  if (create(&program, source, argv[2], 0, NULL, NULL) != 0) {
    fprintf(stderr, "nvrtc_ptx: nvrtcCreateProgram failed\n");
    return 1;
  }
  int status = compile(program, argc - 4, (const char *const *)(argv + 4));
  size_t n = 0;
  log_size(program, &n);
  if (n > 1) {
    char *log = malloc(n);
    get_log(program, log);
    fputs(log, stderr);
    free(log);
  }
  if (status != 0) return 1;
  ptx_size(program, &n);
  char *ptx = malloc(n);
  get_ptx(program, ptx);
  FILE *out = fopen(argv[3], "wb");
  if (!out || fwrite(ptx, 1, n - 1, out) != n - 1 || fclose(out) != 0) {
    fprintf(stderr, "nvrtc_ptx: cannot write %s\n", argv[3]);
    return 1;
  }
  return 0;
}
