#include "hybrid/explain/narrative.hpp"

#include <cstdint>

#include <doctest/doctest.h>

using namespace hybrid;

namespace {

DecisionExplanation text(BackendChoice b, float confidence) {
  return {{true, 0, 0}, b, confidence, "Because."};
}

StructuredDecisionExplanation structured(float success, float drift, float observations, std::uint32_t episodes = 40,
                                         std::uint32_t successes = 30) {
  StructuredDecisionExplanation s;
  s.context = {true, 0, 0};
  s.recommended_backend = BackendChoice::gpu;
  s.confidence = success;
  s.evidence_episodes = episodes;
  s.evidence_successes = successes;
  s.evidence_backend = BackendChoice::gpu;
  s.factors = {{DecisionFactorKind::historical_success_rate, success, ""},
               {DecisionFactorKind::drift_penalty, drift, ""},
               {DecisionFactorKind::observation_count, observations, ""},
               {DecisionFactorKind::memory_stability, 1.0F - drift, ""}};
  return s;
}

}  // namespace

TEST_CASE("narrative: narrative_contains_backend_and_confidence") {
  auto n = build_narrative(text(BackendChoice::gpu, 0.82F), structured(0.82F, 0.0F, 0.2F));
  CHECK(n.narrative.find("GPU") != std::string::npos);
  CHECK(n.narrative.find('%') != std::string::npos);
  CHECK(n.narrative.starts_with("Atenia selected GPU execution with a confidence of 82%. Because."));
  CHECK(build_narrative(text(BackendChoice::cpu, 0.125F), structured(0.1F, 0.0F, 0.0F))
            .narrative.starts_with("Atenia selected CPU execution with a confidence of 13%."));
}

TEST_CASE("narrative: narrative_mentions_drift_when_present") {
  auto with = build_narrative(text(BackendChoice::cpu, 0.5F), structured(0.5F, 0.3F, 0.5F));
  CHECK(with.narrative.find("Drift or instability has been observed in GPU execution in this context.") != std::string::npos);
  auto without = build_narrative(text(BackendChoice::cpu, 0.5F), structured(0.5F, 0.0F, 0.5F));
  CHECK(without.narrative.find("No significant drift or instability") != std::string::npos);
}

TEST_CASE("narrative: narrative_mentions_all_factors") {
  auto n = build_narrative(text(BackendChoice::gpu, 0.9F), structured(0.9F, 0.5F, 0.1F));
  for (const char* label : {"historical success", "drift impact", "observation count", "memory stability"}) {
    CHECK(n.narrative.find(label) != std::string::npos);
  }
  const std::string p3 = n.narrative.substr(n.narrative.rfind("\n\n") + 2);
  CHECK(p3 ==
        "Key contributing factors: historical success (high influence), drift impact (medium influence), observation "
        "count (low influence), memory stability (medium influence).");
}

TEST_CASE("narrative: narrative_is_deterministic") {
  const auto t = text(BackendChoice::gpu, 0.7F);
  const auto s = structured(0.7F, 0.1F, 0.8F);
  auto a = build_narrative(t, s), b = build_narrative(t, s);
  CHECK(a.recommended_backend == b.recommended_backend);
  CHECK(a.confidence == b.confidence);
  CHECK(a.narrative == b.narrative);
}

TEST_CASE("narrative: three paragraphs; success wording follows the confidence; confidence is clamped") {
  auto n = build_narrative(text(BackendChoice::gpu, 1.7F), structured(0.55F, 0.0F, 0.0F));
  CHECK(n.confidence == 1.0F);
  CHECK(n.narrative.find("confidence of 100%") != std::string::npos);
  CHECK(n.narrative.find("a moderate historical GPU success rate under similar memory conditions (30 of 40 executions "
                         "succeeded).") != std::string::npos);
  std::size_t blank = 0;
  for (std::size_t p = n.narrative.find("\n\n"); p != std::string::npos; p = n.narrative.find("\n\n", p + 2)) ++blank;
  CHECK(blank == 2);
  CHECK(build_narrative(text(BackendChoice::gpu, 0.8F), structured(0.8F, 0.0F, 0.0F))
            .narrative.find("a strong historical GPU success rate") != std::string::npos);
  // Below the firm confidence: many observations with a low rate are called weak...
  CHECK(build_narrative(text(BackendChoice::gpu, 0.3F), structured(0.3F, 0.0F, 0.0F, 40, 14))
            .narrative.find("The historical GPU success rate is weak: 14 of 40 executions succeeded.") != std::string::npos);
}

TEST_CASE("narrative: thin evidence is said to be thin, whatever the raw rate") {
  // One success of one: a rate of 1.00 but a confidence of 0.21.
  const auto n = build_narrative(text(BackendChoice::gpu, 0.21F), structured(0.21F, 0.0F, 0.02F, 1, 1)).narrative;
  CHECK(n.find("strong") == std::string::npos);
  CHECK(n.find("The evidence is thin: GPU was observed only 1 time in this context (1 successful), too few for a firm "
               "conclusion.") != std::string::npos);
  CHECK(n.ends_with("These weights rest on 1 observation and are provisional."));
  CHECK(std::string(influence_label(0.75F)) == "high");
  CHECK(std::string(influence_label(0.40F)) == "medium");
  CHECK(std::string(influence_label(0.39F)) == "low");
}

TEST_CASE("narrative: the other backend's record is named as such and backs nothing") {
  // CPU chosen, never observed; the evidence row is the GPU's 20 successes of 20. Main said "The
  // decision is based on a strong historical GPU success rate" under a CPU choice.
  auto s = structured(0.84F, 0.0F, 0.4F, 20, 20);
  s.recommended_backend = BackendChoice::cpu;
  const auto n = build_narrative(text(BackendChoice::cpu, 0.0F), s).narrative;
  CHECK(n.starts_with("Atenia selected CPU execution with a confidence of 0%. Because."));
  CHECK(n.find("The decision is based on") == std::string::npos);
  CHECK(n.find("strong") == std::string::npos);
  CHECK(n.find("CPU has not been observed in this context; the evidence is the GPU's record: 20 of 20 executions "
               "succeeded. A success rate does not decide the choice.") != std::string::npos);
  CHECK(n.ends_with("They describe the GPU's record, not the CPU's."));
}
