// hybrid::TraceEvents: the Chrome trace-event JSON atenia simulate and nltrain train write.
#include <doctest/doctest.h>

#include "hybrid/trace/trace_events.hpp"

TEST_CASE("hybrid/trace_events: names, slices and counters in the order added; empty args left out") {
  hybrid::TraceEvents ev;
  ev.name_process(1, "nltrain train");
  ev.name_track(1, 2, "steps");
  ev.slice(1, 2, "step 0", "step", 0.5, 12.25, {{"loss", "5.5"}, {"note", ""}});
  ev.slice(1, 2, "checkpoint", "io", 13, 2);
  ev.counter(1, "rss", 15, "bytes", 1024);
  CHECK(ev.size() == 5);
  CHECK(ev.json() ==
        "{\"traceEvents\":[{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"args\":{\"name\":\"nltrain train\"}},"
        "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":2,\"args\":{\"name\":\"steps\"}},"
        "{\"name\":\"step 0\",\"cat\":\"step\",\"ph\":\"X\",\"ts\":0.5,\"dur\":12.25,\"pid\":1,\"tid\":2,\"args\":{\"loss\":\"5.5\"}},"
        "{\"name\":\"checkpoint\",\"cat\":\"io\",\"ph\":\"X\",\"ts\":13.0,\"dur\":2.0,\"pid\":1,\"tid\":2},"
        "{\"name\":\"rss\",\"ph\":\"C\",\"ts\":15.0,\"pid\":1,\"args\":{\"bytes\":1024}}],\"displayTimeUnit\":\"ms\"}\n");
}
