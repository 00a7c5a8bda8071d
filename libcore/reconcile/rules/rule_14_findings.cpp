#include "reconcile/rules/rule_14_findings.hpp"

#include <charconv>
#include <stdexcept>
#include <utility>

#include "reconcile/rules/optim_common.hpp"

namespace reconcile::rules::rule14 {

std::string json_quoted(std::string_view text) { return Tree(std::string(text)).dump(); }

void PathPieces::append(std::initializer_list<std::string_view> pieces) {
  if (pieces.size() > kMaxPieces - size_) throw std::length_error("Rule 14: a comparison path of too many pieces");
  for (std::string_view piece : pieces) pieces_[size_++] = piece;
}

PathPieces PathPieces::then(std::initializer_list<std::string_view> pieces) const {
  PathPieces out = *this;
  out.append(pieces);
  return out;
}

std::string PathPieces::str() const {
  std::string path;
  for (std::size_t i = 0; i < size_; ++i) path += pieces_[i];
  return path;
}

namespace {

std::string bracketed(std::size_t i) {
  char text[24];
  text[0] = '[';
  char* end = std::to_chars(text + 1, text + sizeof text - 1, i).ptr;
  *end++ = ']';
  return std::string(text, end);
}

}  // namespace

std::string_view index_piece(std::size_t i, std::string& spill) {
  static const auto kSmall = [] {
    std::array<std::string, 256> texts;
    for (std::size_t k = 0; k < texts.size(); ++k) texts[k] = bracketed(k);
    return texts;
  }();
  if (i < kSmall.size()) return kSmall[i];
  spill = bracketed(i);
  return spill;
}

template <class Spell>
void Findings::compare_spelled(const Spell& spell, double recomputed, const Json* claimed, bool extended) {
  if (!claimed || !claimed->is_number()) return;  // shape is the schema's domain
  const double stored = claimed->get<double>();
  const auto c = check_tolerance(recomputed, stored, tol_);
  if (!c.ok) disagree(spell(), recomputed, stored, c, extended);
}

void Findings::compare(std::initializer_list<std::string_view> pieces, double recomputed, const Json* claimed,
                       bool extended) {
  const auto spell = [pieces] {
    std::string path;
    for (std::string_view piece : pieces) path += piece;
    return path;
  };
  compare_spelled(spell, recomputed, claimed, extended);
}

void Findings::compare(const PathPieces& pieces, double recomputed, const Json* claimed, bool extended) {
  compare_spelled([&pieces] { return pieces.str(); }, recomputed, claimed, extended);
}

void Findings::disagree(const std::string& path, double recomputed, double stored, const ToleranceCheck& c,
                        bool extended) {
  // The reference names no parameter on these.
  std::string message =
      c.finite ? std::string(kTag) + (extended ? "(extended) " : "") + "foreign claim at " + path + " (" +
                     js_number(stored) + ") disagrees with engine recomputation (" + js_number(recomputed) +
                     ") beyond differential_tolerance (atol=" + js_number(tol_.atol) + ", rtol=" + js_number(tol_.rtol) +
                     ")."
               : std::string(kTag) + "non-finite arithmetic at " + path + ". Engine recomputed " + js_number(recomputed) +
                     "; receipt claimed " + js_number(stored) + ".";
  out_.add(numeric_failure(14, path, stored, recomputed, c, std::move(message)));
}

void Findings::missing(const std::string& path, std::string message, std::optional<double> recomputed,
                       std::optional<std::string> parameter_id) {
  Failure f = plain_failure(14, path, std::string(kCompleteTag) + std::move(message), std::move(parameter_id));
  if (recomputed) f.recomputed = *recomputed;
  out_.add(std::move(f));
}

}  // namespace reconcile::rules::rule14
