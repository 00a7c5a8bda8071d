#include "nl/swa.hpp"

#include <array>
#include <cmath>
#include <optional>
#include <string>

#include "nl/dense.hpp"
#include "nl/swa_kernel.hpp"
#include "tape/opaque/record_opaque.hpp"
#include "tape/tape_error.hpp"

namespace nl {

common::Status validate(const SwaShape& sh) {
  auto bad = [](const char* field, const std::string& what) {
    return common::Error::invalid_argument(std::string("swa: ") + field + ": " + what);
  };
  if (sh.s == 0) return bad("seq_len", "must be > 0");
  if (sh.d == 0) return bad("d", "must be > 0");
  if (sh.heads == 0 || sh.d % sh.heads != 0) {
    return bad("heads", "must divide d=" + std::to_string(sh.d) + ", got " + std::to_string(sh.heads));
  }
  if (sh.window == 0 || sh.window > sh.s) {
    return bad("window", "must be in [1, seq_len=" + std::to_string(sh.s) + "], got " + std::to_string(sh.window));
  }
  return {};
}

template <typename T>
NL_VECTOR_CLONES SwaForward<T> swa_forward(const SwaShape& sh, std::span<const T> q, std::span<const T> k, std::span<const T> v) {
  const std::size_t hd = sh.d / sh.heads, w_len = sh.window;
  const T scale = T(1) / sqrt(static_cast<T>(hd));
  SwaForward<T> out{std::vector<T>(sh.s * sh.d, T(0)), std::vector<T>(sh.heads * sh.s * w_len, T(0))};
  for (std::size_t h = 0; h < sh.heads; ++h) {
    const std::size_t off = h * hd;
    for (std::size_t i = 0; i < sh.s; ++i) {
      const std::size_t j0 = i + 1 >= w_len ? i + 1 - w_len : 0;
      T* p = &out.p[(h * sh.s + i) * w_len];
      T mx = 0;
      for (std::size_t j = j0; j <= i; ++j) {
        p[j - j0] = dense::dot8(&q[i * sh.d + off], &k[j * sh.d + off], hd) * scale;
        mx = j == j0 ? p[j - j0] : max(mx, p[j - j0]);  // max(): no branch for the audit scalar to doubt
      }
      T sum = 0;
      for (std::size_t j = j0; j <= i; ++j) sum += (p[j - j0] = exp(p[j - j0] - mx));
      for (std::size_t j = j0; j <= i; ++j) {
        p[j - j0] /= sum;
        dense::axpy(&out.a[i * sh.d + off], p[j - j0], &v[j * sh.d + off], hd);
      }
    }
  }
  return out;
}

template <typename T>
NL_VECTOR_CLONES void swa_backward(const SwaShape& sh, std::span<const T> q, std::span<const T> k, std::span<const T> v,
                  std::span<const T> p_all, std::span<const T> ga, std::span<T> gq, std::span<T> gk,
                  std::span<T> gv) {
  const std::size_t hd = sh.d / sh.heads, w_len = sh.window;
  const T scale = T(1) / sqrt(static_cast<T>(hd));
  std::vector<T> gp(w_len);
  for (std::size_t h = 0; h < sh.heads; ++h) {
    const std::size_t off = h * hd;
    for (std::size_t i = 0; i < sh.s; ++i) {
      const std::size_t j0 = i + 1 >= w_len ? i + 1 - w_len : 0;
      const T* p = &p_all[(h * sh.s + i) * w_len];
      const T* gai = &ga[i * sh.d + off];
      T pgp = 0;
      for (std::size_t j = j0; j <= i; ++j) {
        gp[j - j0] = dense::dot8(gai, &v[j * sh.d + off], hd);
        pgp += p[j - j0] * gp[j - j0];
      }
      for (std::size_t j = j0; j <= i; ++j) {
        const T gs = p[j - j0] * (gp[j - j0] - pgp) * scale;
        dense::axpy(&gq[i * sh.d + off], gs, &k[j * sh.d + off], hd);
        dense::axpy(&gk[j * sh.d + off], gs, &q[i * sh.d + off], hd);
        dense::axpy(&gv[j * sh.d + off], p[j - j0], gai, hd);
      }
    }
  }
}

std::vector<float> encode_swa_shape(const SwaShape& sh) {
  return {static_cast<float>(sh.s), static_cast<float>(sh.d), static_cast<float>(sh.heads),
          static_cast<float>(sh.window)};
}

SwaShape decode_swa_shape(std::span<const float> v) {
  return {static_cast<std::size_t>(v[0]), static_cast<std::size_t>(v[1]), static_cast<std::size_t>(v[2]),
          static_cast<std::size_t>(v[3])};
}

tape::Tensor record_swa(const tape::opaque::OpaqueRegistry& registry, const SwaShape& sh, const tape::Tensor& q,
                        const tape::Tensor& k, const tape::Tensor& v) {
  if (const common::Status s = validate(sh); !s.ok()) throw tape::TapeError("Opaque(SWA)", s.error().message(), {});
  const tape::Shape seq{sh.s, sh.d};
  for (const tape::Tensor* t : {&q, &k, &v}) {
    if (t->numel() != sh.s * sh.d) {
      throw tape::TapeError("Opaque(SWA)", "q, k, v must be seq_len x d", {t->shape(), seq});
    }
  }
  // An installed SwaKernel (libgpu) runs the block; its handle, saved last, routes the VJP to it.
  const std::optional<InstalledSwa> installed = installed_swa_kernel();
  const SwaForward<float> f = installed ? installed->kernel->forward(sh, q.data(), k.data(), v.data())
                                        : swa_forward<float>(sh, q.data(), k.data(), v.data());
  const std::vector<float> header = encode_swa_shape(sh);
  using tape::opaque::OpaqueValue;
  const std::array<tape::Tensor, 3> inputs{q, k, v};
  const std::array<OpaqueValue, 1> outputs{OpaqueValue{f.a, seq}};
  std::vector<OpaqueValue> saved{OpaqueValue{header, tape::Shape{header.size()}}, OpaqueValue{q.data(), seq},
                                 OpaqueValue{k.data(), seq}, OpaqueValue{v.data(), seq},
                                 OpaqueValue{f.p, tape::Shape{sh.heads, sh.s, sh.window}}};
  const std::vector<float> handle = installed ? std::vector<float>{static_cast<float>(installed->handle)}
                                              : std::vector<float>{};
  if (installed) saved.push_back(OpaqueValue{handle, tape::Shape{1}});
  return tape::opaque::record_opaque(registry, tape::opaque::OpaqueKey::swa, inputs, outputs, saved).at(0);
}

#define NL_SWA(T)                                                                                                  \
  template SwaForward<T> swa_forward<T>(const SwaShape&, std::span<const T>, std::span<const T>, std::span<const T>); \
  template void swa_backward<T>(const SwaShape&, std::span<const T>, std::span<const T>, std::span<const T>,        \
                                std::span<const T>, std::span<const T>, std::span<T>, std::span<T>, std::span<T>);
NL_SWA(float)
NL_SWA(double)
NL_SWA(Tracked32)
NL_SWA(Tracked64)
#undef NL_SWA

}  // namespace nl
