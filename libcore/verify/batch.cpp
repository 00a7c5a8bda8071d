#include "verify/batch.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <system_error>

namespace verify {
namespace {

bool receipt_extension(const std::filesystem::path& p) {
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext == ".json" || ext == ".jsonl";
}

bool is_mazur_receipt(const nlohmann::ordered_json& r) {
  const auto it = r.is_object() ? r.find("schema_version") : r.end();
  return it != r.end() && it->is_string() && it->get_ref<const std::string&>() == "0.1.0";
}

}  // namespace

ReceiptPaths receipt_paths(const std::string& arg) {
  std::error_code ec;
  ReceiptPaths out;
  if (arg == "-" || !std::filesystem::is_directory(arg, ec)) {
    out.files.push_back(arg);
    return out;
  }
  std::filesystem::recursive_directory_iterator it(arg, std::filesystem::directory_options::skip_permission_denied, ec);
  for (; !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file(ec) && receipt_extension(it->path())) out.files.push_back(it->path().string());
  }
  if (ec) out.error = common::Error::io("could not list " + arg + ": " + ec.message());
  std::sort(out.files.begin(), out.files.end());
  return out;
}

VerifyReport verify_receipt(const nlohmann::ordered_json& receipt, const GeneralOptions& general,
                            const MazurFixtures& fixtures, std::string_view text) {
  if (is_mazur_receipt(receipt)) return verify_mazur(receipt, {general.verdict, fixtures});
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
