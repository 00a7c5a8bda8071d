#pragma once
// Test-only VRAM that refuses uploads and downloads of one id (or of every id when none is
// named) with unsupported("simulated VRAM failure"); everything else works in memory.
#include <map>
#include <span>
#include <string>
#include <string_view>

#include "hybrid/memory/vram_adapter.hpp"

namespace hybrid::testing {

class RefusingVramAdapter final : public VramAdapter {
 public:
  RefusingVramAdapter() = default;  // refuses everything
  explicit RefusingVramAdapter(std::string refused) : refused_(std::move(refused)) {}

  [[nodiscard]] bool is_available() const override { return true; }
  [[nodiscard]] common::Status upload(std::string_view id, std::span<const std::uint8_t> data) override {
    if (refuses(id)) return common::Error::unsupported("simulated VRAM failure");
    store_[std::string(id)] = Bytes(data.begin(), data.end());
    return {};
  }
  [[nodiscard]] common::Result<Bytes> download(std::string_view id) override {
    if (refuses(id)) return common::Error::unsupported("simulated VRAM failure");
    auto it = store_.find(std::string(id));
    if (it == store_.end()) return common::Error::unsupported("unknown VRAM id");
    return it->second;
  }
  [[nodiscard]] common::Status free(std::string_view id) override {
    store_.erase(std::string(id));
    return {};
  }

 private:
  [[nodiscard]] bool refuses(std::string_view id) const { return refused_.empty() || id == refused_; }

  std::string refused_;
  std::map<std::string, Bytes> store_;
};

}  // namespace hybrid::testing
