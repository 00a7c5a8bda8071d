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
// (through a link or not). Directories and links to them are receipt_paths' own.
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
    case std::filesystem::file_type::regular: return std::nullopt;
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

bool gets_mazur_gate(common::JsonView r) {
  const auto v = r.is_object() ? r.find("schema_version") : std::nullopt;
  return v && v->is_string() && v->string() == "0.1.0";
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
  // The walk is recursive and never skips a directory silently: a link to one is not followed
  // (it could lead out of the tree or round in a loop) and one that cannot be listed is an
  // unreadable entry, each with its [ERROR] line, like a dangling link named *.json.
  std::vector<std::filesystem::path> pending{arg};
  while (!pending.empty()) {
    const std::filesystem::path dir = std::move(pending.back());
    pending.pop_back();
    std::error_code list_ec;
    std::filesystem::directory_iterator it(dir, list_ec);
    for (; !list_ec && it != std::filesystem::directory_iterator(); it.increment(list_ec)) {
      std::error_code kind_ec;
      const bool link = it->is_symlink(kind_ec);
      if (it->is_directory(kind_ec)) {  // follows a link
        if (!link) {
          pending.push_back(it->path());
          continue;
        }
        out.unreadable.emplace_back(it->path().string(),
                                    common::Error::io("symbolic link to a directory (not followed)", {it->path().string(), 0, {}}));
        out.files.push_back(it->path().string());
        continue;
      }
      if (!receipt_extension(it->path())) continue;
      if (auto why = not_readable(*it)) out.unreadable.emplace_back(it->path().string(), std::move(*why));
      out.files.push_back(it->path().string());
    }
    if (!list_ec) continue;
    if (dir == arg) {
      out.error = common::Error::io("could not list " + arg + ": " + list_ec.message());
    } else {
      out.unreadable.emplace_back(dir.string(), common::Error::io("cannot list directory: " + list_ec.message(), {dir.string(), 0, {}}));
      out.files.push_back(dir.string());
    }
  }
  std::sort(out.files.begin(), out.files.end());
  return out;
}

VerifyReport verify_receipt(const nlohmann::ordered_json& receipt, const GeneralOptions& general,
                            const MazurFixtures& fixtures, std::string_view text) {
  if (gets_mazur_gate(receipt)) return verify_mazur(receipt, {general.verdict, fixtures});
  return verify_general(receipt, general, text);
}

VerifyReport verify_receipt(common::JsonDocument&& receipt, const GeneralOptions& general, const MazurFixtures& fixtures) {
  if (gets_mazur_gate(receipt.root())) return verify_mazur(std::move(receipt), {general.verdict, fixtures});
  return verify_general(std::move(receipt), general);
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
