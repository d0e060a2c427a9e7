// plumbline: the command-line entry point. Subcommands live in core/; this file only wires CLI11.
#include <CLI/CLI.hpp>

int main(int argc, char** argv) {
  CLI::App app{"plumbline: honest load generation for LLM serving endpoints"};
  app.require_subcommand(1);
  CLI11_PARSE(app, argc, argv);
  return 0;
}
