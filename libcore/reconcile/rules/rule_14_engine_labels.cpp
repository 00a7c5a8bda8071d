#include "reconcile/rules/rule_14_engine_labels.hpp"

#include <string>
#include <unordered_map>
#include <vector>

#include "common/json_document_reader.hpp"
#include "receipt/emit/general_receipt_writer.hpp"
#include "reconcile/rules/core_js.hpp"
#include "reconcile/rules/optim_common.hpp"
#include "reconcile/rules/rule_14_findings.hpp"

namespace reconcile::rules {
namespace {

using rule14::json_quoted;
using rule14::kTag;

class LabelWalk {
 public:
  explicit LabelWalk(FailureSink& out) : out_(out) {}

  // Every string under `engine` against the receipt's value at the same place, `path` naming it;
  // the member `skip` of the walk's root, when given, is left out.
  void walk(const Json& claimed, common::JsonView engine, std::string_view path, std::string_view skip = {}) {
    root_.assign(path);
    steps_.clear();
    skip_ = skip;
    visit(claimed, engine);
  }

 private:
  // Where the walk is, below root_: a member's key or an element's index. The path text is made
  // only for a failure (making it at every node was most of the walk).
  struct Step {
    std::string_view key;
    std::size_t index = 0;
    bool element = false;
  };

  void visit(const Json& claimed, common::JsonView engine) {
    if (engine.is_string()) {
      if (!claimed.is_string() || claimed.string() != engine.string()) differ(claimed, engine);
    } else if (engine.is_object()) {
      if (!claimed.is_object()) return;
      // The receipt's members are usually in the engine's order: the one after the last found
      // is tried first.
      const auto mine = claimed.members();
      auto next = mine.begin();
      for (auto it = engine.members().begin(); it != engine.members().end(); ++it) {
        const std::string_view key = it.key().string();
        if (steps_.empty() && !skip_.empty() && key == skip_) continue;
        const Json* c = nullptr;
        if (next != mine.end() && next->first == key) {
          c = &next->second;
          ++next;
        } else {
          c = member(claimed, key);
        }
        if (c == nullptr) continue;
        steps_.push_back({key, 0, false});
        visit(*c, *it);
        steps_.pop_back();
      }
    } else if (engine.is_array()) {
      if (!claimed.is_array()) return;
      std::size_t i = 0;
      for (const common::JsonView e : engine.elements()) {
        if (i >= claimed.size()) break;
        steps_.push_back({{}, i, true});
        visit(claimed[i], e);
        steps_.pop_back();
        ++i;
      }
    }
  }

  std::string path() const {
    std::string p = root_;
    for (const Step& s : steps_) {
      if (s.element) {
        p.append("[").append(std::to_string(s.index)).append("]");
      } else {
        p.append(".").append(s.key);
      }
    }
    return p;
  }

  void differ(const Json& claimed, common::JsonView engine) {
    const std::string at = path();
    out_.add(plain_failure(14, at,
                           std::string(kTag) + "label: the receipt says " + claimed.dump() + " at " + at +
                               " where the engine, re-running the step from the receipt's own topology, says " +
                               json_quoted(engine.string()) +
                               ": the numbers compared there are named for something else."));
  }

  std::string root_;
  std::string_view skip_;
  std::vector<Step> steps_;
  FailureSink& out_;
};

}  // namespace

void compare_engine_labels(const Json& receipt, const receipt::engine::GeneralReceipt& engine, FailureSink& out) {
  // The engine's receipt as it would write it: its labels are made in one place, the writer (its
  // numbers, which are not compared here, written as 0).
  auto line = receipt::emit::emit_receipt_labels(engine);
  if (!line) return;  // a number outside the canonical range: the numeric comparison speaks
  auto doc = common::parse_json_document(std::move(*line));
  if (!doc) return;
  const common::JsonView want = doc->root();
  LabelWalk walk(out);
  const auto topology = want.find("topology");
  if (const auto layers = topology ? topology->find("layers") : std::nullopt) {
    if (const Json* claimed = member(member(receipt, "topology"), "layers")) walk.walk(*claimed, *layers, "topology.layers");
  }
  if (const auto backward = want.find("backward")) {
    if (const Json* claimed = member(receipt, "backward")) walk.walk(*claimed, *backward, "backward");
  }
  const auto engine_updates = want.find("updates");
  const Json* claimed_updates = array_member(receipt, "updates");
  if (!engine_updates || !engine_updates->is_array() || !claimed_updates) return;
  // A batched step is re-run without its optimizer (the reference's batched engine applies plain
  // SGD, and so does ours): an update's optimizer block then names what the engine did not run,
  // and its labels are not the engine's to judge. Its numbers are still compared, as plain SGD's.
  const bool optimizer_run = !(engine.input && engine.input->batch) || !core::truthy(member(receipt, "optimizer_config"));
  std::unordered_map<std::string_view, common::JsonView> by_id;
  for (const common::JsonView u : engine_updates->elements()) {
    const auto id = u.is_object() ? u.find("parameter_id") : std::nullopt;
    if (id && id->is_string()) by_id.emplace(id->string(), u);
  }
  for (const Json& u : *claimed_updates) {
    const auto id = string_member(u, "parameter_id");
    if (!id) continue;
    const auto found = by_id.find(*id);
    if (found != by_id.end()) {
      walk.walk(u, found->second, "updates[" + std::string(*id) + "]", optimizer_run ? "" : "optimizer");
    }
  }
}

}  // namespace reconcile::rules
