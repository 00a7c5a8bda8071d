#include "common/resident_heap.hpp"

#include <doctest/doctest.h>

#include <stdexcept>
#include <thread>

#include "schema_registry/compiled_schema.hpp"
#include "schema_registry/schema_registry.hpp"

namespace resident_heap_test {

int g_runs = 0;
bool g_inside = false;

// What the tools' runner does, minus the heap: marks the build as running inside it.
void recording_runner(const std::function<void()>& build) {
  ++g_runs;
  g_inside = true;
  struct Leave {
    ~Leave() { g_inside = false; }
  } leave;
  build();
}

struct Installed {
  Installed() {
    g_runs = 0;
    common::install_resident_runner(&recording_runner);
  }
  ~Installed() { common::install_resident_runner(nullptr); }
};

}  // namespace resident_heap_test

TEST_CASE("build_resident runs the build once, through the installed runner when there is one") {
  using namespace resident_heap_test;
  int built = 0;
  bool built_inside = true;
  common::build_resident([&] {
    ++built;
    built_inside = g_inside;
  });
  CHECK(built == 1);
  CHECK_FALSE(built_inside);
  {
    Installed runner;
    common::build_resident([&] {
      ++built;
      built_inside = g_inside;
    });
    CHECK(g_runs == 1);
    CHECK(built == 2);
    CHECK(built_inside);
    CHECK_THROWS_AS(common::build_resident([] { throw std::runtime_error("bad schema"); }), std::runtime_error);
    CHECK(g_runs == 2);
    CHECK_FALSE(g_inside);  // the runner's own clean-up ran
  }
  common::build_resident([&] { built_inside = g_inside; });
  CHECK(g_runs == 2);  // removed
}

// Every thread of bp verify multi reads the compiled schemas (this test's process compiles none
// before it: one process per test case).
TEST_CASE("the registry's compiled schemas are built resident, each once, on whichever thread asks first") {
  using namespace resident_heap_test;
  Installed runner;
  const auto names = schema_registry::schema_names();
  REQUIRE(names.size() > 3);
  std::thread other([&] { CHECK(schema_registry::find_compiled_schema(names[0]) != nullptr); });
  other.join();
  CHECK(g_runs == 1);
  for (const auto& name : names) CHECK(schema_registry::find_compiled_schema(name) != nullptr);
  CHECK(g_runs == static_cast<int>(names.size()));
  for (const auto& name : names) CHECK(schema_registry::find_compiled_schema(name) != nullptr);
  CHECK(g_runs == static_cast<int>(names.size()));
}
