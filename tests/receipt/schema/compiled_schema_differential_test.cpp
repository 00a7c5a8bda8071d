// Differential test: the compiled validator (validate(), CompiledSchema) against the validator
// that walked the schema document (legacy_validator.hpp, the implementation before schemas
// were compiled). Same errors, in the same order, with the same messages and JSON Pointers,
// for max_errors 1, 3 and 1000, on
//   1. every schema in schemas/ and seeded mutations of the fixture receipts and configs
//      (fixtures/, and the reference's fixtures when the compat tests installed it);
//   2. seeded random schemas (every keyword the validator knows, recursive $ref included)
//      on seeded random documents.
// BP_SCHEMA_DIFF_SCALE=<n> multiplies the number of cases (default 1).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "common/json_document_reader.hpp"
#include "legacy_validator.hpp"
#include "schema_registry/compiled_schema.hpp"
#include "schema_registry/schema_registry.hpp"
#include "schema_registry/validator.hpp"
#include "support/suite_paths.hpp"

namespace {

using ojson = nlohmann::ordered_json;
namespace fs = std::filesystem;

int scale() {
  const char* s = std::getenv("BP_SCHEMA_DIFF_SCALE");
  const int n = s != nullptr ? std::atoi(s) : 1;
  return n > 0 ? n : 1;
}

std::string render(const std::vector<common::Error>& errors) {
  std::string out;
  for (const auto& e : errors) {
    out.append("[").append(std::to_string(static_cast<int>(e.code()))).append("] ").append(e.where().file);
    out.append(":").append(std::to_string(e.where().line)).append(" ").append(e.where().json_path);
    out.append(": ").append(e.message()).append("\n");
  }
  return out.empty() ? "(valid)\n" : out;
}

struct Tally {
  std::size_t cases = 0, invalid = 0, mismatches = 0;
  std::size_t document_cases = 0;  // of the cases, those also run on a JsonDocument
  std::map<std::string, std::size_t> first_messages;  // what kinds of errors were exercised
};

// Compares the two validators on one (schema, document) for several max_errors.
// A document and, where its text holds the same value (not so for a NaN a mutation made, or a
// string that is not UTF-8), that text read as a JsonDocument (common/json_document.hpp). Made
// once per document: every schema and error limit it is compared under reads the same forms.
struct Forms {
  explicit Forms(const ojson& d) : doc(d), text(d.dump(-1, ' ', false, ojson::error_handler_t::replace)) {
    if (auto read = common::parse_json_document(text); read && common::to_ordered_json(read->root()) == doc) {
      arena.emplace(std::move(*read));
    }
  }
  const ojson& doc;
  std::string text;
  std::optional<common::JsonDocument> arena;
};

void compare(const ojson& schema, const schema_registry::CompiledSchema* compiled, const Forms& forms,
             const std::string& label, Tally& tally) {
  const ojson& doc = forms.doc;
  for (const std::size_t max : {std::size_t{1}, std::size_t{3}, std::size_t{1000}}) {
    const auto expected = schema_registry::legacy::validate(schema, doc, max);
    const auto got = compiled != nullptr ? compiled->validate(doc, max) : schema_registry::validate(schema, doc, max);
    ++tally.cases;
    if (!expected.empty()) {
      ++tally.invalid;
      std::string kind = expected.front().message();
      kind = kind.substr(0, kind.find_first_of("'(\"0123456789"));
      ++tally.first_messages[kind];
    }
    const std::string want = render(expected), have = render(got);
    if (want != have && ++tally.mismatches <= 10) {
      FAIL_CHECK(label << " (max_errors " << max << ")\nlegacy:\n" << want << "compiled:\n" << have << "document: "
                       << doc.dump().substr(0, 2000));
    }
    if (!forms.arena) continue;
    const auto on_arena = compiled != nullptr ? compiled->validate(forms.arena->root(), max)
                                              : schema_registry::validate(schema, forms.arena->root(), max);
    ++tally.document_cases;
    if (const std::string arena_have = render(on_arena); want != arena_have && ++tally.mismatches <= 10) {
      FAIL_CHECK(label << " (max_errors " << max << ", JsonDocument)\nlegacy:\n" << want << "compiled:\n"
                       << arena_have << "document: " << forms.text.substr(0, 2000));
    }
  }
}

void compare(const ojson& schema, const schema_registry::CompiledSchema* compiled, const ojson& doc,
             const std::string& label, Tally& tally) {
  compare(schema, compiled, Forms(doc), label, tally);
}

// ---- documents ----

std::vector<std::pair<std::string, ojson>> read_documents(const fs::path& dir, bool recursive) {
  std::vector<std::pair<std::string, ojson>> out;
  if (!fs::is_directory(dir)) return out;
  std::vector<fs::path> files;
  auto take = [&](const fs::directory_entry& e) {
    const auto ext = e.path().extension().string();
    if (e.is_regular_file() && (ext == ".json" || ext == ".jsonl")) files.push_back(e.path());
  };
  if (recursive) {
    for (const auto& e : fs::recursive_directory_iterator(dir)) take(e);
  } else {
    for (const auto& e : fs::directory_iterator(dir)) take(e);
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    if (fs::file_size(f) > 2'000'000) continue;
    std::ifstream in(f);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    auto whole = ojson::parse(text, nullptr, false);
    if (!whole.is_discarded()) {
      out.emplace_back(f.filename().string(), std::move(whole));
      continue;
    }
    std::istringstream lines(text);
    std::string line;
    int n = 0;
    while (std::getline(lines, line)) {
      auto doc = ojson::parse(line, nullptr, false);
      if (!doc.is_discarded()) out.emplace_back(f.filename().string() + ":" + std::to_string(++n), std::move(doc));
    }
  }
  return out;
}

std::vector<std::pair<std::string, ojson>> fixture_documents() {
  const fs::path src = suite_test::source_dir();
  auto docs = read_documents(src / "fixtures", true);
  std::vector<fs::path> refs = {fs::path(suite_test::binary_dir()) / "reference/node_modules/@mcptoolshop/backprop-trace/fixtures"};
  if (const char* r = std::getenv("BP_REFERENCE_FIXTURES")) refs.insert(refs.begin(), r);
  for (const auto& r : refs) {
    if (!fs::is_directory(r)) continue;
    auto more = read_documents(r, true);
    for (auto& d : more) docs.emplace_back("reference/" + d.first, std::move(d.second));
    break;
  }
  return docs;
}

// Strings that steer mutations into the schemas' branches: enum and const values, property
// names, versions.
std::vector<std::string> schema_words() {
  std::set<std::string> words;
  std::function<void(const ojson&)> walk = [&](const ojson& s) {
    if (s.is_object()) {
      for (const auto& [k, v] : s.items()) {
        words.insert(k);
        if ((k == "enum" || k == "const" || k == "required") && (v.is_array() || v.is_string())) {
          if (v.is_string()) words.insert(v.get<std::string>());
          if (v.is_array())
            for (const auto& e : v)
              if (e.is_string()) words.insert(e.get<std::string>());
        }
        walk(v);
      }
    } else if (s.is_array()) {
      for (const auto& v : s) walk(v);
    }
  };
  for (const auto& name : schema_registry::schema_names()) walk(*schema_registry::find_schema(name));
  for (const auto& v : schema_registry::receipt_versions()) words.insert(v);
  return {words.begin(), words.end()};
}

// The schema a document is written for: a framework-trace sidecar's "format", a topology+input
// config, else the receipt schema its version names.
std::string own_schema(const ojson& d) {
  if (d.is_object()) {
    const auto f = d.find("format");
    if (f != d.end() && f->is_string() && f->get_ref<const std::string&>().starts_with("framework-trace"))
      return "framework-trace.v" + schema_registry::pick_framework_trace_version(d);
    if (d.contains("topology") && !d.contains("schema_version")) return "topology-input.v0.4.0";
  }
  return "receipt.v" + schema_registry::pick_receipt_version(d);
}

class Mutator {
 public:
  Mutator(std::uint64_t seed, std::vector<std::string> words) : rng_(seed), words_(std::move(words)) {}

  ojson mutate(const ojson& original) {
    ojson doc = original;
    const int edits = 1 + static_cast<int>(rng_() % 3);
    for (int i = 0; i < edits; ++i) edit(doc);
    return doc;
  }

  std::mt19937_64& rng() { return rng_; }

 private:
  std::size_t pick(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(rng_() % n); }

  void collect(ojson& v, std::vector<ojson*>& out) {
    out.push_back(&v);
    if (v.is_object()) {
      for (auto& [k, e] : v.items()) collect(e, out);
    } else if (v.is_array()) {
      for (auto& e : v) collect(e, out);
    }
  }

  ojson scalar() {
    switch (pick(16)) {
      case 0: return nullptr;
      case 1: return true;
      case 2: return false;
      case 3: return 0;
      case 4: return -1;
      case 5: return 1.5;
      case 6: return 2.0;
      case 7: return 1e300;
      case 8: return -0.0;
      case 9: return "";
      case 10: return "x";
      case 11: return "\xc3\xa9t\xc3\xa9";
      case 12: return std::string(300, 'a');
      case 13: return 123456789012345678LL;
      default: return words_[pick(words_.size())];
    }
  }

  ojson value(const std::vector<ojson*>& nodes) {
    switch (pick(6)) {
      case 0: return ojson::array();
      case 1: return ojson::object();
      case 2: return *nodes[pick(nodes.size())];  // a copy of another part of the document
      default: return scalar();
    }
  }

  void edit(ojson& doc) {
    std::vector<ojson*> nodes;
    collect(doc, nodes);
    ojson& v = *nodes[pick(nodes.size())];
    const auto op = pick(10);
    if (op == 0) {  // retype / replace
      const ojson r = value(nodes);
      v = r;
      return;
    }
    if (v.is_object()) {
      auto& obj = v.get_ref<ojson::object_t&>();
      switch (pick(5)) {
        case 0:
        case 1:
          if (!obj.empty()) obj.erase(obj.begin() + static_cast<long>(pick(obj.size())));
          return;
        case 2: {
          const ojson r = value(nodes);
          v[pick(3) == 0 ? std::string("extra") : words_[pick(words_.size())]] = r;
          return;
        }
        case 3:  // reorder members
          if (obj.size() > 1) {
            const std::string key = (obj.begin() + static_cast<long>(pick(obj.size())))->first;
            const ojson moved = v[key];
            v.erase(key);
            v[key] = moved;
          }
          return;
        default:
          if (!obj.empty()) (obj.begin() + static_cast<long>(pick(obj.size())))->second = scalar();
          return;
      }
    }
    if (v.is_array()) {
      const std::size_t n = v.size();
      switch (pick(7)) {
        case 0:
          if (n > 0) v.erase(v.begin() + static_cast<long>(pick(n)));
          return;
        case 1:
        case 2:  // a duplicate, somewhere
          if (n > 0) {
            const ojson copy = v[pick(n)];
            v.insert(v.begin() + static_cast<long>(pick(n + 1)), copy);
          }
          return;
        case 3:
          if (n > 1) std::swap(v[pick(n)], v[pick(n)]);
          return;
        case 4: v.push_back(value(nodes)); return;
        case 5: v = ojson::array(); return;
        default:
          if (n > 0) v[pick(n)] = scalar();
          return;
      }
    }
    if (v.is_string()) {
      std::string s = v.get<std::string>();
      switch (pick(6)) {
        case 0: s += "_"; break;
        case 1:
          if (!s.empty()) s.erase(pick(s.size()), 1);
          break;
        case 2:
          if (!s.empty()) s[pick(s.size())] = "Z9.-~/ "[pick(7)];
          break;
        case 3: s = words_[pick(words_.size())]; break;
        case 4: s = ""; break;
        default: s += "\xc3\xa9"; break;
      }
      v = s;
      return;
    }
    if (v.is_number()) {
      const double d = v.get<double>();
      switch (pick(8)) {
        case 0: v = -d; return;
        case 1: v = d + 1; return;
        case 2: v = d * 1e6; return;
        case 3: v = static_cast<double>(static_cast<long long>(d)); return;  // integral, as a float
        case 4: v = static_cast<long long>(d); return;
        case 5: v = 0; return;
        case 6: v = d / 3; return;
        default: v = std::to_string(d); return;
      }
    }
    v = value(nodes);
  }

  std::mt19937_64 rng_;
  std::vector<std::string> words_;
};

// ---- random schemas ----

class SchemaMaker {
 public:
  explicit SchemaMaker(std::uint64_t seed) : rng_(seed) {}

  ojson make() {
    ojson root = schema(0);
    if (!root.is_object()) root = ojson{{"anyOf", ojson::array({root, ojson::object()})}};
    // Recursion only where a reference descends into the instance first (no endless loops).
    if (!root.contains("properties") || root["properties"].is_object()) root["properties"]["self"] = {{"$ref", "#"}};
    ojson defs = ojson::object();
    making_a_ = true;
    defs["A"] = schema(1);
    making_a_ = false;
    defs["B"] = ojson{{"type", "object"}, {"properties", {{"next", {{"$ref", "#/$defs/B"}}}, {"v", schema(2)}}}};
    defs["C"] = ojson{{"anyOf", ojson::array({ojson{{"type", "integer"}}, ojson{{"type", "array"}, {"items", {{"$ref", "#/$defs/C"}}}}})}};
    root["$defs"] = defs;
    return root;
  }

  ojson instance(int depth = 0) {
    switch (pick(depth > 3 ? 8 : 11)) {
      case 0: return nullptr;
      case 1: return pick(2) == 0;
      case 2: return static_cast<int>(pick(7)) - 2;
      case 3: return static_cast<double>(pick(5));  // integral floats
      case 4: return 0.25 * static_cast<double>(pick(12)) - 1;
      case 5:
      case 6: return word();
      case 7: return std::string(pick(4), "ab\xc3\xa9"[pick(3)]);
      case 8:
      case 9: {
        ojson a = ojson::array();
        const std::size_t n = pick(4) == 0 ? 9 + pick(20) : pick(5);  // long ones take the hashed path
        for (std::size_t i = 0; i < n; ++i) {
          if (i > 0 && pick(6) == 0) {
            a.push_back(a[pick(a.size())]);
          } else if (i > 0 && pick(8) == 0 && a[i - 1].is_number()) {
            a.push_back(a[i - 1].get<double>());  // 1 and 1.0
          } else {
            a.push_back(instance(depth + 1));
          }
        }
        return a;
      }
      default: {
        ojson o = ojson::object();
        const std::size_t n = pick(6);
        for (std::size_t i = 0; i < n; ++i) o[word()] = instance(depth + 1);
        return o;
      }
    }
  }

 private:
  std::size_t pick(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(rng_() % n); }
  std::string word() {
    static const char* words[] = {"a", "b", "c", "id", "x1", "Y_2", "next", "v", "sgd", "adam", "9z", "a/b", "t~1"};
    return words[pick(sizeof(words) / sizeof(words[0]))];
  }
  ojson type_name() {
    static const char* types[] = {"object", "array", "string", "number", "integer", "boolean", "null"};
    return types[pick(7)];
  }
  ojson small_schemas(int depth) {
    ojson a = ojson::array();
    const std::size_t n = pick(4);
    for (std::size_t i = 0; i < n; ++i) a.push_back(schema(depth + 1));
    return a;
  }

  ojson schema(int depth) {
    if (pick(12) == 0) return pick(3) != 0;  // boolean schemas
    ojson s = ojson::object();
    const std::size_t keywords = depth > 3 ? pick(2) : 1 + pick(4);
    for (std::size_t k = 0; k < keywords; ++k) {
      switch (pick(36)) {
        case 0:
          if (pick(2) == 0) {
            s["type"] = type_name();
          } else {
            s["type"] = ojson::array({type_name(), type_name()});
          }
          break;
        case 1: s["enum"] = ojson::array({"a", 1, 2.0, nullptr, ojson::array({1, "b"}), ojson{{"b", 1}, {"a", 2}}}); break;
        case 2: s["const"] = pick(2) == 0 ? ojson(1) : ojson{{"a", 1.0}, {"b", "c"}}; break;
        case 3: s["minimum"] = static_cast<int>(pick(3)) - 1; break;
        case 4: s["maximum"] = 1.5; break;
        case 5: s["exclusiveMinimum"] = 0; break;
        case 6: s["exclusiveMaximum"] = 2; break;
        case 7: s["multipleOf"] = pick(2) == 0 ? ojson(0.5) : ojson(2); break;
        case 8: s["minLength"] = pick(3); break;
        case 9: s["maxLength"] = 2.0; break;
        case 10: s["pattern"] = pick(2) == 0 ? "^[a-z][a-z0-9_]*$" : "\\d"; break;
        case 11: s["minItems"] = pick(3); break;
        case 12: s["maxItems"] = 3 + pick(10); break;
        case 13:
          s["uniqueItems"] = pick(4) != 0;
          if (pick(2) == 0) s["items"] = ojson{{"type", pick(2) == 0 ? ojson("string") : ojson::array({"number", "null"})}};
          break;
        case 14: s["prefixItems"] = small_schemas(depth); break;
        case 15: s["items"] = schema(depth + 1); break;
        case 16: s["contains"] = schema(depth + 1); break;
        case 17: s["required"] = ojson::array({word(), word()}); break;
        case 18: s["dependentRequired"] = ojson{{word(), ojson::array({word()})}, {word(), ojson::array()}}; break;
        case 19: s["minProperties"] = pick(3); break;
        case 20: s["maxProperties"] = 1 + pick(3); break;
        case 21:
        case 22: {
          ojson p = ojson::object();
          const std::size_t n = 1 + pick(3);
          for (std::size_t i = 0; i < n; ++i) p[word()] = schema(depth + 1);
          s["properties"] = p;
          break;
        }
        case 23: s["patternProperties"] = ojson{{"^[a-c]$", schema(depth + 1)}, {"[0-9]", schema(depth + 1)}}; break;
        case 24: s["additionalProperties"] = pick(2) == 0 ? ojson(pick(2) == 0) : schema(depth + 1); break;
        case 25: s["propertyNames"] = ojson{{"maxLength", 2}}; break;
        case 26: s["allOf"] = small_schemas(depth); break;
        case 27: s["anyOf"] = small_schemas(depth); break;
        case 28: s["oneOf"] = small_schemas(depth); break;
        case 29: s["not"] = schema(depth + 1); break;
        case 30:
          s["if"] = schema(depth + 1);
          if (pick(3) != 0) s["then"] = schema(depth + 1);
          if (pick(2) != 0) s["else"] = schema(depth + 1);
          break;
        case 31:
          s["$ref"] = std::vector<std::string>{"#/$defs/B", "#/$defs/C", "#/$defs/missing", "#/$defs/C/anyOf/1",
                                               "#/$defs/A"}[pick(making_a_ ? 4 : 5)];
          break;
        case 32: s["x-order"] = ojson::array({"a"}); break;
        case 33: s["type"] = "nonsense"; break;
        default: break;
      }
    }
    return s;
  }

  std::mt19937_64 rng_;
  bool making_a_ = false;
};

}  // namespace

TEST_CASE("compiled validator: same errors as the walking validator on every schema and mutated fixtures") {
  const auto docs = fixture_documents();
  REQUIRE(docs.size() >= 8);
  const auto names = schema_registry::schema_names();
  Mutator mutator(20261123, schema_words());
  Tally tally;
  // About 3000 mutated documents (times BP_SCHEMA_DIFF_SCALE), spread over the fixtures.
  const int per_doc = std::max(4, static_cast<int>(3000 * static_cast<std::size_t>(scale()) / docs.size()));
  std::size_t documents = 0;
  for (const auto& [label, doc] : docs) {
    // Large documents (the reference's 160 KB hero receipt) get a few: the walking validator is slow.
    const int mutations = doc.dump().size() > 100'000 ? std::min(per_doc, 3) : per_doc;
    for (int m = 0; m <= mutations; ++m) {
      const ojson d = m == 0 ? doc : mutator.mutate(doc);
      const Forms forms(d);
      ++documents;
      // The schema it is meant for, through the public API (the registry's compiled form) ...
      const std::string mine = own_schema(d);
      compare(*schema_registry::find_schema(mine), nullptr, forms, label + " #" + std::to_string(m) + " [" + mine + "]",
              tally);
      // ... and one other schema of the registry, chosen by the seed (mostly another receipt
      // version, which reads deeper into a receipt than the other families).
      const auto& versions = schema_registry::receipt_versions();
      const std::string other = mutator.rng()() % 4 != 0 ? "receipt.v" + versions[mutator.rng()() % versions.size()]
                                                         : names[mutator.rng()() % names.size()];
      compare(*schema_registry::find_schema(other), schema_registry::find_compiled_schema(other), forms,
              label + " #" + std::to_string(m) + " [" + other + "]", tally);
    }
  }
  // Every schema once on every unmutated document.
  for (const auto& [label, doc] : docs) {
    const Forms forms(doc);
    for (const auto& name : names)
      compare(*schema_registry::find_schema(name), schema_registry::find_compiled_schema(name), forms,
              label + " [" + name + "]", tally);
  }
  MESSAGE(docs.size() << " fixture documents, " << documents << " documents with mutations, " << tally.cases
                      << " comparisons (" << tally.invalid << " invalid), " << tally.first_messages.size()
                      << " kinds of first error, " << tally.mismatches << " mismatches, "
                      << tally.document_cases << " also on a JsonDocument");
  for (const auto& [kind, n] : tally.first_messages) MESSAGE("  " << n << "  " << kind);
  CHECK(tally.mismatches == 0);
  CHECK(tally.first_messages.size() >= 10);
  CHECK(tally.document_cases * 10 >= tally.cases * 9);
}

TEST_CASE("compiled validator: same errors as the walking validator on random schemas and documents") {
  SchemaMaker maker(42);
  Tally tally;
  const int schemas = 400 * scale();
  for (int i = 0; i < schemas; ++i) {
    const ojson schema = maker.make();
    const schema_registry::CompiledSchema compiled(schema);
    for (int j = 0; j < 25; ++j) {
      const ojson doc = maker.instance();
      compare(schema, &compiled, doc, "random schema " + std::to_string(i) + " doc " + std::to_string(j), tally);
      if (tally.mismatches > 0 && tally.mismatches <= 3) MESSAGE("schema: " << schema.dump());
    }
  }
  MESSAGE(schemas << " random schemas, " << tally.cases << " comparisons (" << tally.invalid << " invalid), "
                  << tally.first_messages.size() << " kinds of first error, " << tally.mismatches << " mismatches, "
                  << tally.document_cases << " also on a JsonDocument");
  for (const auto& [kind, n] : tally.first_messages) MESSAGE("  " << n << "  " << kind);
  CHECK(tally.mismatches == 0);
  CHECK(tally.first_messages.size() >= 20);
  CHECK(tally.document_cases * 10 >= tally.cases * 9);
}

TEST_CASE("compiled validator: registry schemas compile once and are shared") {
  const auto* a = schema_registry::find_compiled_schema("0.8.0");
  const auto* b = schema_registry::find_compiled_schema("receipt.v0.8.0.json");
  REQUIRE(a != nullptr);
  CHECK(a == b);
  CHECK(a == schema_registry::registry_compiled_schema(*schema_registry::find_schema("0.8.0")));
  CHECK(schema_registry::find_compiled_schema("9.9.9") == nullptr);
  const ojson copy = *schema_registry::find_schema("0.8.0");
  CHECK(schema_registry::registry_compiled_schema(copy) == nullptr);
  for (const auto& name : schema_registry::schema_names()) CHECK(schema_registry::find_compiled_schema(name) != nullptr);
}

TEST_CASE("compiled validator: malformed keywords throw when compiled") {
  for (const char* s : {R"({"required":"a"})", R"({"minimum":"1"})", R"({"type":3})", R"({"type":["string",1]})",
                        R"({"enum":"a"})", R"({"pattern":1})", R"({"uniqueItems":1})", R"({"minItems":-1})",
                        R"({"allOf":{}})", R"({"$ref":1})", R"({"maxLength":1.5})"}) {
    CHECK_THROWS_AS(schema_registry::CompiledSchema{ojson::parse(s)}, std::invalid_argument);
  }
  CHECK_THROWS_AS(schema_registry::CompiledSchema{ojson::parse(R"({"pattern":"(a"})")}, std::regex_error);
  // Not errors of the schema: an unresolved $ref fails the values that reach it.
  const schema_registry::CompiledSchema dangling(ojson::parse(R"({"properties":{"a":{"$ref":"#/$defs/none"}}})"));
  const auto errors = dangling.validate(ojson::parse(R"({"a":1})"));
  REQUIRE(errors.size() == 1);
  CHECK(errors.front().where().json_path == "/a");
  CHECK(errors.front().message() == "can't resolve reference #/$defs/none");
}

TEST_CASE("compiled validator: uniqueItems on long arrays reports Ajv's pair") {
  const schema_registry::CompiledSchema ids(ojson::parse(R"({"uniqueItems":true,"items":{"type":"string"}})"));
  ojson a = ojson::array();
  for (int i = 0; i < 8000; ++i) a.push_back(std::string("p").append(std::to_string(i)));
  CHECK(ids.is_valid(a));
  a[7000] = "p12";
  a[9] = "p3";
  const auto e = ids.validate(a);
  REQUIRE(e.size() == 1);
  CHECK(e.front().message() == "must NOT have duplicate items (items ## 7000 and 12 are identical)");
  const schema_registry::CompiledSchema any(ojson::parse(R"({"uniqueItems":true})"));
  ojson b = ojson::array();
  for (int i = 0; i < 100; ++i) b.push_back(ojson{{"k", i}, {"v", ojson::array({i, "x"})}});
  CHECK(any.is_valid(b));
  b[40] = ojson{{"v", ojson::array({3.0, "x"})}, {"k", 3}};
  b[60] = 1;
  b[70] = 1.0;
  CHECK(any.validate(b).front().message() == "must NOT have duplicate items (items ## 60 and 70 are identical)");
  CHECK(schema_registry::legacy::validate(ojson::parse(R"({"uniqueItems":true})"), b).front().message() ==
        "must NOT have duplicate items (items ## 60 and 70 are identical)");
}

TEST_CASE("compiled validator: many threads compile and use the registry's schemas at once") {
  const auto docs = fixture_documents();
  REQUIRE(!docs.empty());
  // Expected answers, from the walking validator, before any thread starts.
  std::vector<std::string> names, expected;
  for (const auto& [label, doc] : docs) {
    names.push_back(own_schema(doc));
    expected.push_back(render(schema_registry::legacy::validate(*schema_registry::find_schema(names.back()), doc, 5)));
  }
  std::vector<int> wrong(8, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (std::size_t round = 0; round < 3; ++round) {
        for (std::size_t i = t; i < docs.size() + t; ++i) {
          const std::size_t k = i % docs.size();
          const auto got = schema_registry::validate(*schema_registry::find_schema(names[k]), docs[k].second, 5);
          if (render(got) != expected[k]) ++wrong[t];
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < 8; ++t) CHECK(wrong[t] == 0);
}
