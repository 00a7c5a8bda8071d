#include "schema_authoring/authored_schemas.hpp"

#include "schema_authoring/families.hpp"
#include "schema_authoring/render.hpp"

namespace schema_authoring {

std::map<std::string, std::string> authored_schemas() {
  std::map<std::string, std::string> out;
  for (auto family :
       {receipt_schemas, framework_trace_schemas, topology_input_schemas, nltrain_state_schemas, nltrain_metrics_schemas,
        tensor_step_schemas, tensor_step_mlp_schemas, nltrain_output_schemas, atenia_schemas, bp_output_schemas})
    for (const auto& doc : family()) out.emplace(doc.name(), render(doc.json()));
  return out;
}

}  // namespace schema_authoring
