#pragma once
// The JSON document a command takes as its file argument: the argument checked, the file (or "-"
// for stdin) read, a BOM stripped (input configs tolerate one, as the reference does) and the text
// parsed. `validate-input` and `generate from-config` read their input this way.
#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "command_support.hpp"
#include "common/error.hpp"
#include "common/json_document.hpp"

namespace bp::cli {

struct JsonArgument {
  std::string argument;  // as given: a path, or "-"
  std::string name;      // the path, or "<stdin>"
  nlohmann::ordered_json doc;
};

// The same argument read as a JsonDocument (common/json_document.hpp) for a command that only
// reads it: the same refusals, in a fraction of the memory of a tree.
struct DocumentArgument {
  std::string argument;
  std::string name;
  common::JsonDocument doc;
};

// The document; or the exit status after a missing argument or a read failure was reported; or the
// parse error, which each command reports in its own terms.
[[nodiscard]] std::variant<JsonArgument, int, common::Error> read_json_argument(const Invocation& inv,
                                                                               std::size_t index,
                                                                               const FileArgRule& rule);
[[nodiscard]] std::variant<DocumentArgument, int, common::Error> read_document_argument(const Invocation& inv,
                                                                                       std::size_t index,
                                                                                       const FileArgRule& rule);

}  // namespace bp::cli
