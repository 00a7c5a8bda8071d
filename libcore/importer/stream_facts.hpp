#pragma once
// The cross-record rules of a multi-step sidecar stream (one framework and version throughout;
// trace_id and step_index on every record or on none, trace_id equal, step_index dense from 0),
// gathered one record at a time so that no record's tree has to outlive its own import.
#include <cstddef>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "reconcile/read_json.hpp"

namespace importer {

// What the cross-record rules read of one record: taken from its tree on the thread that parsed
// it, so that the tree can go before the record's turn comes (import multi --jobs).
struct StepFacts {
  std::string name, version;            // source_framework's
  std::optional<std::string> trace_id;
  bool has_step = false;
  bool step_in_place = false;           // step_index is a number equal to the record's index
  std::string step_text;                // step_index as written, when it is not in place

  // Record `index` (0-based) after its own checks passed (the sidecar schema guarantees
  // source_framework's name and version).
  [[nodiscard]] static StepFacts of(const nlohmann::ordered_json& sidecar, std::size_t index);
  [[nodiscard]] static StepFacts of(const reconcile::Json& sidecar, std::size_t index);
};

// The receipts' trace_id: record 0's, or, when it has none, derived from the stream's hash.
[[nodiscard]] std::string receipts_trace_id(const std::optional<std::string>& first_trace, const std::string& source_hash);

class StreamFacts {
 public:
  // `framework`: the importer's framework name; `label`: its caller label, for the messages.
  StreamFacts(std::string framework, std::string label);

  // Record `index` (0-based, in stream order), after its own checks passed.
  void observe(std::size_t index, const StepFacts& facts);

  // receipts_trace_id of record 0. Only meaningful once record 0 was observed; a stream that
  // mixes the two fails first_error.
  [[nodiscard]] std::string trace_id(const std::string& source_hash) const;
  [[nodiscard]] const std::string& framework_name() const { return first_name_; }

  // The first broken rule once every record was observed, in the order the rules are checked.
  [[nodiscard]] std::optional<std::string> first_error() const;

 private:
  struct Miss {
    std::size_t line = 0;  // 1-based
    std::string detail;
  };
  std::string framework_, label_;
  std::size_t records_ = 0;
  std::string first_name_, first_version_;
  std::optional<Miss> framework_mismatch_;
  std::size_t with_trace_ = 0, with_step_ = 0;
  std::optional<std::size_t> first_without_trace_, first_without_step_;  // 1-based lines
  std::optional<std::string> first_trace_;
  std::optional<Miss> trace_mismatch_, step_mismatch_;
};

}  // namespace importer
