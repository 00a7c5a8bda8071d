#include "hybrid/explain/decision_explanation.hpp"

#include <cstdint>

#include "hybrid/explain/decision_factors.hpp"
#include "hybrid/explain/representative_entry.hpp"

namespace hybrid {

namespace {

std::string episodes(std::uint32_t n) { return std::to_string(n) + (n == 1 ? " episode" : " episodes"); }

// One side of the comparison recommend_for_bucket makes, with the numbers value_for computes it
// from (whole units, as the trainer divides): the explanation names the rule that decided, so it
// never argues from a figure (a success rate) that took no part in the choice.
std::string value_account(const SelfTrainer& trainer, const ContextBucket& bucket, BackendChoice backend) {
  const auto s = trainer.stats_for_bucket(bucket, backend);
  std::string out = std::string(display_name(backend)) + " " + std::to_string(trainer.value_for(bucket, backend));
  if (!s || s->count == 0) return out + " (not observed in this context)";
  const auto count = static_cast<std::int64_t>(s->count);
  out += " (average score " + std::to_string(s->score_sum / count) + " over " + episodes(s->count);
  if (s->drift_count > 0) {
    out += ", less " + std::to_string(static_cast<std::int64_t>(s->drift_count) * kDriftPenalty / count) +
           " for drift in " + std::to_string(s->drift_count);
  }
  return out + ")";
}

// What the confidence, the chosen backend's own Wilson bound, rests on: its row's counts, and
// no more than they carry ("reliable" only at a firm confidence).
std::string confidence_sentence(const std::optional<ChoiceStats>& s, const std::string& backend, float confidence) {
  if (!s || s->count == 0) {
    return backend + " itself has not been observed in this context, so the confidence in it is 0%.";
  }
  const std::string counts = std::to_string(s->success_count) + " of " + std::to_string(s->count) + " " + backend +
                             " observations in this context succeeded";
  if (confidence >= kFirmConfidence) {
    return "Historical data indicates " + backend + " is reliable under the current memory pressure: " + counts + ".";
  }
  if (s->count < static_cast<std::uint32_t>(kFullObservationCount / 5)) {
    return backend + " was observed only " + std::to_string(s->count) + (s->count == 1 ? " time" : " times") +
           " in this context (" + std::to_string(s->success_count) +
           " successful), too few for a firm confidence in it; the choice is tentative.";
  }
  return "Only " + counts + ", too weak a record for a firm confidence in it; the choice is tentative.";
}

}  // namespace

std::optional<DecisionExplanation> explain_decision(const SelfTrainer& trainer,
                                                    const LearningContextSnapshot& context) {
  const LearningSnapshot snap = learning_snapshot(trainer);
  if (!representative_entry(snap, context)) return std::nullopt;

  DecisionExplanation out;
  out.context = context;
  const ContextBucket bucket = to_bucket(context);
  // The decision is the trainer's own for this bucket, never a policy of the explainer.
  out.recommended_backend = trainer.recommend_for_bucket(bucket);
  const std::string chosen(display_name(out.recommended_backend));
  const auto own = trainer.stats_for_bucket(bucket, out.recommended_backend);
  // The confidence belongs to the chosen backend: its own row's bound, 0 when it has none (the
  // other backend's record says nothing about how the chosen one does).
  out.confidence = own ? observation_confidence(own->success_count, own->count) : 0.0F;

  const std::string gpu = value_account(trainer, bucket, BackendChoice::gpu);
  const std::string cpu = value_account(trainer, bucket, BackendChoice::cpu);
  if (!context.gpu_available) {
    out.explanation = "CPU was selected because no GPU is available in this context.";
  } else if (out.recommended_backend == BackendChoice::gpu) {
    out.explanation = "GPU was selected because its learned value (average score less drift penalty) in this context "
                      "is higher than the CPU's: " + gpu + ", " + cpu + ".";
  } else {
    const bool tie = trainer.value_for(bucket, BackendChoice::gpu) == trainer.value_for(bucket, BackendChoice::cpu);
    out.explanation = "CPU was selected because the GPU's learned value (average score less drift penalty) in this "
                      "context is not higher than the CPU's: " + gpu + ", " + cpu +
                      (tie ? "; a tie goes to the CPU." : ".");
  }
  out.explanation += " " + confidence_sentence(own, chosen, out.confidence);
  return out;
}

}  // namespace hybrid
