#pragma once
// A helper capture: what bp's Python helper writes instead of sidecar JSON when asked to
// (TraceDumper(..., capture=True)), so the training loop never formats a number. It holds the
// sidecar stream in two parts: each line shape once, as the line's JSON text with numbered slots
// where its numbers go, and each step's numbers as binary64. expand_capture() writes the numbers
// back into their slots, giving the exact sidecar JSONL bytes the helper would have written
// (floats as Python's repr() spells them), which are then imported like any sidecar stream.
//
// Format (integers little-endian):
//   magic  8 bytes "BPCAP01\n"
//   then chunks to the end: tag (1 byte) | payload length (u64) | payload
//     'L' layout: id (u32; 0, 1, 2, ... in order) | slot count N (u32, 1 .. 2^24) | UTF-8 JSON text
//         in which the JSON string "\u0000K" stands for float slot K and "\u0001K" for integer
//         slot K (K < N, decimal without leading zeros; one kind per slot)
//     'S' steps: layout id (u32, defined earlier) | step count C (u32, >= 1) | C x N binary64
//   A float slot's value must be finite; an integer slot's integral with magnitude <= 2^53.
//   Each step becomes one line, "\n"-terminated. A capture of no steps expands to no bytes.
// Nothing in a capture is executed or evaluated: the expanded text is parsed and validated as
// strictly as any sidecar.
#include <cstddef>
#include <string>
#include <string_view>

#include "common/result.hpp"

namespace importer {

inline constexpr std::string_view kCaptureMagic{"BPCAP01\n", 8};

[[nodiscard]] bool is_capture(std::string_view bytes);

// The sidecar JSONL a capture stands for; Error (malformed, "byte N: ...") for anything that is not
// a well-formed capture, and when the text would exceed max_output bytes.
[[nodiscard]] common::Result<std::string> expand_capture(std::string_view bytes, std::size_t max_output);

}  // namespace importer
