#include "receipt/emit/field_layout.hpp"

#include <array>

namespace receipt::emit {
namespace {

using K = FieldKind;
using P = Presence;

template <std::size_t N>
using Fields = std::array<Field, N>;

// ---- shared between both layouts ----
constexpr Fields<3> kFixtureStatus{{{"authoring_state", K::string}, {"verification_state", K::string},
                                    {"canonical", K::boolean}}};
constexpr Fields<4> kByteOutput{{{"format", K::string}, {"json_key_order", K::string},
                                 {"trailing_zero_policy", K::string}, {"indent", K::string}}};
constexpr Fields<6> kNumericPolicy{{{"number_encoding", K::string}, {"precision_significant_digits", K::integer},
                                    {"rounding", K::string}, {"tolerance", K::nested},
                                    {"computation_order", K::string}, {"byte_output", K::nested}}};
constexpr Fields<2> kForwardUnit{{{"net", K::number}, {"out", K::number}}};
constexpr Fields<4> kOutputErrorSignal{{{"factors", K::nested}, {"product_order", K::string},
                                        {"signal_value", K::number}, {"dual_form", K::nested, P::optional}}};
constexpr Fields<4> kDualForm{{{"jacobian_terms", K::nested}, {"product_order", K::string},
                               {"summation_order", K::string_array}, {"summed_value", K::number}}};
constexpr Fields<3> kJacobianTerm{{{"target_unit", K::string}, {"factors", K::nested}, {"term_value", K::number}}};
constexpr Fields<6> kHiddenErrorSignal{{{"downstream_contributions", K::nested},
                                        {"summation_order", K::string_array},
                                        {"backpropagated_sum", K::number},
                                        {"activation_derivative", K::number},
                                        {"product_order", K::string},
                                        {"signal_value", K::number}}};
constexpr Fields<5> kDownstreamContribution{{{"from", K::string}, {"downstream_signal", K::number},
                                             {"via_weight", K::string}, {"weight_value", K::number},
                                             {"value", K::number}}};
constexpr Fields<3> kNamedFactor{{{"name", K::string}, {"from", K::string, P::optional}, {"value", K::number}}};
constexpr Fields<11> kUpdate{{{"parameter_id", K::string}, {"kind", K::string}, {"layer_edge", K::string},
                              {"parameter_role", K::string}, {"from_unit", K::string}, {"to_unit", K::string},
                              {"weight_before", K::number}, {"optimizer", K::nested}, {"gradient", K::number},
                              {"update", K::number}, {"weight_after", K::number}}};

// ---- v0.1.0 Mazur ----
constexpr Fields<19> kMazurReceipt{{{"schema_version", K::string}, {"fixture", K::string}, {"step", K::integer},
                                    {"fixture_status", K::nested}, {"metadata", K::nested},
                                    {"numeric_policy", K::nested}, {"bias_policy", K::nested},
                                    {"topology", K::nested}, {"learning_rate", K::number}, {"inputs", K::nested},
                                    {"targets", K::nested}, {"parameters_before", K::nested},
                                    {"forward", K::nested}, {"loss", K::nested}, {"backward", K::nested},
                                    {"updates", K::nested}, {"parameters_after", K::nested},
                                    {"post_update_forward", K::nested}, {"post_update_loss", K::nested}}};
constexpr Fields<3> kMazurMetadata{{{"source", K::string}, {"url_reference", K::string},
                                    {"gradient_convention", K::string}}};
constexpr Fields<4> kMazurBiasPolicy{{{"mode", K::string}, {"reason", K::string}, {"updated_in_step", K::boolean},
                                      {"reconciliation", K::string}}};
constexpr Fields<7> kMazurTopology{{{"layers", K::string_array}, {"input_size", K::integer},
                                    {"hidden_size", K::integer}, {"output_size", K::integer},
                                    {"activation", K::string}, {"loss", K::string}, {"bias_sharing", K::string}}};
constexpr Fields<2> kMazurInputs{{{"i1", K::number}, {"i2", K::number}}};
constexpr Fields<2> kMazurOutputs{{{"o1", K::number}, {"o2", K::number}}};
constexpr Fields<10> kMazurParameters{{{"w1", K::number}, {"w2", K::number}, {"w3", K::number}, {"w4", K::number},
                                       {"w5", K::number}, {"w6", K::number}, {"w7", K::number}, {"w8", K::number},
                                       {"b1", K::number}, {"b2", K::number}}};
constexpr Fields<4> kMazurForward{{{"h1", K::nested}, {"h2", K::nested}, {"o1", K::nested}, {"o2", K::nested}}};
constexpr Fields<2> kMazurLoss{{{"per_output", K::nested}, {"total", K::number}}};
constexpr Fields<2> kBackward{{{"output_error_signals", K::nested}, {"hidden_error_signals", K::nested}}};
constexpr Fields<2> kMazurOutputSignals{{{"o1", K::nested}, {"o2", K::nested}}};
constexpr Fields<2> kMazurHiddenSignals{{{"h1", K::nested}, {"h2", K::nested}}};
constexpr Fields<4> kMazurOptimizer{{{"name", K::string}, {"learning_rate", K::number}, {"factors", K::nested},
                                     {"product_order", K::string}}};
constexpr Fields<5> kMazurPostUpdateForward{{{"status", K::string}, {"h1", K::nested}, {"h2", K::nested},
                                             {"o1", K::nested}, {"o2", K::nested}}};
constexpr Fields<3> kPostUpdateLoss{{{"status", K::string}, {"per_output", K::nested}, {"total", K::number}}};

// ---- v0.2.0 and later ----
constexpr Fields<26> kGeneralReceipt{{{"schema_version", K::string},
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
constexpr Fields<4> kSourceFramework{{{"name", K::string}, {"version", K::string},
                                      {"information_uri", K::string, P::optional},
                                      {"extractor", K::nested, P::optional}}};
constexpr Fields<2> kNameVersion{{{"name", K::string}, {"version", K::string}}};
constexpr Fields<7> kAttestor{{{"computed_by", K::nested}, {"verified_by", K::nested},
                               {"differential_tolerance", K::nested}, {"import_provenance", K::nested, P::optional},
                               {"skip_basis", K::string, P::optional},
                               {"signed_subject_digest", K::string, P::optional},
                               {"bundle_root_digest", K::string, P::optional}}};
constexpr Fields<2> kAttestorIdentity{{{"kind", K::string}, {"identity", K::string}}};
constexpr Fields<2> kTolerance{{{"atol", K::number}, {"rtol", K::number}}};
constexpr Fields<3> kImportProvenance{{{"source_format", K::string}, {"source_hash", K::string},
                                       {"import_timestamp", K::string, P::optional}}};
constexpr Fields<3> kGeneralMetadata{{{"source", K::string}, {"url_reference", K::string, P::optional},
                                      {"gradient_convention", K::string}}};
constexpr Fields<4> kGeneralBiasPolicy{{{"mode", K::string}, {"reason", K::string, P::optional},
                                        {"updated_in_step", K::boolean},
                                        {"reconciliation", K::string, P::optional}}};
constexpr Fields<11> kGeneralTopology{{{"layers", K::string_array}, {"input_size", K::integer},
                                       {"hidden_size", K::integer}, {"output_size", K::integer},
                                       {"unit_order", K::nested}, {"parameter_order", K::string_array},
                                       {"parameters", K::nested}, {"activation_hidden", K::string},
                                       {"activation_output", K::string}, {"loss", K::string},
                                       {"bias_sharing", K::string}}};
constexpr Fields<3> kUnitOrder{{{"input", K::string_array}, {"hidden", K::string_array},
                                {"output", K::string_array}}};
constexpr Fields<5> kTopologyParameter{{{"id", K::string}, {"role", K::string},
                                        {"from_unit", K::string, P::optional}, {"to_unit", K::string, P::optional},
                                        {"applies_to_units", K::string_array, P::optional}}};
constexpr Fields<10> kOptimizerConfig{{{"name", K::string}, {"learning_rate", K::number},
                                       {"beta1", K::number, P::optional}, {"beta2", K::number, P::optional},
                                       {"epsilon", K::number, P::optional}, {"weight_decay", K::number, P::optional},
                                       {"t", K::integer, P::optional}, {"momentum", K::number, P::optional},
                                       {"nesterov", K::true_only, P::optional},
                                       {"dampening", K::nonzero_number, P::optional}}};
constexpr Fields<3> kBatch{{{"size", K::integer}, {"sample_order", K::string_array}, {"reduction", K::string}}};
constexpr Fields<4> kGeneralLoss{{{"per_output", K::nested}, {"per_sample", K::nested, P::optional_batched},
                                  {"reduction", K::string, P::optional}, {"total", K::number}}};
constexpr Fields<6> kGeneralOptimizer{{{"name", K::string}, {"learning_rate", K::number}, {"factors", K::nested},
                                       {"product_order", K::string}, {"state_before", K::nested, P::optional},
                                       {"state_after", K::nested, P::optional}}};
constexpr Fields<2> kAdamState{{{"m", K::number}, {"v", K::number}}};
constexpr Fields<1> kMomentumState{{{"buffer", K::number}}};
constexpr Fields<4> kPerSampleEntry{{{"inputs", K::nested}, {"targets", K::nested}, {"forward", K::nested},
                                     {"loss", K::nested}}};

}  // namespace

namespace mazur {
const Layout receipt{"", kMazurReceipt};
const Layout fixture_status{"FixtureStatus", kFixtureStatus};
const Layout metadata{"-", kMazurMetadata};
const Layout numeric_policy{"NumericPolicy", kNumericPolicy};
const Layout byte_output{"-", kByteOutput};
const Layout bias_policy{"BiasPolicy", kMazurBiasPolicy};
const Layout topology{"Topology", kMazurTopology};
const Layout inputs{"InputsMazur", kMazurInputs};
const Layout targets{"TargetsMazur", kMazurOutputs};
const Layout parameters{"ParametersMazur", kMazurParameters};
const Layout forward{"ForwardMazur", kMazurForward};
const Layout forward_unit{"ForwardUnit", kForwardUnit};
const Layout loss{"Loss", kMazurLoss};
const Layout per_output{"TargetsMazur", kMazurOutputs};
const Layout backward{"BackwardMazur", kBackward};
const Layout output_signals{"-", kMazurOutputSignals};
const Layout hidden_signals{"-", kMazurHiddenSignals};
const Layout output_error_signal{"OutputErrorSignal", kOutputErrorSignal};
const Layout dual_form{"DualForm", kDualForm};
const Layout jacobian_term{"JacobianTerm", kJacobianTerm};
const Layout hidden_error_signal{"HiddenErrorSignal", kHiddenErrorSignal};
const Layout downstream_contribution{"DownstreamContribution", kDownstreamContribution};
const Layout named_factor{"NamedFactor", kNamedFactor};
const Layout update{"Update", kUpdate};
const Layout optimizer{"-", kMazurOptimizer};
const Layout post_update_forward{"PostUpdateForward", kMazurPostUpdateForward};
const Layout post_update_loss{"PostUpdateLoss", kPostUpdateLoss};
}  // namespace mazur

namespace general {
const Layout receipt{"", kGeneralReceipt};
const Layout fixture_status{"FixtureStatus", kFixtureStatus};
const Layout source_framework{"SourceFramework", kSourceFramework};
const Layout extractor{"-", kNameVersion};
const Layout attestor{"Attestor", kAttestor};
const Layout attestor_identity{"AttestorIdentity", kAttestorIdentity};
const Layout tolerance{"-", kTolerance};
const Layout import_provenance{"-", kImportProvenance};
const Layout metadata{"-", kGeneralMetadata};
const Layout numeric_policy{"NumericPolicy", kNumericPolicy};
const Layout byte_output{"-", kByteOutput};
const Layout bias_policy{"BiasPolicy", kGeneralBiasPolicy};
const Layout topology{"Topology", kGeneralTopology};
const Layout unit_order{"UnitOrder", kUnitOrder};
const Layout topology_parameter{"-", kTopologyParameter};
const Layout optimizer_config{"OptimizerConfig", kOptimizerConfig};
const Layout batch{"Batch", kBatch};
const Layout forward_unit{"ForwardUnit", kForwardUnit};
const Layout loss{"Loss", kGeneralLoss};
const Layout backward{"Backward", kBackward};
const Layout output_error_signal{"OutputErrorSignal", kOutputErrorSignal};
const Layout dual_form{"DualForm", kDualForm};
const Layout jacobian_term{"JacobianTerm", kJacobianTerm};
const Layout hidden_error_signal{"HiddenErrorSignal", kHiddenErrorSignal};
const Layout downstream_contribution{"DownstreamContribution", kDownstreamContribution};
const Layout named_factor{"NamedFactor", kNamedFactor};
const Layout update{"Update", kUpdate};
const Layout optimizer{"-", kGeneralOptimizer};
const Layout adam_state{"AdamState", kAdamState};
const Layout momentum_state{"MomentumState", kMomentumState};
const Layout post_update_loss{"PostUpdateLoss", kPostUpdateLoss};
const Layout per_sample_entry{"-", kPerSampleEntry};
const Layout per_sample_loss{"-", kMazurLoss};
}  // namespace general

std::span<const Layout* const> mazur_layouts() {
  static const std::array<const Layout*, 27> all{
      &mazur::receipt, &mazur::fixture_status, &mazur::metadata, &mazur::numeric_policy, &mazur::byte_output,
      &mazur::bias_policy, &mazur::topology, &mazur::inputs, &mazur::targets, &mazur::parameters, &mazur::forward,
      &mazur::forward_unit, &mazur::loss, &mazur::per_output, &mazur::backward, &mazur::output_signals,
      &mazur::hidden_signals, &mazur::output_error_signal, &mazur::dual_form, &mazur::jacobian_term,
      &mazur::hidden_error_signal, &mazur::downstream_contribution, &mazur::named_factor, &mazur::update,
      &mazur::optimizer, &mazur::post_update_forward, &mazur::post_update_loss};
  return all;
}

std::span<const Layout* const> general_layouts() {
  static const std::array<const Layout*, 33> all{
      &general::receipt, &general::fixture_status, &general::source_framework, &general::extractor,
      &general::attestor, &general::attestor_identity, &general::tolerance, &general::import_provenance,
      &general::metadata, &general::numeric_policy, &general::byte_output, &general::bias_policy,
      &general::topology, &general::unit_order, &general::topology_parameter, &general::optimizer_config,
      &general::batch, &general::forward_unit, &general::loss, &general::backward, &general::output_error_signal,
      &general::dual_form, &general::jacobian_term, &general::hidden_error_signal,
      &general::downstream_contribution, &general::named_factor, &general::update, &general::optimizer,
      &general::adam_state, &general::momentum_state, &general::post_update_loss, &general::per_sample_entry,
      &general::per_sample_loss};
  return all;
}

}  // namespace receipt::emit
