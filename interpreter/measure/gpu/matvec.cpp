// A decode step's weight read: y = W·x in bf16 with W 28672×8192 (470 MB,
// one MLP matrix of a 70B-class model), fp32 accumulation. Launches rotate
// over several copies of W so none of it is still in the L2 from the
// previous launch. Bytes = W + x + y.
#include <cuda_bf16.h>

#include "common.hpp"
#include "kernels.cuh"

namespace napkin::gpu {

namespace {
constexpr int kRows = 28672, kCols = 8192, kThreads = 256;
}

void run_matvec(napkin_gpu_result* out) {
  const std::size_t w_elems = static_cast<std::size_t>(kRows) * kCols;
  const std::size_t w_bytes = w_elems * sizeof(__nv_bfloat16);
  if (free_memory() < w_bytes + (std::size_t{64} << 20)) throw Failure("not enough free GPU memory for a 470 MB matrix");
  const int copies = static_cast<int>(std::clamp<std::size_t>(free_memory() * 7 / 10 / w_bytes, 1, 4));
  DeviceBuffer<__nv_bfloat16> w(w_elems * copies), x(kCols), y(kRows);
  kernels::fill_random(CUDA_R_16BF, w.get(), w.size(), 1, true);
  kernels::fill_random(CUDA_R_16BF, x.get(), x.size(), 2, true);
  NAPKIN_CUDA(cudaMemset(y.get(), 0xff, kRows * sizeof(__nv_bfloat16)));  // NaN: an unwritten row fails the check
  NAPKIN_CUDA(cudaGetLastError());
  NAPKIN_CUDA(cudaDeviceSynchronize());

  int next = 0;
  const std::vector<double> seconds = time_launches(
      [&] {
        kernels::matvec_bf16(w.get() + static_cast<std::size_t>(next) * w_elems, x.get(), y.get(), kRows, kCols, kThreads);
        next = (next + 1) % copies;
      },
      Timing{});

  // Rows of the last product against the host, from the same bf16 inputs.
  const int last = (next + copies - 1) % copies;
  std::vector<__nv_bfloat16> yh(kRows), xh(kCols), row(kCols);
  NAPKIN_CUDA(cudaMemcpy(yh.data(), y.get(), kRows * sizeof(__nv_bfloat16), cudaMemcpyDeviceToHost));
  NAPKIN_CUDA(cudaMemcpy(xh.data(), x.get(), kCols * sizeof(__nv_bfloat16), cudaMemcpyDeviceToHost));
  for (int k = 0; k < 8; ++k) {
    const int r = (k * 3581 + 7) % kRows;
    NAPKIN_CUDA(cudaMemcpy(row.data(), w.get() + static_cast<std::size_t>(last) * w_elems + static_cast<std::size_t>(r) * kCols,
                           kCols * sizeof(__nv_bfloat16), cudaMemcpyDeviceToHost));
    double want = 0, scale = 0;
    for (int c = 0; c < kCols; ++c) {
      const double p = static_cast<double>(__bfloat162float(row[c])) * __bfloat162float(xh[c]);
      want += p;
      scale += std::fabs(p);
    }
    const double got = __bfloat162float(yh[r]);
    if (!(std::fabs(got - want) <= 0.01 * std::fabs(want) + 1e-3 * scale) || scale == 0)
      throw Failure(strf("the mat-vec kernel is wrong at row %d: %g instead of %g", r, got, want));
  }

  const double moved = static_cast<double>(w_bytes) + kCols * 2.0 + kRows * 2.0;
  fill_rates(out, seconds, moved, "B/s",
             strf("bf16 mat-vec %d×%d (%.0f MB) rotated over %d copies, one warp per row, 16-byte streaming loads, "
                  "fp32 accumulate, bytes = W + x + y",
                  kRows, kCols, w_bytes / 1e6, copies));
}

}  // namespace napkin::gpu
