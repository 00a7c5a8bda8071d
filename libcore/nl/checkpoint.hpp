#pragma once
// The nltrain checkpoint file: a Trainer's whole state (configuration, optimizer settings,
// parameters, AdamW moments and counts, the conductor's step, every level's context memory and
// error buffer) plus an opaque text the tool keeps with it (its run record), in one binary file.
//
// Layout (all integers little-endian; floats as their IEEE-754 bits, little-endian, so a
// checkpoint reloads bit for bit):
//   bytes 0..7    magic "NLTRCKPT"
//   bytes 8..11   u32 format version (kCheckpointVersion)
//   bytes 12..19  u64 body length B
//   bytes 20..    body (B bytes, the fields in the order of encode_checkpoint)
//   last 32       SHA-256 of everything before it
// A batched trainer's state (B > 1 streams, TrainerState::more_contexts) is written as version 3:
// right after stream 0's context memory, u64 B - 1 and then each further stream's context in
// the same form. A state of one stream is written as version 2, byte for byte as before batches
// existed, so a reader of version 2 still reads every unbatched run.
// A reader refuses a foreign file (magic), a newer version, a length that does not match the
// file (truncated or extended) and a digest mismatch (corrupt), before looking at the body; the
// body is then decoded with bounds checks and the state validated against its configuration.
#include <cstdint>
#include <string>
#include <string_view>

#include "common/result.hpp"
#include "nl/trainer.hpp"

namespace nl {

inline constexpr std::string_view kCheckpointMagic = "NLTRCKPT";
// Version 2 adds the CMS frequency schedule (one byte after the seed: 0 fixed, 1 learned); a
// learned schedule's W_freq and b_freq then follow the levels in the flat parameter, AdamW m and v
// vectors. A version-1 file (written before schedules existed) still loads, as a fixed schedule.
// Version 3 adds the context memories of streams 1..B-1 (above); only a batched state needs it.
inline constexpr std::uint32_t kCheckpointVersion = 3;
inline constexpr std::uint32_t kUnbatchedCheckpointVersion = 2;
// Most streams a checkpoint holds, stream 0 included (the bound keeps a corrupt count from asking
// for absurd memory; nltrain train --batch refuses more).
inline constexpr std::uint64_t kMaxCheckpointStreams = 1024;
// A checkpoint larger than this is refused unread (a 1 GiB model is far beyond nltrain's CPU
// scale; the bound keeps a corrupt length from asking for absurd memory).
inline constexpr std::uint64_t kMaxCheckpointBytes = std::uint64_t{1} << 30;

template <typename T>
struct BasicCheckpoint {
  BasicTrainerState<T> state;
  std::string run;  // the tool's own record (nltrain keeps JSON here); opaque to the library
};
// This file format is fp32-only; an fp64 run's state (Checkpoint64) lives only in the run
// directory's safetensors state (nl_store/state_file.hpp).
using Checkpoint = BasicCheckpoint<float>;
using Checkpoint64 = BasicCheckpoint<double>;

[[nodiscard]] std::string encode_checkpoint(const Checkpoint& c);
// `what` names the file in errors. Errors: malformed (foreign, newer, truncated, corrupt, a
// state that does not fit its configuration).
[[nodiscard]] common::Result<Checkpoint> decode_checkpoint(std::string_view bytes, const std::string& what);

}  // namespace nl
