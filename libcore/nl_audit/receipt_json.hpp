#pragma once
// The JSON pieces the receipt writer and reader share.
#include <nlohmann/json.hpp>

#include "nl/adamw.hpp"
#include "nl/mag_config.hpp"
#include "nl_audit/receipt.hpp"

namespace nl_audit {

[[nodiscard]] nlohmann::ordered_json optimizer_json(const nl::AdamWConfig& o);
// Without sha256; "precision":"fp64" only for an fp64 run's.
[[nodiscard]] nlohmann::ordered_json model_json(const nl::MagConfig& cfg, const nl::AdamWConfig& opt, bool fp64 = false);

// write_receipt without encoding the tensors' data: where each data string's text would start
// is appended to `data_at` and the string is left empty. The reader compares a line with this
// (receipt_read.cpp): base64 that decoded canonically to the bytes has one spelling, so
// encoding it again only to compare would be wasted work (it was most of reading a receipt).
[[nodiscard]] std::string write_receipt_without_data(const Receipt& r, std::vector<std::size_t>& data_at);

}  // namespace nl_audit
