#include "jsonl_sink.hpp"

#include <cerrno>
#include <cstring>
#include <iostream>
#include <string_view>

#include "common/atomic_file.hpp"
#include "common/checked_stdout.hpp"
#include "common/file_system.hpp"
#include "common/json_input.hpp"

namespace nltrain::cli {

common::Status JsonlSink::open(const std::string& option, const std::string& kind, const std::string& path, std::optional<std::uint64_t> resume_step,
                               const StepOf& step_of, std::string* kept_tail) {
  option_ = option;
  path_ = path;
  if (path.empty() || path == "-") return {};
  common::FileSystem& fs = common::real_file_system();
  if (resume_step && fs.node_kind(path) == common::NodeKind::regular) {
    auto text = common::read_text(fs, path, std::size_t{4} << 30);
    if (!text.ok()) return text.error().at_file(path);
    std::string kept;
    std::size_t pos = 0;
    std::int64_t line_no = 0;
    while (pos < text->size()) {
      std::size_t end = text->find('\n', pos);
      // A last line without its newline is a write torn by a killed run: dropped, not an error.
      if (end == std::string::npos) break;
      const std::string_view line(text->data() + pos, end - pos);
      pos = end + 1;
      ++line_no;
      if (line.empty()) continue;
      // The file is nltrain's own output: a line that is not of this stream means it is
      // not, and rewriting it would destroy someone's file.
      const auto j = common::parse_json_text(line, {.file = path, .first_line = line_no});
      const auto step = j.ok() ? step_of(*j) : std::nullopt;
      if (!step) {
        return common::Error::malformed(option + ": " + path + " is not " + kind + " (line " + std::to_string(line_no) +
                                        (j.ok() ? " has no \"step\"" : ": " + j.error().message()) + ")");
      }
      if (*step >= *resume_step) continue;
      if (kept_tail != nullptr) *kept_tail = line;
      kept.append(line).push_back('\n');
    }
    if (kept.size() != text->size()) {
      if (common::Status s = common::write_file_atomic(fs, path, kept); !s.ok()) return s.error().at_file(path);
    }
  }
  file_.open(path, resume_step ? std::ios::app : std::ios::trunc);
  if (!file_) return common::Error::io(option + ": cannot open " + path + ": " + std::strerror(errno));
  return {};
}

common::Status JsonlSink::write(const std::string& line) {
  if (path_.empty()) return {};
  if (path_ == "-") {
    std::cout << line << '\n';
    if (const int err = common::flush_stdout(); err != 0) {
      if (err == EPIPE) return common::Error::io(option_ + " -: the reader closed the pipe");
      return common::Error::io(option_ + " -: cannot write to stdout: " + std::strerror(err));
    }
    return {};
  }
  file_ << line << '\n';
  file_.flush();
  if (!file_) return common::Error::io(option_ + ": cannot write " + path_);
  return {};
}

}  // namespace nltrain::cli
