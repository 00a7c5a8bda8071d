#pragma once
// `verify tensor`: a PyTorch MLP's step receipts (tensor-step v0.2.0, model kind mlp) read from a
// file descriptor one line at a time and fed to mlp_audit's StreamVerifier (mlp_audit/verify.hpp,
// which holds the six rules); memory holds one receipt, whatever the number of steps.
#include <string>

#include "common/expected.hpp"
#include "mlp_audit/verify.hpp"
#include "verify/stream_error.hpp"

namespace verify {

// Reads `fd` to its end (the caller opens and closes it); `name` is what errors call the input.
[[nodiscard]] common::Expected<mlp_audit::StreamVerifier, StreamError> verify_tensor(int fd, const std::string& name);

}  // namespace verify
