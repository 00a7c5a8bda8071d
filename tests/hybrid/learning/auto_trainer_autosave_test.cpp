#include <filesystem>

#include <doctest/doctest.h>

#include "hybrid/learning/auto_trainer_loop.hpp"
#include "plans_for_test.hpp"
#include "support/temp_dir.hpp"

using namespace hybrid;

namespace {
const ExecutionContext kGpu{true, 0.1F, 0.1F};

BackendChoice tick(AutoTrainerLoop& loop) { return loop.on_tick(kGpu, testplans::gpu_plan(), {}, ExecResult::Ok(5)); }
}  // namespace

TEST_CASE("autosave: autosave_not_triggered_when_disabled") {
  testsupport::TempDir dir;
  const std::string path = dir.file("table.txt");
  AutoTrainerLoop loop({0, 0, {}, {}, {}});
  for (int i = 0; i < 5; ++i) (void)tick(loop);
  CHECK_FALSE(std::filesystem::exists(path));
  // An interval without a path is still off.
  AutoTrainerLoop no_path({0, 0, 1, 0, {}});
  (void)tick(no_path);
  CHECK(no_path.dirty());
}

TEST_CASE("autosave: autosave_triggers_by_tick_interval") {
  testsupport::TempDir dir;
  const std::string path = dir.file("sub/table.txt");
  AutoTrainerLoop loop({0, 0, 2, {}, path});
  (void)tick(loop);
  CHECK_FALSE(std::filesystem::exists(path));
  (void)tick(loop);
  CHECK(std::filesystem::exists(path));
  CHECK(loop.last_debug_reason() == "autosave: wrote learning table");
  auto back = load_trainer_from_path(common::real_file_system(), path);
  REQUIRE(back.ok());
  CHECK(back->stats_for(kGpu, BackendChoice::gpu)->count == 2);
}

TEST_CASE("autosave: autosave_respects_dirty_flag") {
  testsupport::TempDir dir;
  AutoTrainerLoop loop({0, 0, 1, {}, dir.file("t.txt")});
  (void)tick(loop);
  CHECK(loop.last_debug_reason() == "autosave: wrote learning table");
  auto again = loop.try_autosave();
  REQUIRE(again.ok());
  CHECK_FALSE(again.value());
}

TEST_CASE("autosave: autosave_failure_does_not_break_tick") {
  testsupport::TempDir dir;
  std::filesystem::create_directories(dir.file("is_a_dir"));
  AutoTrainerLoop loop({0, 0, 1, {}, dir.file("is_a_dir")});
  CHECK(tick(loop) == BackendChoice::gpu);
  CHECK(loop.last_debug_reason().find("autosave: failed") != std::string::npos);
  CHECK(loop.dirty());
  auto direct = loop.try_autosave();
  REQUIRE_FALSE(direct.ok());
  CHECK(direct.error().code() == common::ErrorCode::io);
}

TEST_CASE("autosave: the time interval uses the injected clock") {
  testsupport::TempDir dir;
  const std::string path = dir.file("t.txt");
  std::uint64_t now = 100;
  AutoTrainerLoop loop({0, 0, {}, 30, path}, common::real_file_system(), [&] { return now; });
  now = 129;
  (void)tick(loop);
  CHECK_FALSE(std::filesystem::exists(path));
  now = 130;
  (void)tick(loop);
  CHECK(std::filesystem::exists(path));
}

TEST_CASE("autosave: load_learning replaces the table and clears the dirty flag") {
  testsupport::TempDir dir;
  const std::string path = dir.file("t.txt");
  AutoTrainerLoop writer({0, 0, {}, {}, {}});
  for (int i = 0; i < 3; ++i) (void)tick(writer);
  REQUIRE(writer.save_learning(path).ok());
  AutoTrainerLoop reader({0, 0, {}, {}, {}});
  (void)reader.on_tick(kGpu, testplans::cpu_plan(), {}, ExecResult::Ok(1));
  CHECK(reader.dirty());
  REQUIRE(reader.load_learning(path).ok());
  CHECK_FALSE(reader.dirty());
  CHECK(reader.inner_trainer().stats_for(kGpu, BackendChoice::gpu)->count == 3);
  CHECK_FALSE(reader.inner_trainer().stats_for(kGpu, BackendChoice::cpu).has_value());
}
