#pragma once
// An in-process VRAM stand-in for tests and GPU-less runs of GPU code paths: bytes live in a
// mutex-guarded map. Always available; download/free of an unknown id is unsupported.
// fail_next_upload() makes the next upload fail, to test move error paths.
#include <map>
#include <mutex>
#include <string>

#include "hybrid/memory/vram_adapter.hpp"

namespace hybrid {

class FakeVramAdapter final : public VramAdapter {
 public:
  FakeVramAdapter() = default;
  // Reports one device with these numbers to the profiler.
  explicit FakeVramAdapter(GpuCaps device) : device_(std::move(device)), has_device_(true) {}

  [[nodiscard]] bool is_available() const override { return true; }
  [[nodiscard]] common::Status upload(std::string_view id, std::span<const std::uint8_t> data) override;
  [[nodiscard]] common::Result<Bytes> download(std::string_view id) override;
  [[nodiscard]] common::Status free(std::string_view id) override;
  [[nodiscard]] std::vector<GpuCaps> devices() const override;

  [[nodiscard]] bool holds(std::string_view id) const;
  [[nodiscard]] std::size_t size() const;
  void fail_next_upload();

 private:
  mutable std::mutex mu_;
  std::map<std::string, Bytes, std::less<>> store_;
  GpuCaps device_;
  bool has_device_ = false;
  bool fail_next_upload_ = false;
};

}  // namespace hybrid
