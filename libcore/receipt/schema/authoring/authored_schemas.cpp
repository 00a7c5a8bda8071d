#include "receipt/schema/authoring/authored_schemas.hpp"

#include "receipt/schema/authoring/families.hpp"
#include "receipt/schema/authoring/render.hpp"

namespace receipt::schema {

std::map<std::string, std::string> authored_schemas() {
  std::map<std::string, std::string> out;
  for (auto family :
       {authoring::receipt_schemas, authoring::framework_trace_schemas, authoring::topology_input_schemas,
        authoring::nltrain_state_schemas, authoring::atenia_schemas})
    for (const auto& doc : family()) out.emplace(doc.name(), authoring::render(doc.json()));
  return out;
}

}  // namespace receipt::schema
