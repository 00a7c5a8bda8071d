// nl_store/state_file: a Trainer's whole state as one safetensors file and back, bit for bit
// (compared through nl's own checkpoint encoding, which holds every field), and the reader's
// strictness.
#include "nl_store/state_file.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <span>

#include <nlohmann/json.hpp>

#include "hybrid/tensor_io/safetensors_writer.hpp"
#include "hybrid/tensor_io/tensor_file.hpp"
#include "trained_state.hpp"

namespace {

std::span<const std::uint8_t> as_bytes(const std::string& s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

// The file's metadata and tensors re-encoded after `edit` (a damaged but well-formed file).
std::string rewritten(const std::string& file, auto edit) {
  auto tf = hybrid::parse_safetensors(as_bytes(file), "f");
  REQUIRE(tf.ok());
  const auto doc = nlohmann::ordered_json::parse(tf->header.substr(8));
  hybrid::TensorFileMetadata meta;
  for (const auto& [k, v] : doc["__metadata__"].items()) meta.emplace_back(k, v.template get<std::string>());
  std::vector<hybrid::TensorToWrite> ts;
  for (const auto& t : tf->tensors) ts.push_back({t.name, t.dtype, t.shape, as_bytes(file).subspan(t.offset, t.length)});
  edit(meta, ts);
  return hybrid::encode_safetensors(meta, ts);
}

}  // namespace

TEST_CASE("state_file: encode, decode gives the same state bit for bit (every rule, fixed and learned schedules)") {
  for (nl::RuleKind rule : nl::kAllRuleKinds) {
    for (auto schedule : {nl::FrequencySchedule::fixed, nl::FrequencySchedule::learned}) {
      CAPTURE(std::string(nl::to_string(rule)));
      nl::Trainer t = storetest::trained(rule, 2, 11, schedule);
      if (schedule == nl::FrequencySchedule::fixed) CHECK(t.error_buffer(1).count() == 2);
      const nl::Checkpoint before{t.state(), "{\"run\":\"record\"}"};
      auto file = nl_store::encode_state_file(before);
      REQUIRE(file.ok());
      auto after = nl_store::decode_state_file(as_bytes(*file), "state");
      REQUIRE(after.ok());
      CHECK(after->run == before.run);
      CHECK(after->state.opt.lr == 0.1 + 0.2);
      CHECK(nl::encode_checkpoint(*after) == nl::encode_checkpoint(before));
      auto again = nl_store::encode_state_file(*after);
      REQUIRE(again.ok());
      CHECK(*again == *file);
    }
  }
}

TEST_CASE("state_file: tensor names (export's names, adam_m/, adam_v/, context/, error/)") {
  nl::Trainer t = storetest::trained(nl::RuleKind::atlas, 2, 3);
  nl::TrainerState s = t.state();
  std::vector<std::string> names;
  for (const auto& n : nl_store::state_tensors(s)) names.push_back(n.name);
  for (const char* want : {"E", "levels/1/W_omega", "adam_m/E", "adam_v/levels/0/b_eta", "context/levels/0/state",
                           "context/levels/1/state", "error/levels/1/W_K", "error/levels/0/W_omega"}) {
    CHECK_MESSAGE(std::count(names.begin(), names.end(), want) == 1, want);
  }
  const std::size_t params = nl::named_tensors(s.cfg, s.params).size();
  CHECK(names.size() == 3 * params + 2 + 2 * nl::named_level_tensors(s.cfg, 0, s.buffer_sums[0]).size());
  CHECK(nl_store::context_prefix() == "context/");
}

TEST_CASE("state_file: a damaged file is refused, naming what") {
  nl::Trainer t = storetest::trained(nl::RuleKind::delta, 2, 3);
  auto file = nl_store::encode_state_file({t.state(), "{}"});
  REQUIRE(file.ok());
  auto refused = [](const std::string& bytes, const std::string& want) {
    auto r = nl_store::decode_state_file(as_bytes(bytes), "S");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code() == common::ErrorCode::malformed);
    CHECK_MESSAGE(r.error().message().find(want) != std::string::npos, r.error().message());
  };
  using Meta = hybrid::TensorFileMetadata;
  using Ts = std::vector<hybrid::TensorToWrite>;
  refused(rewritten(*file, [](Meta&, Ts& ts) { ts.erase(ts.begin() + 3); }), "tensor \"W_V\": missing");
  refused(rewritten(*file, [](Meta&, Ts& ts) { ts.push_back({"extra", "F32", {}, ts[0].data.first(4)}); }),
          "tensor \"extra\": not part of");
  refused(rewritten(*file, [](Meta&, Ts& ts) { ts[0].shape = {ts[0].shape[1], ts[0].shape[0]}; }), "tensor \"E\": shape");
  refused(rewritten(*file, [](Meta& m, Ts&) { m.erase(m.begin() + 3); }), "metadata key \"nltrain.trainer\": missing");
  refused(rewritten(*file, [](Meta& m, Ts&) { m.emplace_back("nltrain.batch", "2"); }), "metadata key \"nltrain.batch\": unknown");
  refused(rewritten(*file, [](Meta& m, Ts&) { m[2].second = "-1"; }), "expected a decimal step");
  refused(rewritten(*file, [](Meta& m, Ts&) {
            auto j = nlohmann::ordered_json::parse(m[3].second);
            j["error_counts"] = {1};
            m[3].second = j.dump();
          }),
          "/error_counts: expected 2 counts");
  refused(rewritten(*file, [](Meta& m, Ts&) {
            auto j = nlohmann::ordered_json::parse(m[3].second);
            j["optimizer"]["lr"] = "fast";
            m[3].second = j.dump();
          }),
          "/optimizer/lr");
}

// A batched trainer (nltrain train --batch 3): streams 1 and 2 as context/1/..., context/2/...;
// the reader finds the batch from the names and wants every stream whole.
TEST_CASE("state_file: a batched trainer's streams round trip bit for bit; a missing stream is refused") {
  const nl::MagConfig cfg = nltest::mag_config(nl::RuleKind::delta, 2);
  nl::Trainer t(cfg, nl::MagParams<float>::init(cfg), nl::AdamWConfig{}, 3);
  std::vector<std::vector<std::size_t>> ids(3, std::vector<std::size_t>(cfg.seq_len)), tg = ids;
  for (std::size_t b = 0; b < 3; ++b) {
    for (std::size_t i = 0; i < cfg.seq_len; ++i) ids[b][i] = (7 * b + 3 * i + 1) % cfg.vocab, tg[b][i] = (7 * b + 3 * i + 4) % cfg.vocab;
  }
  const std::vector<nl::Sequence> batch{{ids[0], tg[0]}, {ids[1], tg[1]}, {ids[2], tg[2]}};
  REQUIRE(t.build_batch_step(nltest::registry(), batch, nl::GradientPath::tape).ok());
  REQUIRE(t.context(1).levels[0] != t.context(2).levels[0]);
  const nl::Checkpoint before{t.state(), "{}"};
  auto file = nl_store::encode_state_file(before);
  REQUIRE(file.ok());
  nl::TrainerState s = before.state;
  std::vector<std::string> names;
  for (const auto& n : nl_store::state_tensors(s)) names.push_back(n.name);
  CHECK(std::count(names.begin(), names.end(), "context/2/levels/1/state") == 1);
  auto after = nl_store::decode_state_file(as_bytes(*file), "state");
  REQUIRE(after.ok());
  REQUIRE(after->state.more_contexts.size() == 2);
  CHECK(nl::encode_checkpoint(*after) == nl::encode_checkpoint(before));
  const std::string holed = rewritten(*file, [](auto&, auto& ts) {
    ts.erase(std::find_if(ts.begin(), ts.end(), [](const auto& x) { return x.name == "context/1/levels/0/state"; }));
  });
  auto e = nl_store::decode_state_file(as_bytes(holed), "state");
  REQUIRE(!e.ok());
  CHECK(e.error().message().find("context/1/levels/0/state") != std::string::npos);
}
