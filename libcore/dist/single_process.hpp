#pragma once
// The world of a run that is one process: rank 0 of 1.
#include "dist/communicator.hpp"

namespace dist {

class SingleProcess final : public Communicator {
 public:
  [[nodiscard]] int rank() const override { return 0; }
  [[nodiscard]] int size() const override { return 1; }
  [[nodiscard]] std::string transport() const override { return "one process"; }
  [[nodiscard]] common::Status send(int to, std::span<const std::byte>) override;
  [[nodiscard]] common::Result<std::vector<std::byte>> receive(int from) override;
  [[nodiscard]] common::Status broadcast(int, std::vector<std::byte>&) override { return {}; }
  [[noreturn]] void abort(int code) override;
};

}  // namespace dist
