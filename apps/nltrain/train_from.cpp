// nltrain train --from: the model configuration and initial parameters of a new run taken from
// a safetensors file; only flags that leave the parameters' shapes alone may change it.
#include "train_plan.hpp"

#include <string>

#include "nl/named_tensors.hpp"
#include "tensor_file.hpp"

namespace nltrain::cli {
namespace {

common::Error differs(const std::string& flag, const std::string& given, const std::string& file) {
  return common::Error::invalid_argument(flag + ": " + given + " differs from the --from file's " + file +
                                         " (the parameters' shapes follow the file's configuration)");
}

}  // namespace

common::Result<StartingPoint> starting_point_from(const std::string& from, const ConfigFlags& f) {
  if (!f.config_file.empty()) {
    return common::Error::invalid_argument("--config cannot be combined with --from (the model's configuration is the file's)");
  }
  auto st = load_tensor_file(from);
  if (!st.ok()) return st.error();
  nl::MagConfig m = st->cfg;
  if (!f.rule.empty()) {
    auto r = parse_rule(f.rule);
    if (!r.ok()) return r.error();
    if (*r != m.rule) return differs("--rule", f.rule, std::string(short_rule_name(m.rule)));
  }
  if (f.schedule) {
    auto sc = parse_schedule(*f.schedule, "--schedule");
    if (!sc.ok()) return sc.error();
    if (*sc != m.schedule) return differs("--schedule", *f.schedule, std::string(schedule_name(m.schedule)));
  }
  if (f.levels && *f.levels != m.levels()) return differs("--levels", std::to_string(*f.levels), std::to_string(m.levels()));
  if (f.vocab && *f.vocab != m.vocab) return differs("--vocab", std::to_string(*f.vocab), std::to_string(m.vocab));
  if (f.d && *f.d != m.d) return differs("--d", std::to_string(*f.d), std::to_string(m.d));
  if (f.heads && *f.heads != m.heads) return differs("--heads", std::to_string(*f.heads), std::to_string(m.heads));
  if (f.seq_len) m.seq_len = *f.seq_len;
  if (f.window) {
    m.window = *f.window;
  } else if (f.seq_len) {
    m.window = m.seq_len;  // as without --from: the window defaults to the chunk
  }
  if (f.seed) m.seed = *f.seed;
  if (common::Status v = nl::validate(m); !v.ok()) return v.error();
  // The file was checked against its own configuration; the changed one must shape it alike.
  nl::MagParams<float> probe = nl::MagParams<float>::zeros(m);
  const auto want = nl::named_tensors(m, probe);
  const auto have = nl::named_tensors(st->cfg, st->params);
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (i >= have.size() || want[i].name != have[i].name || want[i].shape != have[i].shape) {
      return common::Error::invalid_argument("--seq-len / --window: change the shape of tensor \"" + want[i].name +
                                             "\"; keep the file's");
    }
  }
  return StartingPoint{m, std::move(st->params)};
}

}  // namespace nltrain::cli
