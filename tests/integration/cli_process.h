#pragma once
// Runs the real plumbline binary for integration tests and captures what it printed.
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace plumbline::test {

struct CliResult {
  int exitCode = -1;
  std::string output;  ///< stdout and stderr together
};

/// Runs `plumbline ARGS` through the shell (ARGS is shell-quoted by the caller).
inline CliResult runCli(const std::string& args) {
  const std::string cmd = std::string(PLUMBLINE_BIN) + " " + args + " 2>&1";
  CliResult result;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return result;
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) result.output.append(buf.data(), n);
  const int status = pclose(pipe);
  result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

}  // namespace plumbline::test
