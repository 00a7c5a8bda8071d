#pragma once
// `verify nltrain`: nltrain's step receipts (tensor-step v0.1.0) read from a file descriptor one
// line at a time and fed to nl_audit's StreamVerifier (nl_audit/verify.hpp, which holds the nine
// rules); memory holds one receipt and one training state, whatever the number of steps.
#include <string>

#include "common/expected.hpp"
#include "nl_audit/verify.hpp"
#include "verify/stream_error.hpp"

namespace verify {

using NltrainOptions = nl_audit::VerifyOptions;

// Reads `fd` to its end (the caller opens and closes it); `name` ("<stdin>" or the path) is what
// errors call the input. The verifier that comes back holds the verdict: its tallies per rule and
// its failures. A receipt the reader refuses stops the run with StreamFailure::rejected, keeping
// the reader's error kind (invalid_argument: --data does not fit the receipts).
[[nodiscard]] common::Expected<nl_audit::StreamVerifier, StreamError> verify_nltrain(int fd, const std::string& name,
                                                                                     NltrainOptions options);

}  // namespace verify
