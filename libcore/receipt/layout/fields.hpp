#pragma once
// The receipt's field order, stated once: for each receipt object, the fields in the order both
// emitters write them (the document emitter, receipt/emit/object_writer.cpp, walks these tables; the
// typed writer, receipt/emit/general_receipt_writer.cpp, and the document builder,
// receipt/engine/receipt_json.cpp, write their fields by iterating them at compile time). The
// schemas' "x-order" is the source of this order; tests/receipt/emit/field_layout_test.cpp holds the
// two together. Fields not listed are not emitted (e.g. fixture_status.promote_to), as in the
// reference emitter.
#include <array>
#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>

namespace receipt::layout {

enum class FieldKind {
  string,          // JSON string, escaped as JSON.stringify does
  number,          // canonical 9-significant-digit decimal
  integer,         // bare digits
  boolean,         // true / false
  string_array,    // array of strings
  true_only,       // written as `true` only when the value is literally true, else omitted
  nonzero_number,  // written only when present and not equal to 0
  nested,          // an object, array or map written by the section's own code
};

enum class Presence {
  required,          // absent -> error
  optional,          // absent -> omitted
  optional_batched,  // omitted unless present AND the receipt has a "batch" block
};

struct Field {
  std::string_view key;
  FieldKind kind;
  Presence presence = Presence::required;
};

template <std::size_t N>
using Fields = std::array<Field, N>;

// The position of `key` in `fields`: writers name the fields they fill, and a name the table does
// not hold fails to compile.
template <std::size_t N>
consteval std::size_t slot(const Fields<N>& fields, std::string_view key) {
  for (std::size_t i = 0; i < N; ++i) {
    if (fields[i].key == key) return i;
  }
  throw "receipt::layout::slot: the key is not in this table";
}

// Calls visit(std::integral_constant<std::size_t, I>{}) for each field I of Table, in the table's
// order, unrolled at compile time: a writer switches on the constant (case slot(Table, "key"):), so
// it names its fields but never restates their order, and pays no run-time dispatch for it.
template <const auto& Table, class Visit>
constexpr void for_each_field(Visit&& visit) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (visit(std::integral_constant<std::size_t, I>{}), ...);
  }(std::make_index_sequence<std::tuple_size_v<std::remove_cvref_t<decltype(Table)>>>{});
}

namespace tables {
using K = FieldKind;
using P = Presence;

// ---- shared between both layouts ----
inline constexpr Fields<3> kFixtureStatus{{{"authoring_state", K::string}, {"verification_state", K::string},
                                    {"canonical", K::boolean}}};
inline constexpr Fields<4> kByteOutput{{{"format", K::string}, {"json_key_order", K::string},
                                 {"trailing_zero_policy", K::string}, {"indent", K::string}}};
inline constexpr Fields<6> kNumericPolicy{{{"number_encoding", K::string}, {"precision_significant_digits", K::integer},
                                    {"rounding", K::string}, {"tolerance", K::nested},
                                    {"computation_order", K::string}, {"byte_output", K::nested}}};
inline constexpr Fields<2> kForwardUnit{{{"net", K::number}, {"out", K::number}}};
inline constexpr Fields<4> kOutputErrorSignal{{{"factors", K::nested}, {"product_order", K::string},
                                        {"signal_value", K::number}, {"dual_form", K::nested, P::optional}}};
inline constexpr Fields<4> kDualForm{{{"jacobian_terms", K::nested}, {"product_order", K::string},
                               {"summation_order", K::string_array}, {"summed_value", K::number}}};
inline constexpr Fields<3> kJacobianTerm{{{"target_unit", K::string}, {"factors", K::nested}, {"term_value", K::number}}};
inline constexpr Fields<6> kHiddenErrorSignal{{{"downstream_contributions", K::nested},
                                        {"summation_order", K::string_array},
                                        {"backpropagated_sum", K::number},
                                        {"activation_derivative", K::number},
                                        {"product_order", K::string},
                                        {"signal_value", K::number}}};
inline constexpr Fields<5> kDownstreamContribution{{{"from", K::string}, {"downstream_signal", K::number},
                                             {"via_weight", K::string}, {"weight_value", K::number},
                                             {"value", K::number}}};
inline constexpr Fields<3> kNamedFactor{{{"name", K::string}, {"from", K::string, P::optional}, {"value", K::number}}};
inline constexpr Fields<11> kUpdate{{{"parameter_id", K::string}, {"kind", K::string}, {"layer_edge", K::string},
                              {"parameter_role", K::string}, {"from_unit", K::string}, {"to_unit", K::string},
                              {"weight_before", K::number}, {"optimizer", K::nested}, {"gradient", K::number},
                              {"update", K::number}, {"weight_after", K::number}}};

// ---- v0.1.0 Mazur ----
inline constexpr Fields<19> kMazurReceipt{{{"schema_version", K::string}, {"fixture", K::string}, {"step", K::integer},
                                    {"fixture_status", K::nested}, {"metadata", K::nested},
                                    {"numeric_policy", K::nested}, {"bias_policy", K::nested},
                                    {"topology", K::nested}, {"learning_rate", K::number}, {"inputs", K::nested},
                                    {"targets", K::nested}, {"parameters_before", K::nested},
                                    {"forward", K::nested}, {"loss", K::nested}, {"backward", K::nested},
                                    {"updates", K::nested}, {"parameters_after", K::nested},
                                    {"post_update_forward", K::nested}, {"post_update_loss", K::nested}}};
inline constexpr Fields<3> kMazurMetadata{{{"source", K::string}, {"url_reference", K::string},
                                    {"gradient_convention", K::string}}};
inline constexpr Fields<4> kMazurBiasPolicy{{{"mode", K::string}, {"reason", K::string}, {"updated_in_step", K::boolean},
                                      {"reconciliation", K::string}}};
inline constexpr Fields<7> kMazurTopology{{{"layers", K::string_array}, {"input_size", K::integer},
                                    {"hidden_size", K::integer}, {"output_size", K::integer},
                                    {"activation", K::string}, {"loss", K::string}, {"bias_sharing", K::string}}};
inline constexpr Fields<2> kMazurInputs{{{"i1", K::number}, {"i2", K::number}}};
inline constexpr Fields<2> kMazurOutputs{{{"o1", K::number}, {"o2", K::number}}};
inline constexpr Fields<10> kMazurParameters{{{"w1", K::number}, {"w2", K::number}, {"w3", K::number}, {"w4", K::number},
                                       {"w5", K::number}, {"w6", K::number}, {"w7", K::number}, {"w8", K::number},
                                       {"b1", K::number}, {"b2", K::number}}};
inline constexpr Fields<4> kMazurForward{{{"h1", K::nested}, {"h2", K::nested}, {"o1", K::nested}, {"o2", K::nested}}};
inline constexpr Fields<2> kMazurLoss{{{"per_output", K::nested}, {"total", K::number}}};
inline constexpr Fields<2> kBackward{{{"output_error_signals", K::nested}, {"hidden_error_signals", K::nested}}};
inline constexpr Fields<2> kMazurOutputSignals{{{"o1", K::nested}, {"o2", K::nested}}};
inline constexpr Fields<2> kMazurHiddenSignals{{{"h1", K::nested}, {"h2", K::nested}}};
inline constexpr Fields<4> kMazurOptimizer{{{"name", K::string}, {"learning_rate", K::number}, {"factors", K::nested},
                                     {"product_order", K::string}}};
inline constexpr Fields<5> kMazurPostUpdateForward{{{"status", K::string}, {"h1", K::nested}, {"h2", K::nested},
                                             {"o1", K::nested}, {"o2", K::nested}}};
inline constexpr Fields<3> kPostUpdateLoss{{{"status", K::string}, {"per_output", K::nested}, {"total", K::number}}};

// ---- v0.2.0 and later ----
inline constexpr Fields<26> kGeneralReceipt{{{"schema_version", K::string},
                                      {"fixture", K::string},
                                      {"step", K::integer},
                                      {"fixture_status", K::nested},
                                      {"source_framework", K::nested, P::optional},
                                      {"attestor", K::nested, P::optional},
                                      {"metadata", K::nested},
                                      {"numeric_policy", K::nested},
                                      {"bias_policy", K::nested},
                                      {"topology", K::nested},
                                      {"learning_rate", K::number},
                                      {"optimizer_config", K::nested, P::optional},
                                      {"trace_id", K::string, P::optional},
                                      {"step_index", K::integer, P::optional},
                                      {"batch", K::nested, P::optional},
                                      {"inputs", K::nested},
                                      {"targets", K::nested},
                                      {"parameters_before", K::nested},
                                      {"per_sample", K::nested, P::optional_batched},
                                      {"forward", K::nested},
                                      {"loss", K::nested},
                                      {"backward", K::nested},
                                      {"updates", K::nested},
                                      {"parameters_after", K::nested},
                                      {"post_update_forward", K::nested},
                                      {"post_update_loss", K::nested}}};
inline constexpr Fields<4> kSourceFramework{{{"name", K::string}, {"version", K::string},
                                      {"information_uri", K::string, P::optional},
                                      {"extractor", K::nested, P::optional}}};
inline constexpr Fields<2> kNameVersion{{{"name", K::string}, {"version", K::string}}};
inline constexpr Fields<7> kAttestor{{{"computed_by", K::nested}, {"verified_by", K::nested},
                               {"differential_tolerance", K::nested}, {"import_provenance", K::nested, P::optional},
                               {"skip_basis", K::string, P::optional},
                               {"signed_subject_digest", K::string, P::optional},
                               {"bundle_root_digest", K::string, P::optional}}};
inline constexpr Fields<2> kAttestorIdentity{{{"kind", K::string}, {"identity", K::string}}};
inline constexpr Fields<2> kTolerance{{{"atol", K::number}, {"rtol", K::number}}};
inline constexpr Fields<3> kImportProvenance{{{"source_format", K::string}, {"source_hash", K::string},
                                       {"import_timestamp", K::string, P::optional}}};
inline constexpr Fields<3> kGeneralMetadata{{{"source", K::string}, {"url_reference", K::string, P::optional},
                                      {"gradient_convention", K::string}}};
inline constexpr Fields<4> kGeneralBiasPolicy{{{"mode", K::string}, {"reason", K::string, P::optional},
                                        {"updated_in_step", K::boolean},
                                        {"reconciliation", K::string, P::optional}}};
inline constexpr Fields<11> kGeneralTopology{{{"layers", K::string_array}, {"input_size", K::integer},
                                       {"hidden_size", K::integer}, {"output_size", K::integer},
                                       {"unit_order", K::nested}, {"parameter_order", K::string_array},
                                       {"parameters", K::nested}, {"activation_hidden", K::string},
                                       {"activation_output", K::string}, {"loss", K::string},
                                       {"bias_sharing", K::string}}};
inline constexpr Fields<3> kUnitOrder{{{"input", K::string_array}, {"hidden", K::string_array},
                                {"output", K::string_array}}};
inline constexpr Fields<5> kTopologyParameter{{{"id", K::string}, {"role", K::string},
                                        {"from_unit", K::string, P::optional}, {"to_unit", K::string, P::optional},
                                        {"applies_to_units", K::string_array, P::optional}}};
inline constexpr Fields<10> kOptimizerConfig{{{"name", K::string}, {"learning_rate", K::number},
                                       {"beta1", K::number, P::optional}, {"beta2", K::number, P::optional},
                                       {"epsilon", K::number, P::optional}, {"weight_decay", K::number, P::optional},
                                       {"t", K::integer, P::optional}, {"momentum", K::number, P::optional},
                                       {"nesterov", K::true_only, P::optional},
                                       {"dampening", K::nonzero_number, P::optional}}};
inline constexpr Fields<3> kBatch{{{"size", K::integer}, {"sample_order", K::string_array}, {"reduction", K::string}}};
inline constexpr Fields<4> kGeneralLoss{{{"per_output", K::nested}, {"per_sample", K::nested, P::optional_batched},
                                  {"reduction", K::string, P::optional}, {"total", K::number}}};
inline constexpr Fields<6> kGeneralOptimizer{{{"name", K::string}, {"learning_rate", K::number}, {"factors", K::nested},
                                       {"product_order", K::string}, {"state_before", K::nested, P::optional},
                                       {"state_after", K::nested, P::optional}}};
inline constexpr Fields<2> kAdamState{{{"m", K::number}, {"v", K::number}}};
inline constexpr Fields<1> kMomentumState{{{"buffer", K::number}}};
inline constexpr Fields<4> kPerSampleEntry{{{"inputs", K::nested}, {"targets", K::nested}, {"forward", K::nested},
                                     {"loss", K::nested}}};

}  // namespace tables
}  // namespace receipt::layout
