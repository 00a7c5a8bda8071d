#include "verify/divergence.hpp"

#include <vector>

namespace verify {
namespace {

struct Frame {
  bool object = false;
  std::string key;        // the member being read (objects)
  std::size_t index = 0;  // the element being read (arrays)
  bool expect_key = true;
};

// The end of the string token starting at `i` (a quote), one past its closing quote.
std::size_t string_end(std::string_view t, std::size_t i) {
  for (++i; i < t.size(); ++i) {
    if (t[i] == '\\') {
      ++i;
    } else if (t[i] == '"') {
      return i + 1;
    }
  }
  return t.size();
}

// The text of the value token that starts at `start` (a scalar, or the opening of a container,
// shown as its first 80 bytes).
std::string token_at(std::string_view t, std::size_t start) {
  if (start >= t.size()) return {};
  std::size_t end = start;
  if (t[start] == '"') {
    end = string_end(t, start);
  } else if (t[start] == '{' || t[start] == '[') {
    end = t.size();
  } else {
    while (end < t.size() && t[end] != ',' && t[end] != '}' && t[end] != ']') ++end;
  }
  constexpr std::size_t kShown = 80;
  std::string out(t.substr(start, std::min(end - start, kShown)));
  if (end - start > kShown) out += "...";
  return out;
}

std::string render(const std::vector<Frame>& stack) {
  std::string path;
  for (const auto& f : stack) {
    if (f.object) {
      if (!path.empty()) path += '.';
      path += f.key;
    } else {
      path += "[" + std::to_string(f.index) + "]";
    }
  }
  return path;
}

}  // namespace

Divergence locate_divergence(std::string_view ours, std::string_view theirs, std::size_t at) {
  std::vector<Frame> stack;
  std::size_t value_start = 0;  // where the innermost value being read began
  std::size_t i = 0;
  while (i < at && i < ours.size()) {
    const char c = ours[i];
    if (c == '{' || c == '[') {
      stack.push_back({c == '{', {}, 0, true});
      ++i;
      value_start = i;
    } else if (c == '}' || c == ']') {
      if (!stack.empty()) stack.pop_back();
      ++i;
    } else if (c == ',') {
      if (!stack.empty()) {
        if (stack.back().object) {
          stack.back().expect_key = true;
        } else {
          ++stack.back().index;
        }
      }
      ++i;
      value_start = i;
    } else if (c == ':') {
      if (!stack.empty()) stack.back().expect_key = false;
      ++i;
      value_start = i;
    } else if (c == '"') {
      const std::size_t end = string_end(ours, i);
      if (end > at) break;  // the difference is inside this string
      if (!stack.empty() && stack.back().object && stack.back().expect_key) {
        stack.back().key = std::string(ours.substr(i + 1, end - i - 2));
      }
      i = end;
    } else {
      ++i;  // inside a number or literal
    }
  }
  // A difference inside a key (or where a key was expected) names the object, not a member.
  const bool in_key = !stack.empty() && stack.back().object && stack.back().expect_key;
  if (in_key) stack.pop_back();
  return {render(stack), token_at(ours, value_start), token_at(theirs, value_start)};
}

}  // namespace verify
