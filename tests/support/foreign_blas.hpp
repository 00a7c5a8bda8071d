#pragma once
// Whether a step receipt of nltrain was made with another BLAS than this machine's: its fp32 bits
// then differ in their last places (another OpenBLAS core sums in another order), and the tests
// that verify recorded receipts check them as bp verify nltrain --cross-machine does.
#include <string>
#include <string_view>

#include "nl_audit/kernel_identity.hpp"
#include "nl_audit/receipt.hpp"

namespace suite_test {

// False for a line that is not a receipt (the verifier will say why).
inline bool made_with_another_blas(std::string_view receipt_line) {
  static const std::string here = nl_audit::blas_identity();
  auto r = nl_audit::read_receipt(receipt_line, "receipt", 1);
  return r.ok() && r->blas != here;
}

}  // namespace suite_test
