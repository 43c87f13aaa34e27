/* The plain-C boundary between napkin and libnapkin_gpu.so. napkin opens the
 * module with dlopen only when a GPU probe runs, so CUDA and cuBLAS (hundreds
 * of megabytes) are never loaded at start-up. Fixed-size fields keep memory
 * ownership on one side. */
#ifndef NAPKIN_GPU_ABI_H
#define NAPKIN_GPU_ABI_H

#define NAPKIN_GPU_ABI_VERSION 2
#define NAPKIN_GPU_MAX_SAMPLES 64

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int found;           /* 1 when a CUDA device is usable */
  char name[256];      /* "NVIDIA H200" */
  char detail[768];    /* SMs, clocks, compute capability, CUDA and cuBLAS versions */
  double memory_bytes; /* device memory, as the runtime reports it */
  char error[512];     /* why no device, when !found */
} napkin_gpu_device;

typedef struct {
  int ok;
  int n;                                  /* samples */
  double samples[NAPKIN_GPU_MAX_SAMPLES]; /* each in `unit` */
  char unit[16];                          /* "B/s", "FLOP/s" or "s" */
  char method[1024];                      /* how it was measured */
  char error[512];                        /* why it could not run, when !ok */
} napkin_gpu_result;

int napkin_gpu_abi_version(void);
void napkin_gpu_device_info(napkin_gpu_device* out);
/* probe: "copy_bandwidth", "matmul_throughput", "decode_step", ...; arg: the
 * probe's arguments as napkin's cache key writes them, "dtype=bf16,n=2048",
 * "model=NAME[L=..,d=..],batch=8,context=512,dtype=bf16", or "". */
void napkin_gpu_run(const char* probe, const char* arg, napkin_gpu_result* out);

#ifdef __cplusplus
}
#endif

#endif
