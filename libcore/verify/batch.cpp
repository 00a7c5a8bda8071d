#include "verify/batch.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>
#include <system_error>

namespace verify {
namespace {

bool receipt_extension(const std::filesystem::path& p) {
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext == ".json" || ext == ".jsonl";
}

// Why a directory entry named like a receipt is not a file bp reads; nullopt for a regular file
// (through a link or not) and for a directory (walked, or a link to one, which is not followed).
std::optional<common::Error> not_readable(const std::filesystem::directory_entry& entry) {
  const std::string path = entry.path().string();
  std::error_code ec;
  const auto st = entry.status(ec);  // follows links
  if (ec || st.type() == std::filesystem::file_type::not_found) {
    std::error_code lec;
    const bool link = entry.is_symlink(lec);
    if (link && (st.type() == std::filesystem::file_type::not_found || ec == std::errc::no_such_file_or_directory)) {
      const auto target = std::filesystem::read_symlink(entry.path(), lec);
      return common::Error::io("dangling symbolic link (its target " + (lec ? std::string("?") : target.string()) +
                                   " does not exist)",
                               {path, 0, {}});
    }
    const std::string why = ec ? ec.message() : "no such file or directory";
    return common::Error::io(link ? "symbolic link that cannot be followed: " + why : "cannot stat: " + why,
                             {path, 0, {}});
  }
  switch (st.type()) {
    case std::filesystem::file_type::regular:
    case std::filesystem::file_type::directory: return std::nullopt;
    case std::filesystem::file_type::fifo: return common::Error::io("not a regular file (a FIFO)", {path, 0, {}});
    case std::filesystem::file_type::socket: return common::Error::io("not a regular file (a socket)", {path, 0, {}});
    case std::filesystem::file_type::character:
    case std::filesystem::file_type::block: return common::Error::io("not a regular file (a device)", {path, 0, {}});
    default: return common::Error::io("not a regular file", {path, 0, {}});
  }
}

}  // namespace

bool gets_mazur_gate(const nlohmann::ordered_json& r) {
  const auto it = r.is_object() ? r.find("schema_version") : r.end();
  return it != r.end() && it->is_string() && it->get_ref<const std::string&>() == "0.1.0";
}

const common::Error* ReceiptPaths::unreadable_reason(const std::string& file) const {
  for (const auto& [path, why] : unreadable) {
    if (path == file) return &why;
  }
  return nullptr;
}

ReceiptPaths receipt_paths(const std::string& arg) {
  std::error_code ec;
  ReceiptPaths out;
  if (arg == "-" || !std::filesystem::is_directory(arg, ec)) {
    out.files.push_back(arg);
    return out;
  }
  std::filesystem::recursive_directory_iterator it(arg, std::filesystem::directory_options::skip_permission_denied, ec);
  for (; !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (!receipt_extension(it->path())) continue;
    std::error_code kind_ec;
    if (it->is_directory(kind_ec)) continue;
    if (auto why = not_readable(*it)) out.unreadable.emplace_back(it->path().string(), std::move(*why));
    out.files.push_back(it->path().string());
  }
  if (ec) out.error = common::Error::io("could not list " + arg + ": " + ec.message());
  std::sort(out.files.begin(), out.files.end());
  return out;
}

VerifyReport verify_receipt(const nlohmann::ordered_json& receipt, const GeneralOptions& general,
                            const MazurFixtures& fixtures, std::string_view text) {
  if (gets_mazur_gate(receipt)) return verify_mazur(receipt, {general.verdict, fixtures});
  return verify_general(receipt, general, text);
}

CheckStatus BatchTally::add_verdict(std::string_view overall) {
  ++receipts;
  if (overall == "fail") {
    ++failed;
    return CheckStatus::fail;
  }
  if (overall == "warn") {
    ++warned;
    return CheckStatus::warn;
  }
  ++passed;
  return CheckStatus::pass;
}

void BatchTally::add_error() {
  ++receipts;
  ++errors;
}

}  // namespace verify
