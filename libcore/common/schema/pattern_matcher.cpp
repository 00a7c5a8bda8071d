#include "common/schema/pattern_matcher.hpp"

#include <algorithm>
#include <cstddef>
#include <map>
#include <optional>
#include <string_view>
#include <utility>

namespace common::schema::detail {
namespace {

using ByteSet = std::array<std::uint64_t, 4>;

void add_byte(ByteSet& s, unsigned c) { s[c >> 6] |= std::uint64_t{1} << (c & 63); }
void add_range(ByteSet& s, unsigned lo, unsigned hi) {
  for (unsigned c = lo; c <= hi; ++c) add_byte(s, c);
}
void add_set(ByteSet& s, const ByteSet& t) {
  for (int i = 0; i < 4; ++i) s[i] |= t[i];
}
ByteSet complement(const ByteSet& s) { return {~s[0], ~s[1], ~s[2], ~s[3]}; }
bool has_byte(const ByteSet& s, unsigned char c) { return ((s[c >> 6] >> (c & 63)) & 1) != 0; }

ByteSet digits() {
  ByteSet s{};
  add_range(s, '0', '9');
  return s;
}
ByteSet word() {  // std::regex's \w in the "C" locale: alnum and '_'
  ByteSet s = digits();
  add_range(s, 'a', 'z');
  add_range(s, 'A', 'Z');
  add_byte(s, '_');
  return s;
}

bool printable(char c) { return c >= 0x20 && c <= 0x7e; }
constexpr std::string_view kSyntax = "^$\\.*+?()[]{}|";

// The parsed pattern. `unsupported` anywhere sends the whole pattern to std::regex.
struct Re {
  enum Kind { set, line_begin, line_end, concat, alternation, repeat } kind = concat;
  ByteSet bytes{};
  std::vector<Re> parts;  // concat, alternation: the parts; repeat: the one repeated
  int min = 0, max = 0;   // repeat; max < 0: unbounded
};

constexpr int kMaxCount = 1000;
constexpr std::size_t kMaxProgram = 20000;

class Parser {
 public:
  explicit Parser(std::string_view p) : p_(p) {}

  std::optional<Re> parse() {
    auto re = alternation();
    if (!re || pos_ != p_.size()) return std::nullopt;
    return re;
  }

 private:
  bool at_end() const { return pos_ >= p_.size(); }
  char peek() const { return p_[pos_]; }

  std::optional<Re> alternation() {
    Re alt;
    alt.kind = Re::alternation;
    for (;;) {
      auto seq = sequence();
      if (!seq) return std::nullopt;
      alt.parts.push_back(std::move(*seq));
      if (at_end() || peek() != '|') break;
      ++pos_;
    }
    if (alt.parts.size() == 1) return std::move(alt.parts.front());
    return alt;
  }

  std::optional<Re> sequence() {
    Re seq;
    seq.kind = Re::concat;
    while (!at_end() && peek() != '|' && peek() != ')') {
      auto a = atom();
      if (!a) return std::nullopt;
      if (!at_end() && (peek() == '*' || peek() == '+' || peek() == '?' || peek() == '{')) {
        if (a->kind == Re::line_begin || a->kind == Re::line_end) return std::nullopt;
        int min = 0, max = -1;
        if (!quantifier(min, max)) return std::nullopt;
        if (!at_end() && peek() == '?') ++pos_;  // lazy: a yes/no search does not care
        if (!at_end() && (peek() == '*' || peek() == '+' || peek() == '?' || peek() == '{')) return std::nullopt;
        Re r;
        r.kind = Re::repeat;
        r.min = min;
        r.max = max;
        r.parts.push_back(std::move(*a));
        a = std::move(r);
      }
      seq.parts.push_back(std::move(*a));
    }
    return seq;
  }

  bool number(int& out) {
    const std::size_t start = pos_;
    long v = 0;
    while (!at_end() && peek() >= '0' && peek() <= '9') {
      v = v * 10 + (peek() - '0');
      if (v > kMaxCount) return false;
      ++pos_;
    }
    out = static_cast<int>(v);
    return pos_ > start;
  }

  bool quantifier(int& min, int& max) {
    const char c = p_[pos_++];
    if (c == '*') return min = 0, max = -1, true;
    if (c == '+') return min = 1, max = -1, true;
    if (c == '?') return min = 0, max = 1, true;
    // '{': only the complete forms {n} {n,} {n,m}
    if (!number(min)) return false;
    if (at_end()) return false;
    if (peek() == '}') {
      ++pos_;
      max = min;
      return true;
    }
    if (peek() != ',') return false;
    ++pos_;
    if (!at_end() && peek() == '}') {
      ++pos_;
      max = -1;
      return true;
    }
    if (!number(max) || at_end() || peek() != '}' || max < min) return false;
    ++pos_;
    return true;
  }

  // An escape's byte set (\d \D \w \W or an escaped syntax character); nullopt if unsupported.
  std::optional<ByteSet> escape(bool in_class, bool* is_literal, char* literal) {
    if (at_end()) return std::nullopt;
    const char c = p_[pos_++];
    ByteSet s{};
    *is_literal = false;
    switch (c) {
      case 'd': return digits();
      case 'D': return complement(digits());
      case 'w': return word();
      case 'W': return complement(word());
      default: break;
    }
    if (kSyntax.find(c) != std::string_view::npos || c == '/' || (in_class && c == '-')) {
      add_byte(s, static_cast<unsigned char>(c));
      *is_literal = true;
      *literal = c;
      return s;
    }
    return std::nullopt;
  }

  std::optional<Re> atom() {
    const char c = p_[pos_++];
    Re r;
    r.kind = Re::set;
    if (c == '^') {
      r.kind = Re::line_begin;
      return r;
    }
    if (c == '$') {
      r.kind = Re::line_end;
      return r;
    }
    if (c == '(') {
      if (!at_end() && peek() == '?') {
        if (pos_ + 1 >= p_.size() || p_[pos_ + 1] != ':') return std::nullopt;
        pos_ += 2;
      }
      auto inner = alternation();
      if (!inner || at_end() || peek() != ')') return std::nullopt;
      ++pos_;
      return inner;
    }
    if (c == '[') return bracket();
    if (c == '\\') {
      bool lit = false;
      char ch = 0;
      auto s = escape(false, &lit, &ch);
      if (!s) return std::nullopt;
      r.bytes = *s;
      return r;
    }
    if (!printable(c) || kSyntax.find(c) != std::string_view::npos) return std::nullopt;
    add_byte(r.bytes, static_cast<unsigned char>(c));
    return r;
  }

  // One class member: a literal byte (returned in *lit) or an escape's set.
  bool class_atom(ByteSet& set, bool& is_literal, char& lit) {
    if (at_end()) return false;
    const char c = p_[pos_++];
    if (c == '\\') {
      auto s = escape(true, &is_literal, &lit);
      if (!s) return false;
      set = *s;
      return true;
    }
    if (!printable(c) || c == '[' || c == ']') return false;
    set = {};
    add_byte(set, static_cast<unsigned char>(c));
    is_literal = true;
    lit = c;
    return true;
  }

  std::optional<Re> bracket() {
    Re r;
    r.kind = Re::set;
    bool negate = false;
    if (!at_end() && peek() == '^') {
      negate = true;
      ++pos_;
    }
    if (at_end() || peek() == ']') return std::nullopt;  // [] and [^] differ between engines
    while (!at_end() && peek() != ']') {
      ByteSet one{};
      bool lit = false;
      char lo = 0;
      if (!class_atom(one, lit, lo)) return std::nullopt;
      if (pos_ + 1 < p_.size() && peek() == '-' && p_[pos_ + 1] != ']') {
        ++pos_;
        ByteSet other{};
        bool lit2 = false;
        char hi = 0;
        if (!lit || !class_atom(other, lit2, hi) || !lit2 || lo > hi) return std::nullopt;
        add_range(r.bytes, static_cast<unsigned char>(lo), static_cast<unsigned char>(hi));
        continue;
      }
      add_set(r.bytes, one);
    }
    if (at_end()) return std::nullopt;
    ++pos_;  // ']'
    if (negate) r.bytes = complement(r.bytes);
    return r;
  }

  std::string_view p_;
  std::size_t pos_ = 0;
};

using Instr = PatternMatcher::Instr;

class Emitter {
 public:
  Emitter(std::vector<Instr>& prog, std::vector<ByteSet>& sets) : prog_(prog), sets_(sets) {}

  bool emit(const Re& re) {
    if (prog_.size() > kMaxProgram) return false;
    switch (re.kind) {
      case Re::set:
        sets_.push_back(re.bytes);
        prog_.push_back({Instr::byte_set, static_cast<std::uint32_t>(sets_.size() - 1), 0});
        return true;
      case Re::line_begin: prog_.push_back({Instr::line_begin, 0, 0}); return true;
      case Re::line_end: prog_.push_back({Instr::line_end, 0, 0}); return true;
      case Re::concat:
        for (const auto& p : re.parts)
          if (!emit(p)) return false;
        return true;
      case Re::alternation: {
        std::vector<std::size_t> jumps;
        for (std::size_t i = 0; i < re.parts.size(); ++i) {
          std::size_t split = 0;
          const bool last = i + 1 == re.parts.size();
          if (!last) {
            split = prog_.size();
            prog_.push_back({Instr::split, static_cast<std::uint32_t>(split + 1), 0});
          }
          if (!emit(re.parts[i])) return false;
          if (!last) {
            jumps.push_back(prog_.size());
            prog_.push_back({Instr::jump, 0, 0});
            prog_[split].y = here();
          }
        }
        for (auto j : jumps) prog_[j].x = here();
        return true;
      }
      case Re::repeat: {
        const Re& body = re.parts.front();
        for (int i = 0; i < re.min; ++i)
          if (!emit(body)) return false;
        if (re.max < 0) {  // L: split body, end; body; jump L; end:
          const std::size_t loop = prog_.size();
          prog_.push_back({Instr::split, static_cast<std::uint32_t>(loop + 1), 0});
          if (!emit(body)) return false;
          prog_.push_back({Instr::jump, static_cast<std::uint32_t>(loop), 0});
          prog_[loop].y = here();
          return true;
        }
        std::vector<std::size_t> splits;  // (split body, end; body) max-min times
        for (int i = re.min; i < re.max; ++i) {
          splits.push_back(prog_.size());
          prog_.push_back({Instr::split, static_cast<std::uint32_t>(prog_.size() + 1), 0});
          if (!emit(body)) return false;
        }
        for (auto s : splits) prog_[s].y = here();
        return true;
      }
    }
    return false;
  }

 private:
  std::uint32_t here() const { return static_cast<std::uint32_t>(prog_.size()); }
  std::vector<Instr>& prog_;
  std::vector<ByteSet>& sets_;
};

// Per-thread search state, reused by every pattern (marks are generation stamps).
struct Scratch {
  std::vector<std::uint32_t> mark;
  std::vector<std::uint32_t> current, next, stack;
  std::uint32_t stamp = 0;
};

}  // namespace

PatternMatcher::PatternMatcher(std::string pattern) : pattern_(std::move(pattern)) {
  auto re = Parser(pattern_).parse();
  bool ok = re.has_value();
  if (ok) {
    ok = Emitter(prog_, sets_).emit(*re);
    prog_.push_back({Instr::match, 0, 0});
    ok = ok && prog_.size() <= kMaxProgram;
    // A leading ^ in a top-level sequence: a search only ever matches from position 0.
    if (ok && re->kind == Re::concat && !re->parts.empty() && re->parts.front().kind == Re::line_begin)
      anchored_ = true;
    if (ok && re->kind == Re::line_begin) anchored_ = true;
  }
  if (!ok) {
    // Only std::regex runs it, and one it rejects throws here as it always did. Every pattern of
    // the subset is one std::regex compiles too (pattern_matcher_test draws 20,000 of them): it is
    // not compiled for nothing (its bracket expressions cost ~1M instructions, at every start).
    prog_.clear();
    sets_.clear();
    anchored_ = false;
    regex_ = std::make_unique<std::regex>(pattern_, std::regex::ECMAScript);
    return;
  }
  build_dfa();
}

namespace {

constexpr std::size_t kMaxDfaStates = 2000;

// The instructions reachable from `seeds` without reading a byte: the byte tests and the $
// tests waiting there (sorted), and whether a match is reached. ^ passes only `at_begin`.
std::vector<std::uint32_t> closure(const std::vector<Instr>& prog, const std::vector<std::uint32_t>& seeds,
                                   bool at_begin, bool& match) {
  std::vector<std::uint8_t> seen(prog.size(), 0);
  std::vector<std::uint32_t> stack(seeds.begin(), seeds.end()), out;
  match = false;
  while (!stack.empty()) {
    const std::uint32_t at = stack.back();
    stack.pop_back();
    if (seen[at] != 0) continue;
    seen[at] = 1;
    const Instr& in = prog[at];
    switch (in.op) {
      case Instr::byte_set:
      case Instr::line_end: out.push_back(at); break;
      case Instr::match: match = true; break;
      case Instr::jump: stack.push_back(in.x); break;
      case Instr::split:
        stack.push_back(in.y);
        stack.push_back(in.x);
        break;
      case Instr::line_begin:
        if (at_begin) stack.push_back(at + 1);
        break;
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Whether a match is reached at the end of the string (past position 0) from a state.
bool matches_at_end(const std::vector<Instr>& prog, const std::vector<std::uint32_t>& state) {
  std::vector<std::uint32_t> seeds;
  for (const std::uint32_t pc : state)
    if (prog[pc].op == Instr::line_end) seeds.push_back(pc + 1);
  // From there on every $ passes too: follow them by hand.
  std::vector<std::uint8_t> seen(prog.size(), 0);
  while (!seeds.empty()) {
    const std::uint32_t at = seeds.back();
    seeds.pop_back();
    if (seen[at] != 0) continue;
    seen[at] = 1;
    const Instr& in = prog[at];
    switch (in.op) {
      case Instr::match: return true;
      case Instr::line_end: seeds.push_back(at + 1); break;
      case Instr::jump: seeds.push_back(in.x); break;
      case Instr::split:
        seeds.push_back(in.y);
        seeds.push_back(in.x);
        break;
      default: break;  // a byte test or ^ (not at position 0): no
    }
  }
  return false;
}

}  // namespace

void PatternMatcher::build_dfa() {
  // Bytes that every byte test treats alike share a class, numbered as first met from byte 0 up; a
  // byte's signature is the tests it passes, one bit each (a map keyed by vector<bool> signatures
  // cost 0.5M instructions a pattern, at every start).
  const std::size_t words = (sets_.size() + 63) / 64;
  std::vector<std::uint64_t> signature(256 * words, 0);
  for (unsigned c = 0; c < 256; ++c) {
    for (std::size_t i = 0; i < sets_.size(); ++i) {
      if (has_byte(sets_[i], static_cast<unsigned char>(c))) {
        signature[c * words + i / 64] |= std::uint64_t{1} << (i % 64);
      }
    }
  }
  std::vector<unsigned char> representative;  // each class's lowest byte
  for (unsigned c = 0; c < 256; ++c) {
    const auto mine = signature.begin() + static_cast<std::ptrdiff_t>(c * words);
    std::size_t k = 0;
    while (k < representative.size() &&
           !std::equal(mine, mine + static_cast<std::ptrdiff_t>(words),
                       signature.begin() + static_cast<std::ptrdiff_t>(representative[k] * words))) {
      ++k;
    }
    if (k == representative.size()) representative.push_back(static_cast<unsigned char>(c));
    byte_class_[c] = static_cast<std::uint8_t>(k);
  }
  classes_ = static_cast<std::uint32_t>(representative.size());

  std::map<std::vector<std::uint32_t>, std::uint32_t> ids;
  std::vector<std::vector<std::uint32_t>> states;
  std::vector<std::uint32_t> next;
  std::vector<std::uint8_t> accept, accept_at_end;
  auto intern = [&](std::vector<std::uint32_t> pcs, bool match) -> std::uint32_t {
    if (match) pcs = {0xffffffffU};  // every accepting state is one
    auto [it, added] = ids.emplace(pcs, static_cast<std::uint32_t>(states.size()));
    if (added) {
      states.push_back(pcs);
      accept.push_back(match ? 1 : 0);
      accept_at_end.push_back(!match && matches_at_end(prog_, pcs) ? 1 : 0);
    }
    return it->second;
  };
  bool match = false;
  auto start = closure(prog_, {0}, true, match);
  const std::uint32_t start_id = intern(std::move(start), match);
  for (std::size_t done = 0; done < states.size(); ++done) {
    if (states.size() > kMaxDfaStates) return;  // too big: the NFA runs
    const std::vector<std::uint32_t> pcs = states[done];
    for (std::uint32_t k = 0; k < classes_; ++k) {
      std::uint32_t to = static_cast<std::uint32_t>(done);
      if (accept[done] == 0) {
        std::vector<std::uint32_t> seeds;
        for (const std::uint32_t pc : pcs)
          if (prog_[pc].op == Instr::byte_set && has_byte(sets_[prog_[pc].x], representative[k])) seeds.push_back(pc + 1);
        if (!anchored_) seeds.push_back(0);
        bool m = false;
        auto closed = closure(prog_, seeds, false, m);
        to = intern(std::move(closed), m);
      }
      next.push_back(to);
    }
  }
  dfa_next_ = std::move(next);
  dfa_accept_ = std::move(accept);
  dfa_accept_at_end_ = std::move(accept_at_end);
  dfa_start_ = start_id;
  if (auto it = ids.find({}); it != ids.end()) dfa_dead_ = it->second;
}

bool PatternMatcher::search(std::string_view s) const {
  if (regex_) return std::regex_search(s.begin(), s.end(), *regex_);
  if (dfa_next_.empty() || s.empty()) return nfa_search(s);
  std::uint32_t state = dfa_start_;
  if (dfa_accept_[state] != 0) return true;
  for (const char ch : s) {
    state = dfa_next_[state * classes_ + byte_class_[static_cast<unsigned char>(ch)]];
    if (dfa_accept_[state] != 0) return true;
    if (state == dfa_dead_) return false;
  }
  return dfa_accept_at_end_[state] != 0;
}

bool PatternMatcher::nfa_search(std::string_view s) const {
  thread_local Scratch scratch;
  Scratch& sc = scratch;
  const std::size_t size = prog_.size();
  if (sc.mark.size() < size) sc.mark.resize(size, 0);
  if (std::uint64_t{sc.stamp} + s.size() + 4 > 0xffffffffULL) {
    std::fill(sc.mark.begin(), sc.mark.end(), 0);
    sc.stamp = 0;
  }
  const std::size_t n = s.size();
  // Adds the thread at `pc` and everything reachable without reading a byte; true on a match.
  auto add = [&](std::vector<std::uint32_t>& list, std::uint32_t pc, std::size_t pos, std::uint32_t stamp) {
    sc.stack.clear();
    sc.stack.push_back(pc);
    while (!sc.stack.empty()) {
      const std::uint32_t at = sc.stack.back();
      sc.stack.pop_back();
      if (sc.mark[at] == stamp) continue;
      sc.mark[at] = stamp;
      const Instr& in = prog_[at];
      switch (in.op) {
        case Instr::byte_set: list.push_back(at); break;
        case Instr::match: return true;
        case Instr::jump: sc.stack.push_back(in.x); break;
        case Instr::split:
          sc.stack.push_back(in.y);
          sc.stack.push_back(in.x);
          break;
        case Instr::line_begin:
          if (pos == 0) sc.stack.push_back(at + 1);
          break;
        case Instr::line_end:
          if (pos == n) sc.stack.push_back(at + 1);
          break;
      }
    }
    return false;
  };
  std::uint32_t stamp = ++sc.stamp;
  sc.current.clear();
  for (std::size_t pos = 0;; ++pos) {
    if ((!anchored_ || pos == 0) && add(sc.current, 0, pos, stamp)) return true;
    if (pos == n) return false;
    if (sc.current.empty() && anchored_) return false;
    const auto c = static_cast<unsigned char>(s[pos]);
    const std::uint32_t next_stamp = ++sc.stamp;
    sc.next.clear();
    for (const std::uint32_t pc : sc.current) {
      if (has_byte(sets_[prog_[pc].x], c) && add(sc.next, pc + 1, pos + 1, next_stamp)) return true;
    }
    std::swap(sc.current, sc.next);
    stamp = next_stamp;
  }
}

}  // namespace common::schema::detail
