#include "hybrid/memory/fake_vram_adapter.hpp"

#include <string>

namespace hybrid {

common::Status FakeVramAdapter::upload(std::string_view id, std::span<const std::uint8_t> data) {
  std::lock_guard<std::mutex> lock(mu_);
  if (fail_next_upload_) {
    fail_next_upload_ = false;
    return common::Error::unsupported("Fake VRAM upload failure injected for " + std::string(id));
  }
  store_.insert_or_assign(std::string(id), Bytes(data.begin(), data.end()));
  return {};
}

common::Result<Bytes> FakeVramAdapter::download(std::string_view id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = store_.find(id);
  if (it == store_.end()) return common::Error::unsupported("Fake VRAM holds no buffer for " + std::string(id));
  return it->second;
}

common::Status FakeVramAdapter::free(std::string_view id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = store_.find(id);
  if (it == store_.end()) return common::Error::unsupported("Fake VRAM holds no buffer for " + std::string(id));
  store_.erase(it);
  return {};
}

std::vector<GpuCaps> FakeVramAdapter::devices() const {
  if (!has_device_) return {};
  return {device_};
}

bool FakeVramAdapter::holds(std::string_view id) const {
  std::lock_guard<std::mutex> lock(mu_);
  return store_.find(id) != store_.end();
}

std::size_t FakeVramAdapter::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return store_.size();
}

void FakeVramAdapter::fail_next_upload() {
  std::lock_guard<std::mutex> lock(mu_);
  fail_next_upload_ = true;
}

}  // namespace hybrid
