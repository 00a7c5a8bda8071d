#include "hybrid/tensor_io/tensor_file.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>

#include "common/json_duplicate_key.hpp"
#include "common/json_input.hpp"

namespace hybrid {

namespace {

constexpr std::string_view kNpyMagic = "\x93NUMPY";

common::Error bad(const std::string& file, const std::string& what) {
  return common::Error::malformed(what, common::Location{file, 0, {}});
}

// a * b, or nothing on overflow.
std::optional<std::uint64_t> mul(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > UINT64_MAX / a) return std::nullopt;
  return a * b;
}

std::optional<std::uint64_t> element_count(const std::vector<std::uint64_t>& shape) {
  std::uint64_t n = 1;
  for (std::uint64_t d : shape) {
    auto m = mul(n, d);
    if (!m) return std::nullopt;
    n = *m;
  }
  return n;
}

// numpy descr -> bytes per element; '<' or '|' (or '>' for data kept verbatim).
std::optional<std::uint64_t> npy_item_size(std::string_view descr) {
  if (descr.size() < 3 || (descr[0] != '<' && descr[0] != '>' && descr[0] != '|')) return std::nullopt;
  static const std::map<std::string_view, std::uint64_t> kKinds{
      {"b1", 1}, {"i1", 1}, {"u1", 1}, {"i2", 2}, {"u2", 2}, {"f2", 2}, {"i4", 4}, {"u4", 4}, {"f4", 4},
      {"i8", 8}, {"u8", 8}, {"f8", 8}, {"c8", 8}, {"c16", 16}};
  auto it = kKinds.find(descr.substr(1));
  if (it == kKinds.end()) return std::nullopt;
  if (it->second == 1 && descr[0] == '>') return std::nullopt;  // numpy writes '|' for bytes
  return it->second;
}

// The strict reader of numpy's header dict literal.
class NpyDict {
 public:
  NpyDict(std::string_view s, const std::string& file) : s_(s), file_(file) {}

  common::Status parse(std::string& descr, bool& fortran, std::vector<std::uint64_t>& shape) {
    skip();
    if (!eat('{')) return fail("expected '{'");
    bool seen_d = false, seen_f = false, seen_s = false;
    while (true) {
      skip();
      if (eat('}')) break;
      auto key = quoted();
      if (!key) return fail("expected a quoted key");
      skip();
      if (!eat(':')) return fail("expected ':' after '" + *key + "'");
      skip();
      if (*key == "descr" && !seen_d) {
        auto v = quoted();
        if (!v) return fail("descr must be a quoted string");
        descr = *v;
        seen_d = true;
      } else if (*key == "fortran_order" && !seen_f) {
        if (s_.substr(i_, 4) == "True") fortran = true, i_ += 4;
        else if (s_.substr(i_, 5) == "False") fortran = false, i_ += 5;
        else return fail("fortran_order must be True or False");
        seen_f = true;
      } else if (*key == "shape" && !seen_s) {
        if (!eat('(')) return fail("shape must be a tuple");
        while (true) {
          skip();
          if (eat(')')) break;
          std::uint64_t d = 0;
          auto [p, ec] = std::from_chars(s_.data() + i_, s_.data() + s_.size(), d);
          if (ec != std::errc() || p == s_.data() + i_) return fail("shape holds a non-integer");
          i_ = static_cast<std::size_t>(p - s_.data());
          shape.push_back(d);
          skip();
          if (eat(')')) break;
          if (!eat(',')) return fail("expected ',' or ')' in shape");
        }
        seen_s = true;
      } else {
        return fail("unexpected or repeated key '" + *key + "'");
      }
      skip();
      if (eat('}')) break;
      if (!eat(',')) return fail("expected ',' or '}'");
    }
    skip();
    if (i_ != s_.size()) return fail("text after the dict");
    if (!seen_d || !seen_f || !seen_s) return fail("the dict needs descr, fortran_order and shape");
    return {};
  }

 private:
  void skip() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n')) ++i_;
  }
  bool eat(char c) {
    if (i_ < s_.size() && s_[i_] == c) return ++i_, true;
    return false;
  }
  std::optional<std::string> quoted() {
    if (i_ >= s_.size() || (s_[i_] != '\'' && s_[i_] != '"')) return std::nullopt;
    const char q = s_[i_++];
    const auto end = s_.find(q, i_);
    if (end == std::string_view::npos) return std::nullopt;
    std::string v(s_.substr(i_, end - i_));
    i_ = end + 1;
    return v;
  }
  common::Error fail(const std::string& what) const {
    return bad(file_, ".npy header: " + what + " at byte " + std::to_string(i_));
  }
  std::string_view s_;
  const std::string& file_;
  std::size_t i_ = 0;
};

common::Result<TensorFile> npy_header(std::string_view header, const std::string& name, const std::string& file) {
  if (header.size() < 10 || header.substr(0, 6) != kNpyMagic) return bad(file, "not a .npy file (no \\x93NUMPY magic)");
  const auto major = static_cast<std::uint8_t>(header[6]);
  if (major < 1 || major > 3 || header[7] != 0) {
    return bad(file, ".npy format version " + std::to_string(major) + "." + std::to_string(static_cast<int>(header[7])) +
                         " is not supported (1.0, 2.0, 3.0)");
  }
  const std::size_t prefix = major == 1 ? 10 : 12;
  if (header.size() < prefix) return bad(file, ".npy header is cut short");
  std::uint64_t hlen = 0;
  for (std::size_t k = prefix; k-- > 8;) hlen = hlen << 8 | static_cast<std::uint8_t>(header[k]);
  if (prefix + hlen != header.size()) return bad(file, ".npy header length does not match");
  const std::string_view dict = header.substr(prefix);
  if (dict.empty() || dict.back() != '\n') return bad(file, ".npy header does not end with a newline");
  for (char c : dict) {
    if (static_cast<unsigned char>(c) >= 0x80 || (c < 0x20 && c != '\n')) return bad(file, ".npy header is not printable ASCII");
  }
  TensorFile tf;
  tf.format = TensorFileFormat::npy;
  tf.header = std::string(header);
  FileTensor t;
  t.name = name;
  bool fortran = false;
  if (auto s = NpyDict(dict, file).parse(t.dtype, fortran, t.shape); !s) return s.error();
  const auto item = npy_item_size(t.dtype);
  if (!item) return bad(file, ".npy dtype '" + t.dtype + "' is not supported (bool, integers, floats, complex)");
  const auto n = element_count(t.shape);
  const auto len = n ? mul(*n, *item) : std::nullopt;
  if (!len) return bad(file, ".npy shape overflows 64 bits");
  t.offset = header.size();
  t.length = *len;
  tf.tensors.push_back(std::move(t));
  return tf;
}

std::optional<std::uint64_t> safetensors_item_size(std::string_view dtype) {
  static const std::map<std::string_view, std::uint64_t> kTypes{
      {"BOOL", 1}, {"U8", 1},   {"I8", 1},   {"F8_E5M2", 1}, {"F8_E4M3", 1}, {"I16", 2}, {"U16", 2}, {"F16", 2},
      {"BF16", 2}, {"I32", 4},  {"U32", 4},  {"F32", 4},     {"I64", 8},     {"U64", 8}, {"F64", 8}};
  auto it = kTypes.find(dtype);
  return it == kTypes.end() ? std::nullopt : std::optional(it->second);
}

common::Result<TensorFile> safetensors_header(std::string_view header, const std::string& file) {
  if (header.size() < 8) return bad(file, "safetensors file shorter than its 8-byte header length");
  std::uint64_t n = 0;
  for (std::size_t k = 8; k-- > 0;) n = n << 8 | static_cast<std::uint8_t>(header[k]);
  if (n > kMaxTensorHeaderBytes) return bad(file, "safetensors header of " + std::to_string(n) + " bytes is over the limit");
  if (8 + n != header.size()) return bad(file, "safetensors header length does not match");
  const std::string_view json = header.substr(8);
  if (json.empty() || json[0] != '{') return bad(file, "safetensors header does not start with '{'");
  auto doc = common::parse_json_text(json, {.file = file, .bom = common::BomPolicy::reject, .max_bytes = kMaxTensorHeaderBytes});
  if (!doc) return doc.error();
  if (!doc->is_object()) return bad(file, "safetensors header is not a JSON object");
  // The JSON reader keeps the last of a repeated key (Python's safetensors too, for tensor names):
  // a tensor named twice would be dropped without a word.
  if (auto dup = common::first_duplicate_key(json)) {
    return bad(file, "safetensors header " + common::excerpt(dup->pointer, common::kMaxErrorPathBytes) + ": key \"" +
                         common::excerpt(dup->key) + "\" appears twice");
  }
  TensorFile tf;
  tf.format = TensorFileFormat::safetensors;
  tf.header = std::string(header);
  for (const auto& [name, v] : doc->items()) {
    const std::string at = "safetensors header /" + common::json_pointer_token(name);
    if (name == "__metadata__") {
      if (!v.is_object()) return bad(file, at + ": expected an object of strings");
      for (const auto& [mk, mv] : v.items()) {
        if (!mv.is_string()) return bad(file, at + "/" + common::json_pointer_token(mk) + ": expected a string");
      }
      continue;
    }
    if (name.empty()) return bad(file, at + ": empty tensor name");
    if (!v.is_object() || v.size() != 3 || !v.contains("dtype") || !v.contains("shape") || !v.contains("data_offsets")) {
      return bad(file, at + ": expected exactly dtype, shape and data_offsets");
    }
    FileTensor t;
    t.name = name;
    if (!v["dtype"].is_string()) return bad(file, at + "/dtype: expected a string");
    t.dtype = v["dtype"].get<std::string>();
    const auto item = safetensors_item_size(t.dtype);
    if (!item) {
      return bad(file, at + "/dtype: unknown dtype \"" + common::excerpt(t.dtype) +
                           "\"; expected BOOL, U8, I8, F8_E5M2, F8_E4M3, I16, U16, F16, BF16, I32, U32, F32, I64, U64 or F64");
    }
    if (!v["shape"].is_array()) return bad(file, at + "/shape: expected an array");
    for (const auto& d : v["shape"]) {
      if (!d.is_number_unsigned() && !(d.is_number_integer() && d.get<std::int64_t>() >= 0)) {
        return bad(file, at + "/shape: expected non-negative integers");
      }
      t.shape.push_back(d.get<std::uint64_t>());
    }
    const auto& off = v["data_offsets"];
    if (!off.is_array() || off.size() != 2 || !off[0].is_number_unsigned() || !off[1].is_number_unsigned()) {
      if (!(off.is_array() && off.size() == 2 && off[0].is_number_integer() && off[1].is_number_integer() &&
            off[0].get<std::int64_t>() >= 0 && off[1].get<std::int64_t>() >= 0)) {
        return bad(file, at + "/data_offsets: expected [begin, end]");
      }
    }
    const std::uint64_t begin = off[0].get<std::uint64_t>(), end = off[1].get<std::uint64_t>();
    if (end < begin) return bad(file, at + "/data_offsets: end before begin");
    const auto count = element_count(t.shape);
    const auto len = count ? mul(*count, *item) : std::nullopt;
    if (!len || *len != end - begin) {
      return bad(file, at + ": data_offsets span " + std::to_string(end - begin) + " bytes; dtype and shape need " +
                           (len ? std::to_string(*len) : std::string("more than 2^64")));
    }
    t.offset = header.size() + begin;
    t.length = end - begin;
    tf.tensors.push_back(std::move(t));
  }
  std::sort(tf.tensors.begin(), tf.tensors.end(), [](const FileTensor& a, const FileTensor& b) {
    return a.offset != b.offset ? a.offset < b.offset : a.name < b.name;
  });
  std::uint64_t next = header.size();
  for (const FileTensor& t : tf.tensors) {
    if (t.offset != next) {
      return bad(file, "safetensors tensor '" + t.name + "' " + (t.offset < next ? "overlaps the one before it" : "leaves a hole before it"));
    }
    next += t.length;
  }
  return tf;
}

std::uint64_t data_end(const TensorFile& tf) {
  std::uint64_t end = tf.header.size();
  for (const FileTensor& t : tf.tensors) end = std::max(end, t.offset + t.length);
  return end;
}

common::Result<TensorFile> with_data(common::Result<TensorFile> tf, std::span<const std::uint8_t> bytes,
                                     const std::string& file) {
  if (!tf) return tf;
  const std::uint64_t end = data_end(*tf);
  if (end != bytes.size()) {
    return bad(file, std::string(to_string(tf->format)) + " file is " + std::to_string(bytes.size()) +
                         " bytes; its header describes " + std::to_string(end));
  }
  return tf;
}

std::string_view header_of(std::span<const std::uint8_t> bytes, std::size_t n) {
  return {reinterpret_cast<const char*>(bytes.data()), std::min(n, bytes.size())};
}

}  // namespace

const char* to_string(TensorFileFormat f) { return f == TensorFileFormat::npy ? "npy" : "safetensors"; }

common::Result<TensorFile> parse_tensor_header(TensorFileFormat format, std::string_view header, const std::string& name,
                                               const std::string& file) {
  return format == TensorFileFormat::npy ? npy_header(header, name, file) : safetensors_header(header, file);
}

common::Result<TensorFile> parse_npy(std::span<const std::uint8_t> bytes, const std::string& name,
                                     const std::string& file) {
  const std::string_view head = header_of(bytes, 12);
  if (head.size() < 10 || head.substr(0, 6) != kNpyMagic) return bad(file, "not a .npy file (no \\x93NUMPY magic)");
  const auto major = static_cast<std::uint8_t>(head[6]);
  const std::size_t prefix = major == 1 ? 10 : 12;
  std::uint64_t hlen = 0;
  if (head.size() >= prefix) {
    for (std::size_t k = prefix; k-- > 8;) hlen = hlen << 8 | static_cast<std::uint8_t>(head[k]);
  }
  if (hlen > kMaxTensorHeaderBytes || prefix + hlen > bytes.size()) return bad(file, ".npy header length runs past the file");
  return with_data(npy_header(header_of(bytes, prefix + hlen), name, file), bytes, file);
}

common::Result<TensorFile> parse_safetensors(std::span<const std::uint8_t> bytes, const std::string& file) {
  if (bytes.size() < 8) return bad(file, "safetensors file shorter than its 8-byte header length");
  std::uint64_t n = 0;
  for (std::size_t k = 8; k-- > 0;) n = n << 8 | bytes[k];
  if (n > kMaxTensorHeaderBytes || 8 + n > bytes.size()) {
    return bad(file, "safetensors header length " + std::to_string(n) + " runs past the file or the limit");
  }
  return with_data(safetensors_header(header_of(bytes, 8 + n), file), bytes, file);
}

common::Result<TensorFile> parse_tensor_file(std::span<const std::uint8_t> bytes, const std::string& name,
                                             const std::string& file) {
  if (header_of(bytes, 6) == kNpyMagic) return parse_npy(bytes, name, file);
  return parse_safetensors(bytes, file);
}

std::string shape_text(const std::vector<std::uint64_t>& s) {
  std::string r = "[";
  for (std::size_t i = 0; i < s.size(); ++i) r += (i ? ", " : "") + std::to_string(s[i]);
  return r + "]";
}

common::Result<std::vector<std::uint8_t>> assemble_tensor_file(const TensorFile& layout,
                                                               const std::vector<std::span<const std::uint8_t>>& data) {
  if (data.size() != layout.tensors.size()) return common::Error::invalid_argument("tensor count differs from the layout");
  std::vector<std::uint8_t> out(layout.header.begin(), layout.header.end());
  out.resize(data_end(layout));
  for (std::size_t i = 0; i < data.size(); ++i) {
    const FileTensor& t = layout.tensors[i];
    if (data[i].size() != t.length) {
      return common::Error::invalid_argument("tensor '" + t.name + "' has " + std::to_string(data[i].size()) +
                                             " bytes; the layout says " + std::to_string(t.length));
    }
    std::copy(data[i].begin(), data[i].end(), out.begin() + static_cast<std::ptrdiff_t>(t.offset));
  }
  return out;
}

}  // namespace hybrid
