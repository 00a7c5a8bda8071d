// nl_store/state_file for an fp64 run's state (nltrain train --fp64): F64 tensors, bit for bit
// through a round trip, and the precision held by the reader (never fp64 as fp32, nor back).
#include "nl_store/state_file.hpp"

#include <doctest/doctest.h>

#include <span>
#include <variant>

#include "hybrid/tensor_io/tensor_file.hpp"
#include "trained_state.hpp"

namespace state_file_fp64 {  // named: the unity build shares one anonymous namespace

std::span<const std::uint8_t> bytes_of(const std::string& s) { return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()}; }

// Every tensor of a state, flat, in file order: the round trip's comparison.
std::vector<double> all_values(nl::TrainerState64 s) {
  std::vector<double> out;
  for (const auto& t : nl_store::state_tensors(s)) out.insert(out.end(), t.data.begin(), t.data.end());
  return out;
}

}  // namespace state_file_fp64

TEST_CASE("state_file fp64: encode, decode gives the same state bit for bit, every tensor F64 (fixed and learned)") {
  using namespace state_file_fp64;
  for (nl::RuleKind rule : {nl::RuleKind::delta, nl::RuleKind::titans, nl::RuleKind::atlas}) {
    for (auto schedule : {nl::FrequencySchedule::fixed, nl::FrequencySchedule::learned}) {
      CAPTURE(std::string(nl::to_string(rule)));
      const nl::Trainer64 t = storetest::trained64(rule, 2, 11, schedule);
      const nl::Checkpoint64 before{t.state(), "{\"run\":\"record\"}"};
      auto file = nl_store::encode_state_file(before);
      REQUIRE(file.ok());
      auto tf = hybrid::parse_safetensors(bytes_of(*file), "f");
      REQUIRE(tf.ok());
      for (const auto& x : tf->tensors) CHECK(x.dtype == "F64");
      auto after = nl_store::decode_state_file64(bytes_of(*file), "state");
      REQUIRE(after.ok());
      CHECK(after->run == before.run);
      CHECK(after->state.step == before.state.step);
      CHECK(after->state.adam.tau_level == before.state.adam.tau_level);
      CHECK(after->state.buffer_counts == before.state.buffer_counts);
      CHECK(all_values(after->state) == all_values(before.state));
      auto again = nl_store::encode_state_file(*after);
      REQUIRE(again.ok());
      CHECK(*again == *file);
      auto any = nl_store::decode_any_state_file(bytes_of(*file), "state");
      REQUIRE(any.ok());
      CHECK(std::holds_alternative<nl::Checkpoint64>(*any));
    }
  }
}

TEST_CASE("state_file fp64: an fp64 state does not load as fp32, nor an fp32 state as fp64; one line naming both") {
  using namespace state_file_fp64;
  const nl::Trainer64 t64 = storetest::trained64(nl::RuleKind::delta, 2, 3);
  const nl::Trainer t32 = storetest::trained(nl::RuleKind::delta, 2, 3);
  const std::string f64 = nl_store::encode_state_file(nl::Checkpoint64{t64.state(), "{}"}).value();
  const std::string f32 = nl_store::encode_state_file(nl::Checkpoint{t32.state(), "{}"}).value();
  auto as32 = nl_store::decode_state_file(bytes_of(f64), "RUN/trainer_state.safetensors");
  REQUIRE_FALSE(as32.ok());
  CHECK(as32.error().code() == common::ErrorCode::invalid_argument);
  CHECK(as32.error().message() ==
        "RUN/trainer_state.safetensors: holds an fp64 trainer state (F64 tensors); it does not load as fp32");
  auto as64 = nl_store::decode_state_file64(bytes_of(f32), "RUN/trainer_state.safetensors");
  REQUIRE_FALSE(as64.ok());
  CHECK(as64.error().message() ==
        "RUN/trainer_state.safetensors: holds an fp32 trainer state (F32 tensors); it does not load as fp64");
  auto any = nl_store::decode_any_state_file(bytes_of(f32), "state");
  REQUIRE(any.ok());
  CHECK(std::holds_alternative<nl::Checkpoint>(*any));
}
