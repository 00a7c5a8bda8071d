// nltrain plot: the loss curve of a metrics file as an SVG picture (written by our own code).
#include <algorithm>
#include <cmath>
#include <iostream>

#include <fmt/format.h>

#include "cli_common/path_option.hpp"
#include "cli_support.hpp"
#include "commands.hpp"
#include "common/file_system.hpp"
#include "common/json_input.hpp"
#include "input_text.hpp"

namespace nltrain::cli {
namespace {

struct PlotOptions {
  std::string metrics, out = "loss.svg", title = "nltrain loss";
};

// Round tick values: 1, 2 or 5 times a power of ten. In long double, as all of the picture's
// arithmetic: finite values far apart (a loss of -1e308 and 1e308) have a span beyond double's
// range, which made every coordinate NaN.
using Real = long double;
std::vector<Real> ticks(Real lo, Real hi, int want) {
  const Real span = hi > lo ? hi - lo : 1.0L;
  const Real raw = span / want, mag = std::pow(10.0L, std::floor(std::log10(raw)));
  const Real step = raw / mag < 1.5L ? mag : raw / mag < 3.5L ? 2 * mag : raw / mag < 7.5L ? 5 * mag : 10 * mag;
  std::vector<Real> t;
  for (Real v = std::ceil(lo / step) * step; v <= hi + step * 1e-9L; v += step) t.push_back(std::fabs(v) < step * 1e-9L ? 0 : v);
  return t;
}

std::string xml_escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += static_cast<unsigned char>(c) < 0x20 ? ' ' : c;
    }
  }
  return out;
}

int run_plot(const PlotOptions& o) {
  auto text = read_input(o.metrics, common::kMaxJsonInputBytes);
  if (!text.ok()) return report(text.error());
  const std::string name = input_name(o.metrics);
  auto recs = common::parse_jsonl_text(*text, {.file = name});
  if (!recs.ok()) return report(recs.error());
  std::vector<std::pair<double, double>> pts;
  for (const common::JsonlRecord& r : *recs) {
    const auto bad = [&](const char* what) {
      return report(common::Error::malformed(what, common::Location{name, r.line, ""}));
    };
    if (!r.value.is_object() || !r.value.contains("step") || !r.value.contains("loss")) return bad("not an nltrain metrics line (needs \"step\" and \"loss\")");
    const auto& step = r.value.at("step");
    const auto& loss = r.value.at("loss");
    if (!step.is_number() || !loss.is_number() || !std::isfinite(step.get<double>()) || !std::isfinite(loss.get<double>())) {
      return bad("\"step\" and \"loss\" must be finite numbers");
    }
    pts.emplace_back(step.get<double>(), loss.get<double>());
  }
  std::stable_sort(pts.begin(), pts.end(), [](auto a, auto b) { return a.first < b.first; });
  Real x0 = pts.front().first, x1 = pts.back().first, y0 = pts.front().second, y1 = y0;
  for (auto [x, y] : pts) y0 = std::min<Real>(y0, y), y1 = std::max<Real>(y1, y);
  if (x1 <= x0) x1 = x0 + 1;
  const Real pad = (y1 - y0) * 0.05L + 1e-6L;
  y0 -= pad, y1 += pad;
  constexpr double W = 800, H = 450, L = 70, R = 20, T = 40, B = 50;
  auto sx = [&](Real x) { return static_cast<double>(L + (x - x0) / (x1 - x0) * (W - L - R)); };
  auto sy = [&](Real y) { return static_cast<double>(H - B - (y - y0) / (y1 - y0) * (H - T - B)); };
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" font-family=\"sans-serif\" font-size=\"12\">\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<text x=\"{}\" y=\"24\" text-anchor=\"middle\" font-size=\"16\">{}</text>\n",
      W, H, W, H, W / 2, xml_escape(o.title));
  for (Real t : ticks(y0, y1, 6)) {
    svg += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#ddd\"/>\n"
                       "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{:g}</text>\n",
                       L, sy(t), W - R, sy(t), L - 6, sy(t) + 4, t);
  }
  for (Real t : ticks(x0, x1, 8)) {
    svg += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#ddd\"/>\n"
                       "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{:g}</text>\n",
                       sx(t), T, sx(t), H - B, sx(t), H - B + 18, t);
  }
  svg += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"black\"/>\n", L, T, W - L - R, H - T - B);
  svg += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">step</text>\n", (L + W - R) / 2, H - 12);
  svg += fmt::format("<text x=\"16\" y=\"{}\" text-anchor=\"middle\" transform=\"rotate(-90 16 {})\">loss</text>\n", (T + H - B) / 2, (T + H - B) / 2);
  svg += "<polyline id=\"loss\" fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.5\" points=\"";
  for (std::size_t i = 0; i < pts.size(); ++i) svg += fmt::format("{}{:.2f},{:.2f}", i ? " " : "", sx(pts[i].first), sy(pts[i].second));
  svg += "\"/>\n</svg>\n";
  if (common::Status s = write_output(o.out, svg); !s.ok()) return report(s.error());
  if (o.out != "-") std::cout << "wrote " << o.out << " (" << pts.size() << " points)\n";
  return kExitOk;
}

}  // namespace

Registration add_plot_command(CLI::App& app) {
  auto o = std::make_shared<PlotOptions>();
  CLI::App* cmd = app.add_subcommand("plot", "Draw the loss curve of a metrics file as SVG");
  cmd->add_option("METRICS", o->metrics, "Metrics JSONL written by nltrain train --metrics ('-': stdin)")->required();
  cli_common::add_path_option(cmd, "--out", o->out, "SVG file (default loss.svg; '-': stdout)");
  cmd->add_option("--title", o->title, "Title of the picture");
  return {cmd, [o] { return run_plot(*o); }};
}

}  // namespace nltrain::cli
