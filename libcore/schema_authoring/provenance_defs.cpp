#include "schema_authoring/provenance_defs.hpp"

#include "schema_authoring/shared_defs.hpp"

namespace schema_authoring {

Node source_framework(bool engine_is_a_source) {
  Node name = engine_is_a_source
                  ? one_of_values({"pytorch", "jax", "tensorflow", "hand_derived", "backprop_trace_engine"})
                  : one_of_values({"pytorch", "jax", "tensorflow", "hand_derived"});
  return object()
      .field("name", name)
      .field("version", string().non_empty())
      .optional("information_uri", string().non_empty())
      .optional("extractor",
                object().field("name", string().non_empty()).field("version", string().non_empty()).closed())
      .closed()
      .ordered()
      .describe("Where the numbers came from: the framework and the program that extracted them.");
}

Node attestor_identity() {
  return object()
      .field("kind", one_of_values({"framework", "engine", "hand_derivation"}))
      .field("identity", string().non_empty())
      .closed()
      .ordered();
}

Node attestor() {
  Node tolerance =
      object().field("atol", number().min(0).max(1e-05)).field("rtol", number().min(0).max(0.001)).closed();
  Node provenance = object()
                        .field("source_format", string().non_empty())
                        .field("source_hash", sha256_digest())
                        .optional("import_timestamp", string().non_empty())
                        .closed()
                        .ordered();
  return object()
      .field("computed_by", ref("AttestorIdentity"))
      .field("verified_by", ref("AttestorIdentity"))
      .field("differential_tolerance", tolerance)
      .optional("import_provenance", provenance)
      .optional("skip_basis", one_of_values({"hardware_nondeterminism", "framework_op_unsupported",
                                             "distributed_only_field", "attested_third_party"}))
      .optional("signed_subject_digest", sha256_digest())
      .optional("bundle_root_digest", sha256_digest())
      .closed()
      .ordered()
      .describe("Who computed the step, who checked it, and within what tolerance.");
}

}  // namespace schema_authoring
