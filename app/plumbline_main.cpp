// plumbline: the command-line entry point. Subcommands live in core/; this file only wires CLI11.
#include <CLI/CLI.hpp>
#include <memory>

#include "core/mock/mock_server.h"

namespace {

/// `plumbline mock`: options into a MockConfig, then the server (runs until SIGTERM).
void addMockCommand(CLI::App& app, int& exitCode) {
  auto config = std::make_shared<plumbline::mock::MockConfig>();
  CLI::App* cmd = app.add_subcommand("mock", "serve an OpenAI-compatible mock endpoint with scripted timing");
  cmd->add_option("--listen", config->listen, "IPV4:PORT to listen on (port 0 = ephemeral)");
  cmd->add_option("--preset", config->preset, "timing preset: instant or default");
  cmd->add_option("--ttft-ms", config->ttftMs, "time to first token in ms (overrides the preset)");
  cmd->add_option("--itl-ms", config->itlMs, "inter-token latency in ms (overrides the preset)");
  cmd->add_option("--config", config->configPath, "MOCK.json with preset, ttft_ms, itl_ms, threads, natural_length_mean");
  cmd->add_option("--threads", config->threads, "event loops (default: hardware cores)");
  cmd->callback([config, &exitCode] { exitCode = plumbline::mock::runMockServer(*config); });
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"plumbline: honest load generation for LLM serving endpoints"};
  app.require_subcommand(1);
  int exitCode = 0;
  addMockCommand(app, exitCode);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // Usage errors exit 2 (DESIGN.md), whatever CLI11's own code; --help stays 0.
    return app.exit(e) == 0 ? 0 : 2;
  }
  return exitCode;
}
