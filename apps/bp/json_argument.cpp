#include "json_argument.hpp"

#include "common/json_document_reader.hpp"
#include "common/json_input.hpp"
#include "input_source.hpp"

namespace bp::cli {
namespace {

// The argument's text, or the exit status after a missing argument or a read failure was reported.
std::variant<std::pair<std::string, InputText>, int> argument_text(const Invocation& inv, std::size_t index,
                                                                   const FileArgRule& rule) {
  auto arg = file_argument(inv, index, rule);
  if (auto* code = std::get_if<int>(&arg)) return *code;
  std::string& file = std::get<std::string>(arg);
  verbose_log(inv, "processing " + std::string(file == "-" ? "<stdin>" : file));
  auto input = read_input(file);
  if (auto* e = std::get_if<CliError>(&input)) return fail(inv, *e);
  return std::make_pair(std::move(file), std::move(std::get<InputText>(input)));
}

// Input configs tolerate a BOM, as the reference does.
common::JsonInputOptions options_for(const std::string& name) {
  common::JsonInputOptions options;
  options.file = name;
  options.bom = common::BomPolicy::strip;
  return options;
}

}  // namespace

std::variant<JsonArgument, int, common::Error> read_json_argument(const Invocation& inv, std::size_t index,
                                                                  const FileArgRule& rule) {
  auto read = argument_text(inv, index, rule);
  if (auto* code = std::get_if<int>(&read)) return *code;
  auto& [file, in] = std::get<0>(read);
  auto doc = common::parse_json_text(in.text, options_for(in.name));
  if (!doc) return doc.error();
  return JsonArgument{std::move(file), std::move(in.name), std::move(doc.value())};
}

std::variant<DocumentArgument, int, common::Error> read_document_argument(const Invocation& inv, std::size_t index,
                                                                          const FileArgRule& rule) {
  auto read = argument_text(inv, index, rule);
  if (auto* code = std::get_if<int>(&read)) return *code;
  auto& [file, in] = std::get<0>(read);
  auto doc = common::parse_json_document(std::move(in.text), options_for(in.name));
  if (!doc) return doc.error();
  return DocumentArgument{std::move(file), std::move(in.name), std::move(doc.value())};
}

}  // namespace bp::cli
