#include "receipt/emit/field_layout.hpp"

#include <array>

namespace receipt::emit {
using namespace layout::tables;

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
