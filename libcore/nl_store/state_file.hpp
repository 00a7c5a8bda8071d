#pragma once
// A Trainer's whole state as one safetensors file: the conversion TrainerState <-> named tensors,
// in one function pair (encode_state_file / decode_state_file over one list, state_tensors).
//
// Tensors (all F32, or all F64 for an fp64 run's state (nltrain train --fp64); little-endian,
// bit for bit):
//   <name>                          every parameter, named as nl::named_tensors (E, W_Q, ...,
//                                   levels/<l>/W_K, ..., W_freq, b_freq)
//   adam_m/<name>, adam_v/<name>    the AdamW moments (the names of `nltrain export --optimizer`)
//   context/levels/<l>/state        level l's context memory, flat (nl::state_size values)
//   error/levels/<l>/<leaf>         level l's error-buffer sum, named as named_level_tensors
//   context/<b>/levels/<l>/state    a batched trainer's stream b >= 1 (stream 0 is the one above)
// context_prefix() is the one place that spells the prefix.
//
// What is not a tensor rides in the header's "__metadata__" (strings, as safetensors wants):
//   "format": "pt"
//   "nltrain.config"   the MagConfig as nl::config_to_json (as in `nltrain export`)
//   "nltrain.step"     the conductor's step, decimal (as in `nltrain export`)
//   "nltrain.trainer"  {"format":1,"optimizer":{lr,beta1,beta2,eps,weight_decay,clip,warmup,
//                      total_steps},"adamw_tau":n,"adamw_tau_level":[..],"error_counts":[..]};
//                      the doubles as JSON numbers in their shortest round-trip form, so they
//                      come back bit for bit
//   "nltrain.run"      the tool's run record, opaque here
// Reading is strict: every tensor the configuration needs, with its dtype and shape, and no
// other; every metadata key above, and no other "nltrain." key. The dtype is the precision: a
// reader asks for one (decode_state_file: fp32, decode_state_file64: fp64) and refuses the other,
// so an fp64 state never loads as fp32 or the other way round; decode_any_state_file takes what
// the file holds. An fp32 state's bytes are what they were before fp64 states existed.
#include <cstdint>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "common/result.hpp"
#include "nl/checkpoint.hpp"
#include "nl/named_tensors.hpp"
#include "nl/trainer.hpp"

namespace nl_store {

inline constexpr const char* kConfigKey = "nltrain.config";
inline constexpr const char* kStepKey = "nltrain.step";
inline constexpr const char* kTrainerKey = "nltrain.trainer";
inline constexpr const char* kRunKey = "nltrain.run";
inline constexpr std::uint64_t kTrainerFormat = 1;

// "context/" today; the batch index goes in here ("context/<b>/") when the state holds several.
[[nodiscard]] std::string context_prefix();

// Every tensor of `s` by name, as views into it (valid while s lives), in file order. `s` must be
// shaped for s.cfg (as a Trainer's state, or shaped_state()).
template <typename T>
[[nodiscard]] std::vector<nl::BasicNamedTensor<T>> state_tensors(nl::BasicTrainerState<T>& s);

// The file's bytes. invalid_argument for an optimizer setting that is not finite (it has no
// JSON number).
[[nodiscard]] common::Result<std::string> encode_state_file(const nl::Checkpoint& c);
[[nodiscard]] common::Result<std::string> encode_state_file(const nl::Checkpoint64& c);
// `what` names the file in errors (malformed; an fp64 state read as fp32 or the other way
// round: invalid_argument, naming both precisions).
[[nodiscard]] common::Result<nl::Checkpoint> decode_state_file(std::span<const std::uint8_t> bytes,
                                                               const std::string& what);
[[nodiscard]] common::Result<nl::Checkpoint64> decode_state_file64(std::span<const std::uint8_t> bytes,
                                                                   const std::string& what);
// Either, by the dtype of the file's tensors.
using AnyCheckpoint = std::variant<nl::Checkpoint, nl::Checkpoint64>;
[[nodiscard]] common::Result<AnyCheckpoint> decode_any_state_file(std::span<const std::uint8_t> bytes,
                                                                 const std::string& what);

}  // namespace nl_store
