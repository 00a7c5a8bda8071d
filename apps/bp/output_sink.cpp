#include "output_sink.hpp"

#include "common/atomic_file.hpp"
#include "common/file_system.hpp"
#include "terminal.hpp"

namespace bp::cli {

std::optional<CliError> write_out_file(const std::string& out_path, std::string_view bytes) {
  return write_out_file(out_path, [bytes](common::WritableFile& file) {
    return file.append(std::span<const std::byte>(reinterpret_cast<const std::byte*>(bytes.data()), bytes.size()));
  });
}

std::optional<CliError> write_out_file(const std::string& out_path,
                                       const std::function<common::Status(common::WritableFile&)>& write) {
  common::FileSystem& fs = common::real_file_system();
  if (fs.is_dir(out_path)) {
    CliError e;
    e.code = "EISDIR";
    e.message = "path is a directory, not a file: " + out_path + ".";
    e.hint = "provide a file path.";
    e.retryable = false;
    return e;
  }
  if (auto st = common::write_file_atomic(fs, out_path, write); !st) {
    CliError e;
    e.code = "IO_ERROR";
    e.message = "could not write " + out_path + ": " + st.error().message();
    e.hint = "check that the directory exists and is writable.";
    e.retryable = false;
    return e;
  }
  return std::nullopt;
}

int stdout_write_failed() { return kExitMalformedOrIo; }

}  // namespace bp::cli
