#include "importer/helper_capture.hpp"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <unordered_map>
#include <vector>

#include "common/python_float.hpp"

namespace importer {

static_assert(std::endian::native == std::endian::little, "captures hold little-endian numbers");

namespace {

constexpr std::uint32_t kMaxSlots = std::uint32_t{1} << 24;
constexpr double kMaxExactInteger = 9007199254740992.0;  // 2^53

enum class SlotKind : char { real, integer };

struct Layout {
  std::uint32_t slot_count = 0;
  std::vector<std::string_view> literals;  // text around the slots: one more than slots
  std::vector<std::uint32_t> slots;        // slot number of each place, in text order
  std::vector<SlotKind> kinds;             // per place (not per slot number: the count is the file's
                                           // claim, up to 2^24; places are bounded by the text read)
  std::size_t literal_bytes = 0;           // a line's size without its numbers
};

template <typename T>
T read_le(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

class Expander {
 public:
  Expander(std::string_view bytes, std::size_t max_output) : in_(bytes), max_(max_output) {}

  common::Result<std::string> run() {
    std::size_t at = kCaptureMagic.size();
    while (at < in_.size()) {
      if (in_.size() - at < 9) {
        return fail(at, "a chunk header needs 9 bytes, " + std::to_string(in_.size() - at) + " left");
      }
      const char tag = in_[at];
      const auto length = read_le<std::uint64_t>(in_.data() + at + 1);
      const std::size_t body = at + 9;
      if (length > in_.size() - body) {
        return fail(at, "chunk payload of " + std::to_string(length) + " bytes runs past the end (" +
                            std::to_string(in_.size() - body) + " left)");
      }
      const std::string_view payload = in_.substr(body, static_cast<std::size_t>(length));
      common::Status s;
      if (tag == 'L') {
        s = layout(body, payload);
      } else if (tag == 'S') {
        s = steps(body, payload);
      } else {
        return fail(at, "unknown chunk tag 0x" + hex(static_cast<unsigned char>(tag)) + " (expected 'L' or 'S')");
      }
      if (!s) return s.error();
      at = body + static_cast<std::size_t>(length);
    }
    return std::move(out_);
  }

 private:
  static std::string hex(unsigned v) {
    const char* d = "0123456789abcdef";
    return {d[v >> 4], d[v & 15]};
  }

  static common::Error fail(std::size_t at, const std::string& what) {
    return common::Error::malformed("helper capture: byte " + std::to_string(at) + ": " + what);
  }

  common::Status layout(std::size_t at, std::string_view payload) {
    if (payload.size() < 8) return fail(at, "a layout needs an id and a slot count (8 bytes)");
    const auto id = read_le<std::uint32_t>(payload.data());
    if (id != layouts_.size()) {
      return fail(at, "layout id " + std::to_string(id) + " out of order (expected " + std::to_string(layouts_.size()) +
                          ")");
    }
    Layout l;
    l.slot_count = read_le<std::uint32_t>(payload.data() + 4);
    if (l.slot_count == 0 || l.slot_count > kMaxSlots) {
      return fail(at + 4, "slot count " + std::to_string(l.slot_count) + " outside 1.." + std::to_string(kMaxSlots));
    }
    std::unordered_map<std::uint32_t, SlotKind> kind_of;  // the slots the text uses, no more
    const std::string_view text = payload.substr(8);
    const std::size_t text_at = at + 8;
    constexpr std::string_view kOpen = "\"\\u000";  // "\u000 then 0 (float) or 1 (integer), K, "
    std::size_t from = 0;
    for (std::size_t p = text.find(kOpen); p != std::string_view::npos; p = text.find(kOpen, p + 1)) {
      const std::size_t k = p + kOpen.size();
      if (k >= text.size() || (text[k] != '0' && text[k] != '1')) continue;  // another escape: text
      const SlotKind kind = text[k] == '0' ? SlotKind::real : SlotKind::integer;
      std::size_t e = k + 1;
      while (e < text.size() && e - (k + 1) <= 8 && text[e] >= '0' && text[e] <= '9') ++e;
      const std::string_view number = text.substr(k + 1, e - (k + 1));
      if (number.empty() || number.size() > 8 || (number.size() > 1 && number[0] == '0') || e >= text.size() ||
          text[e] != '"') {
        return fail(text_at + p, "malformed slot (expected \"\\u0000K\" or \"\\u0001K\", K a slot number)");
      }
      std::uint32_t slot = 0;
      std::from_chars(number.data(), number.data() + number.size(), slot);
      if (slot >= l.slot_count) {
        return fail(text_at + p, "slot " + std::to_string(slot) + " >= slot count " + std::to_string(l.slot_count));
      }
      if (auto [it, fresh] = kind_of.emplace(slot, kind); !fresh && it->second != kind) {
        return fail(text_at + p, "slot " + std::to_string(slot) + " used as both a float and an integer");
      }
      l.kinds.push_back(kind);
      l.literals.push_back(text.substr(from, p - from));
      l.slots.push_back(slot);
      from = e + 1;
      p = e;
    }
    l.literals.push_back(text.substr(from));
    l.literal_bytes = text.size() + 1;  // an upper bound (slot texts included) with the newline
    layouts_.push_back(std::move(l));
    return {};
  }

  common::Status steps(std::size_t at, std::string_view payload) {
    if (payload.size() < 8) return fail(at, "a step chunk needs a layout id and a step count (8 bytes)");
    const auto id = read_le<std::uint32_t>(payload.data());
    if (id >= layouts_.size()) return fail(at, "layout id " + std::to_string(id) + " not defined yet");
    const Layout& l = layouts_[id];
    const auto count = read_le<std::uint32_t>(payload.data() + 4);
    const std::uint64_t want = std::uint64_t{count} * l.slot_count * 8;  // < 2^32 * 2^24 * 8: no overflow
    if (count == 0 || payload.size() - 8 != want) {
      return fail(at, std::to_string(count) + " steps of " + std::to_string(l.slot_count) + " slots need " +
                          std::to_string(want) + " bytes of numbers, the chunk has " +
                          std::to_string(payload.size() - 8));
    }
    const char* values = payload.data() + 8;
    if (out_.size() > max_ || max_ - out_.size() < std::uint64_t{count} * (l.literal_bytes - l.slots.size() * 9)) {
      return fail(at, "the capture expands to more than " + std::to_string(max_) + " bytes of sidecars");
    }
    for (std::uint32_t s = 0; s < count; ++s, values += std::size_t{l.slot_count} * 8) {
      const std::size_t step_at = static_cast<std::size_t>(values - in_.data());
      for (std::size_t j = 0; j < l.slots.size(); ++j) {
        out_ += l.literals[j];
        const std::uint32_t slot = l.slots[j];
        const double v = read_le<double>(values + std::size_t{slot} * 8);
        if (l.kinds[j] == SlotKind::real) {
          if (!common::append_python_float(out_, v)) {
            return fail(step_at + std::size_t{slot} * 8, "float slot " + std::to_string(slot) + " is NaN or infinite");
          }
        } else if (!(std::trunc(v) == v && std::fabs(v) <= kMaxExactInteger)) {
          return fail(step_at + std::size_t{slot} * 8,
                      "integer slot " + std::to_string(slot) + " holds a value that is not an integer within 2^53");
        } else {
          char buf[24];
          const auto r = std::to_chars(buf, buf + sizeof buf, static_cast<std::int64_t>(v));
          out_.append(buf, r.ptr);
        }
      }
      out_ += l.literals.back();
      out_ += '\n';
      if (out_.size() > max_) {
        return fail(step_at, "the capture expands to more than " + std::to_string(max_) + " bytes of sidecars");
      }
    }
    return {};
  }

  std::string_view in_;
  std::size_t max_;
  std::vector<Layout> layouts_;
  std::string out_;
};

}  // namespace

bool is_capture(std::string_view bytes) { return bytes.substr(0, kCaptureMagic.size()) == kCaptureMagic; }

common::Result<std::string> expand_capture(std::string_view bytes, std::size_t max_output) {
  if (!is_capture(bytes)) return common::Error::malformed("helper capture: byte 0: not a capture (no BPCAP01 magic)");
  return Expander(bytes, max_output).run();
}

}  // namespace importer
