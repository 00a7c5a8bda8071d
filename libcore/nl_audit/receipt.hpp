#pragma once
// nltrain's step receipt in the `tensor-step` format, version 0.1.0 (schemas/tensor-step.v0.1.0.json):
// one canonical JSON line per audited training step.
//
//   {"format":"tensor-step","version":"0.1.0",
//    "trainer":{"name":"nltrain","version":V},
//    "model":{"kind":"nltrain-mag","config":{...},"optimizer":{...}[,"precision":"fp64"],"sha256":H},
//    "data":{"sha256":H,"bytes":N[,"format":"u16"|"u32"]},
//    "kernels":{"gradient_path":"tape"|"hand_written","blas":S[,"device":"cpu-launcher"|"cuda:I"]},
//    "receipt":{"index":i,"every":k,"previous_sha256":H|null},
//    "step":{"n":n,"chunk":c,"offset":o,"context_reset":b,["tokens":{"ids":[...],"targets":[...]},]
//            "pulse":[b...],"lr":x,"loss":x,"grad_norm":x,"clip_scale":x|null},
//    ["before":{"counters":{...},"tensors":[...]},]
//    "gradients":{"tensors":[...]},
//    "after":{"counters":{...},"tensors":[...]}}
//
// model.sha256 is the SHA-256 of the model object's canonical text without it; previous_sha256
// the SHA-256 of the previous receipt's line (without its newline); consecutive receipts are
// `every` steps apart. `before` is present on the first receipt and whenever every > 1 (always
// with its bytes); otherwise the state before is the previous receipt's `after`. data.bytes is
// the data file's size in bytes; data.format, absent for byte-level text (every byte a token),
// says the file holds little-endian token ids of 2 or 4 bytes (nl/token_data.hpp). step.offset
// is where the step's first token starts in the file, in bytes (chunk x seq_len x token size).
// A compact receipt omits `tokens` (they are the data's tokens at `offset`) and the bytes of
// gradients and `after` (their SHA-256 stays). Canonical: the writer's bytes are the only accepted spelling.
// An fp64 run's receipts (nltrain train --fp64) say "precision":"fp64" in the model (absent:
// fp32, so an fp32 receipt's bytes and model digest are what they were), carry f64 tensors, and
// spell the loss and the clip factor as the shortest decimal of the binary64 value itself.
// kernels.device, absent for nl's own code (nltrain --device cpu, so those receipts are what they
// were), names the libgpu kernels that ran the memory rules and SWA (--device cpu-launcher or
// cuda:I): bp replays nl's hand-written math, not those kernels, so such a step's fp32 bits are
// not expected to match way (a) and are held to the fp64 bound instead (verify.hpp).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.hpp"
#include "nl/adamw.hpp"
#include "nl/mag_config.hpp"
#include "nl/token_data.hpp"
#include "nl_audit/state_section.hpp"

namespace nl_audit {

inline constexpr std::string_view kReceiptFormat = "tensor-step";
inline constexpr std::string_view kReceiptVersion = "0.1.0";
inline constexpr std::string_view kModelKind = "nltrain-mag";
// One receipt line at most (a d = 1024 model's first, full receipt is far below it).
inline constexpr std::size_t kMaxReceiptLineBytes = std::size_t{256} * 1024 * 1024;

struct Tokens {
  std::vector<std::size_t> ids, targets;
};

struct Receipt {
  std::string trainer_version;
  nl::MagConfig cfg;
  nl::AdamWConfig opt;
  bool fp64 = false;  // the run trained in binary64: tensors are f64
  std::string model_sha256;
  std::string data_sha256;
  std::uint64_t data_bytes = 0;
  nl::TokenFormat data_format = nl::TokenFormat::bytes;
  std::string gradient_path;  // "tape" or "hand_written": which path computed the step
  std::string blas;           // the BLAS library and core type (what decides fp32 bits)
  std::string device;         // libgpu's kernels ("cpu-launcher", "cuda:I"); empty: nl's own code
  std::uint64_t index = 0;
  std::uint64_t every = 1;  // the run audits steps n with n mod every == 0
  std::optional<std::string> previous_sha256;
  std::uint64_t step = 0, chunk = 0, offset = 0;
  bool context_reset = false;
  std::optional<Tokens> tokens;
  std::vector<bool> pulse;
  double lr = 0;
  double loss = 0;  // an fp32 run's: a float's value, exactly
  double grad_norm = 0;
  std::optional<double> clip_scale;  // likewise
  std::optional<StateSection> before;
  std::vector<TensorEntry> gradients;
  StateSection after;
};

// The SHA-256 of the model object (config and optimizer) receipts of this run carry.
[[nodiscard]] std::string model_digest(const nl::MagConfig& cfg, const nl::AdamWConfig& opt, bool fp64 = false);

// The canonical line, without a newline.
[[nodiscard]] std::string write_receipt(const Receipt& r);

// Strict: schema, the tensor layout of the receipt's model, every tensor's digest, and canonical
// bytes. Errors are malformed, located at `file`:`line` and the JSON path.
[[nodiscard]] common::Result<Receipt> read_receipt(std::string_view line, const std::string& file, std::int64_t line_no);

}  // namespace nl_audit
