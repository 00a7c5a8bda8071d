#pragma once
// The frame of every tool's main(): temporary files removed on a signal, out of memory and a
// stray exception each one line on stderr and the malformed/IO exit status, and a lost write to
// stdout turning any result into that status with one line saying so.
namespace common {

struct ToolFrame {
  const char* name;                  // "bp": every line starts "bp: "
  const char* oom_line;              // "bp: out of memory\n" (static: written without allocating)
  const char* stdout_lost;           // "could not write to stdout": the line's words before the reason
  int exit_io;                       // the tool's exit status for usage / I/O / malformed input
  bool buffered_stdout;              // std::cout through common::install_checked_stdout
  bool quiet_when_failed_already;    // a run that returned exit_io has printed its line already
};

// Runs `run(argc, argv)` inside the frame; returns main's exit status.
int run_tool(int argc, char** argv, int (*run)(int, char**), const ToolFrame& frame);

}  // namespace common
