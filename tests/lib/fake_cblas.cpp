/* A CBLAS of two calls, cblas_sgemm and cblas_sbgemm, for the measure tests:
 * napkin opens it with NAPKIN_CPU_BLAS=PATH as it opens OpenBLAS. Built
 * three ways (tests/CMakeLists.txt): FAKE_CBLAS_EXACT multiplies correctly
 * (so the bf16 paths run where the installed OpenBLAS has no sbgemm);
 * FAKE_CBLAS_IDLE writes nothing; FAKE_CBLAS_SHORT drops the last step of
 * every dot product. The probes' checks must fail on the last two. Row-major
 * only, which is all napkin asks for. */
#include <cstdint>
#include <cstring>

enum { kNoTrans = 111 };

static float bf16(std::uint16_t h) {
  std::uint32_t u = static_cast<std::uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

#define GEMM_BODY(READ)                                                                    \
  (void)order;                                                                             \
  for (int i = 0; i < m; ++i)                                                              \
    for (int j = 0; j < n; ++j) {                                                          \
      float sum = 0;                                                                       \
      int steps = SHORT ? k - 1 : k;                                                       \
      for (int p = 0; p < steps; ++p) {                                                    \
        const float x = READ(a, transa == kNoTrans ? (long)i * lda + p : (long)p * lda + i); \
        const float y = READ(b, transb == kNoTrans ? (long)p * ldb + j : (long)j * ldb + p); \
        sum += x * y;                                                                      \
      }                                                                                    \
      if (!IDLE) c[(long)i * ldc + j] = alpha * sum + (beta == 0 ? 0 : beta * c[(long)i * ldc + j]); \
    }

#ifdef FAKE_CBLAS_IDLE
#define IDLE 1
#else
#define IDLE 0
#endif
#ifdef FAKE_CBLAS_SHORT
#define SHORT 1
#else
#define SHORT 0
#endif

#define READ_F(p, i) (p)[i]
#define READ_H(p, i) bf16((p)[i])

extern "C" __attribute__((visibility("default"))) void cblas_sgemm(int order, int transa, int transb, int m, int n, int k, float alpha, const float* a, int lda,
                 const float* b, int ldb, float beta, float* c, int ldc) {
  GEMM_BODY(READ_F)
}

extern "C" __attribute__((visibility("default"))) void cblas_sbgemm(int order, int transa, int transb, int m, int n, int k, float alpha, const std::uint16_t* a, int lda,
                  const std::uint16_t* b, int ldb, float beta, float* c, int ldc) {
  GEMM_BODY(READ_H)
}
