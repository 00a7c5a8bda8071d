#include "common/json_duplicate_key.hpp"

#include <cstddef>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/json_input.hpp"

namespace common {
namespace {

// Walks the text's events, keeping the keys of every open object and the JSON Pointer of the value
// being read; stops at the first repeated key.
class DuplicateFinder final : public nlohmann::json_sax<nlohmann::json> {
 public:
  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t) override { return value(); }
  bool number_unsigned(number_unsigned_t) override { return value(); }
  bool number_float(number_float_t, const string_t&) override { return value(); }
  bool string(string_t&) override { return value(); }
  bool binary(binary_t&) override { return value(); }
  bool start_object(std::size_t) override { return open(false); }
  bool start_array(std::size_t) override { return open(true); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }
  bool key(string_t& k) override {
    Level& level = levels_.back();
    level.token = json_pointer_token(k);
    if (level.keys.insert(k).second) return true;
    found_ = DuplicateKey{pointer(), k};
    return false;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

  std::optional<DuplicateKey> found() && { return std::move(found_); }

 private:
  struct Level {
    bool array = false;
    std::size_t next = 0;             // the next element's index (arrays)
    std::string token;                // the member or element being read
    std::unordered_set<std::string> keys;  // the object's keys so far
  };
  std::string pointer() const {
    std::string p;
    for (const Level& l : levels_) p += "/" + l.token;
    return p;
  }
  bool value() {
    if (!levels_.empty() && levels_.back().array) levels_.back().token = std::to_string(levels_.back().next++);
    return true;
  }
  bool open(bool array) {
    value();
    levels_.push_back(Level{array, 0, {}, {}});
    return true;
  }
  bool close() {
    levels_.pop_back();
    return true;
  }

  std::vector<Level> levels_;
  std::optional<DuplicateKey> found_;
};

}  // namespace

std::optional<DuplicateKey> first_duplicate_key(std::string_view text) {
  DuplicateFinder finder;
  (void)nlohmann::json::sax_parse(text.begin(), text.end(), &finder);
  return std::move(finder).found();
}

}  // namespace common
