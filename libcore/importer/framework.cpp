#include "importer/framework.hpp"

namespace importer {

std::string_view framework_name(Framework f) {
  switch (f) {
    case Framework::pytorch: return "pytorch";
    case Framework::jax: return "jax";
    case Framework::tensorflow: return "tensorflow";
  }
  return "pytorch";
}

std::optional<Framework> parse_framework(std::string_view name) {
  for (Framework f : {Framework::pytorch, Framework::jax, Framework::tensorflow}) {
    if (framework_name(f) == name) return f;
  }
  return std::nullopt;
}

std::string_view extractor_identity(Framework f, bool multi) {
  if (multi) {
    switch (f) {
      case Framework::pytorch: return "bp-import-pytorch@0.8.0";
      case Framework::jax: return "bp-import-jax@0.8.0";
      case Framework::tensorflow: return "bp-import-tensorflow@0.8.0";
    }
  }
  switch (f) {
    case Framework::pytorch: return "bp-import-pytorch@0.6.0";
    case Framework::jax: return "bp-import-jax@0.6.1";
    case Framework::tensorflow: return "bp-import-tensorflow@0.7.0";
  }
  return "bp-import-pytorch@0.6.0";
}

std::string caller_label(Framework f, bool multi) {
  return "bp import " + std::string(framework_name(f)) + (multi ? " multi" : "");
}

}  // namespace importer
