#pragma once
// A receipt's canonical line in the general layout (every schema_version but 0.1.0), from any
// value type the section writers take (object_writer.hpp): emit_receipt_line's work for an
// ordered_json, and reconcile's for a receipt read from its text, which is written from what the
// rules read without becoming a tree first.
#include <algorithm>
#include <cstddef>
#include <string>

#include "common/result.hpp"
#include "receipt/emit/sections.hpp"

namespace receipt::emit {

template <class V>
[[nodiscard]] common::Result<std::string> emit_general_receipt_line(const V& receipt) {
  // A stream's receipts are alike in size: the line is given the last one's size (and an eighth),
  // up to 1 MiB, rather than ten doublings and their copies for 16 KB. A huge receipt does not
  // make every later one hold as much.
  constexpr std::size_t kMaxReserve = std::size_t{1} << 20;
  thread_local std::size_t last_size = 0;
  ObjectWriter w;
  w.out().reserve(std::min(last_size + last_size / 8 + 1, kMaxReserve));
  if (auto status = write_general_receipt(w, receipt); !status) return status.error();
  std::string line = w.out().take();
  line.push_back('\n');
  last_size = line.size();
  return line;
}

}  // namespace receipt::emit
