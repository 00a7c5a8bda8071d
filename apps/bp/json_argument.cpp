#include "json_argument.hpp"

#include "common/json_input.hpp"
#include "input_source.hpp"

namespace bp::cli {

std::variant<JsonArgument, int, common::Error> read_json_argument(const Invocation& inv, std::size_t index,
                                                                  const FileArgRule& rule) {
  auto arg = file_argument(inv, index, rule);
  if (auto* code = std::get_if<int>(&arg)) return *code;
  const std::string& file = std::get<std::string>(arg);
  verbose_log(inv, "processing " + std::string(file == "-" ? "<stdin>" : file));
  auto input = read_input(file);
  if (auto* e = std::get_if<CliError>(&input)) return fail(inv, *e);
  InputText& in = std::get<InputText>(input);
  common::JsonInputOptions options;
  options.file = in.name;
  options.bom = common::BomPolicy::strip;
  auto doc = common::parse_json_text(in.text, options);
  if (!doc) return doc.error();
  return JsonArgument{file, std::move(in.name), std::move(doc.value())};
}

}  // namespace bp::cli
