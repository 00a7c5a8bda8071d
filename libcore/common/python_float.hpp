#pragma once
// Python's repr() of a float, which is how Python's json module writes one: the shortest
// decimal that reads back as the same double, in fixed notation while the decimal point sits
// within 16 digits ("0.0001", "123.0", "1234567890123456.0"), else in exponent notation with a
// signed two-digit-minimum exponent and no ".0" ("1e-05", "1.5e+16"). -0.0 is "-0.0".
// Locale-independent (std::to_chars). bp uses it to write what bp's Python helper would have
// written, byte for byte.
#include <string>

namespace common {

// Appends repr(v) to out; false (nothing appended) for NaN and infinities, which JSON cannot hold.
[[nodiscard]] bool append_python_float(std::string& out, double v);

}  // namespace common
