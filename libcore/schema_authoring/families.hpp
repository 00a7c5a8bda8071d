#pragma once
// Every version of every format, authored in C++ (one file per family).
#include <vector>

#include "schema_authoring/schema_document.hpp"

namespace schema_authoring {

[[nodiscard]] std::vector<SchemaDocument> receipt_schemas();          // receipt.v0.1.0 .. v0.8.0
[[nodiscard]] std::vector<SchemaDocument> framework_trace_schemas();  // framework-trace.v0.1.0 .. v0.8.0
[[nodiscard]] std::vector<SchemaDocument> topology_input_schemas();   // topology-input.v0.4.0
[[nodiscard]] std::vector<SchemaDocument> nltrain_state_schemas();    // nltrain-state(-result).v0.1.0
[[nodiscard]] std::vector<SchemaDocument> nltrain_metrics_schemas();  // nltrain-metrics.v0.1.0 (train --metrics lines)
[[nodiscard]] std::vector<SchemaDocument> tensor_step_schemas();      // tensor-step, bp-verify-nltrain-report.v0.1.0
[[nodiscard]] std::vector<SchemaDocument> tensor_step_mlp_schemas();  // tensor-step.v0.2.0 (MLP), bp-verify-tensor-report.v0.1.0
[[nodiscard]] std::vector<SchemaDocument> nltrain_output_schemas();   // nltrain-*-result.v0.1.0 (train, eval, generate, gradcheck --json)
[[nodiscard]] std::vector<SchemaDocument> atenia_schemas();           // atenia-*.v0.1.0 (inputs and --json outputs)
[[nodiscard]] std::vector<SchemaDocument> bp_output_schemas();        // bp-*.v0.1.0 (--json results and the error envelope)

}  // namespace schema_authoring
