// hybrid::RunTimeline: streams and devices on tracks of their own, tier moves on a track named
// when the first move comes (the hook nltrain train's memory budget records spills through).
#include "hybrid/trace/run_timeline.hpp"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

TEST_CASE("run_timeline: one track per stream and per device, in processes 'streams' and 'devices'") {
  hybrid::RunTimeline t("nltrain train", "stream", 2, {"cpu"});
  t.on_stream(1, "forward", "phase", 3, 4);
  t.on_device(0, "clip+AdamW", "phase", 8, 1, {{"step", "0"}});
  const auto j = nlohmann::json::parse(t.events().json());
  const auto& ev = j.at("traceEvents");
  REQUIRE(ev.size() == 7);
  CHECK(ev[0] == nlohmann::json::parse(R"({"name":"process_name","ph":"M","pid":1,"args":{"name":"nltrain train: streams"}})"));
  CHECK(ev[1].at("args").at("name") == "nltrain train: devices");
  CHECK(ev[2] == nlohmann::json::parse(R"({"name":"thread_name","ph":"M","pid":1,"tid":1,"args":{"name":"stream 0"}})"));
  CHECK(ev[3].at("args").at("name") == "stream 1");
  CHECK(ev[4] == nlohmann::json::parse(R"({"name":"thread_name","ph":"M","pid":2,"tid":1,"args":{"name":"cpu"}})"));
  CHECK(ev[5] == nlohmann::json::parse(R"({"name":"forward","cat":"phase","ph":"X","ts":3.0,"dur":4.0,"pid":1,"tid":2})"));
  CHECK(ev[6].at("pid") == 2);
  CHECK(ev[6].at("tid") == 1);
  CHECK(ev[6].at("args").at("step") == "0");
}

TEST_CASE("run_timeline: tier moves go on their own track, named once, with bytes and tiers") {
  hybrid::RunTimeline t("nltrain train", "stream", 1, {"cpu"});
  const std::size_t before = t.events().size();
  t.tier_move({"tape cache 3", 4096, hybrid::MemoryTier::ram, hybrid::MemoryTier::ssd, 10, 2});
  t.tier_move({"tape cache 3", 4096, hybrid::MemoryTier::ssd, hybrid::MemoryTier::ram, 20, 3});
  const auto ev = nlohmann::json::parse(t.events().json()).at("traceEvents");
  REQUIRE(ev.size() == before + 3);
  CHECK(ev[before] == nlohmann::json::parse(R"({"name":"thread_name","ph":"M","pid":2,"tid":2,"args":{"name":"tier moves"}})"));
  CHECK(t.tier_move_track() == 2);
  CHECK(ev[before + 1] == nlohmann::json::parse(R"({"name":"tape cache 3 ram->ssd","cat":"tier move","ph":"X","ts":10.0,"dur":2.0,
      "pid":2,"tid":2,"args":{"bytes":"4096","from":"ram","to":"ssd"}})"));
  CHECK(ev[before + 2].at("name") == "tape cache 3 ssd->ram");
  CHECK(ev[before + 2].at("tid") == 2);
}
