// read_scheduler (model_read.hpp): the "scheduler" object of an `mlp` receipt's model.
#include <string>
#include <utility>
#include <vector>

#include "mlp_audit/model_read.hpp"

namespace mlp_audit {
namespace scheduler_read_detail {  // named: the unity build shares one anonymous namespace

using JsonFields = common::JsonViewFields;

// Counts large enough for any run, small enough that Python's `%` and int-to-float are exact.
constexpr std::uint64_t kMaxCount = std::uint64_t{1} << 40;
constexpr std::size_t kMaxMilestones = 4096;

common::Result<std::uint64_t> count(const JsonFields& f, const char* key, std::uint64_t lo) {
  auto v = f.unsigned_int(key);
  if (!v.ok()) return v.error();
  if (*v < lo || *v > kMaxCount) return f.error(key, "must be in [" + std::to_string(lo) + ", 2^40]");
  return *v;
}

common::Status milestones(const FieldReader& at, const JsonFields& f, Scheduler& s) {
  auto arr = f.array("milestones");
  if (!arr.ok()) return arr.error();
  if (arr->size() == 0 || arr->size() > kMaxMilestones) return f.error("milestones", "must hold 1 to 4096 epochs");
  const common::JsonReader r(at.file(), at.line(), common::JsonReader::Dialect::quoting);
  for (const View e : arr->elements()) {
    const std::string path = common::json_child_path(f.pointer("milestones"), s.milestones.size());
    auto v = r.unsigned_integer(e, path);
    if (!v.ok()) return v.error();
    if (*v > kMaxCount) return r.error(path, "must be at most 2^40");
    if (!s.milestones.empty() && *v < s.milestones.back()) return r.error(path, "is below the milestone before it (sorted, repeats allowed)");
    s.milestones.push_back(*v);
  }
  return {};
}

}  // namespace scheduler_read_detail

common::Status read_scheduler(const FieldReader& at, const View& obj, Scheduler& s) {
  using namespace scheduler_read_detail;
  JsonFields f = at.fields(obj, "/model/scheduler");
  auto kind = pick<SchedulerKind>(f, "kind", {{"step", SchedulerKind::step}, {"multi_step", SchedulerKind::multi_step},
                                              {"exponential", SchedulerKind::exponential},
                                              {"cosine_annealing", SchedulerKind::cosine_annealing}, {"linear", SchedulerKind::linear}});
  if (!kind.ok()) return kind.error();
  s.kind = *kind;
  common::Status keys;
  switch (s.kind) {
    case SchedulerKind::step: keys = f.only({"kind", "step_size", "gamma"}); break;
    case SchedulerKind::multi_step: keys = f.only({"kind", "milestones", "gamma"}); break;
    case SchedulerKind::exponential: keys = f.only({"kind", "gamma"}); break;
    case SchedulerKind::cosine_annealing: keys = f.only({"kind", "t_max", "eta_min"}); break;
    case SchedulerKind::linear: keys = f.only({"kind", "start_factor", "end_factor", "total_iters"}); break;
  }
  if (!keys.ok()) return keys.error();
  std::vector<std::pair<const char*, double*>> nums;
  std::vector<std::pair<const char*, std::uint64_t*>> counts;
  switch (s.kind) {
    case SchedulerKind::step: counts = {{"step_size", &s.step_size}}, nums = {{"gamma", &s.gamma}}; break;
    case SchedulerKind::multi_step:
      if (auto m = milestones(at, f, s); !m.ok()) return m.error();
      nums = {{"gamma", &s.gamma}};
      break;
    case SchedulerKind::exponential: nums = {{"gamma", &s.gamma}}; break;
    case SchedulerKind::cosine_annealing: counts = {{"t_max", &s.t_max}}, nums = {{"eta_min", &s.eta_min}}; break;
    case SchedulerKind::linear:
      counts = {{"total_iters", &s.total_iters}}, nums = {{"start_factor", &s.start_factor}, {"end_factor", &s.end_factor}};
      break;
  }
  for (auto [key, field] : counts) {  // step_size and T_max divide; total_iters may be 0
    auto v = count(f, key, std::string(key) == "total_iters" ? 0 : 1);
    if (!v.ok()) return v.error();
    *field = *v;
  }
  for (auto [key, field] : nums) {  // LinearLR's factors are in [0, 1] (torch refuses others)
    const bool factor = std::string(key).ends_with("_factor");
    auto v = at.finite(f, key, 0, factor ? 1 : 1e6);
    if (!v.ok()) return v.error();
    *field = *v;
  }
  return {};
}

}  // namespace mlp_audit
