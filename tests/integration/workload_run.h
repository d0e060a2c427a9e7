#pragma once
// Runs a workload document with `plumbline run` (one worker) into a temporary database and
// reads back what it stored: the summary JSON, the terminal output and the export.
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/integration/child_process.h"

namespace plumbline::test {

struct WorkloadRun {
  int exitCode = -1;
  std::string output;
  nlohmann::json summary, exported;
};

/// `extraArgs` go after the workload path (e.g. {"--target", "embedded"}).
inline WorkloadRun runWorkloadDocument(const TempDir& dir, const nlohmann::json& w,
                                       const std::vector<std::string>& extraArgs = {}) {
  const std::string wl = dir.file("w.json");
  std::ofstream(wl) << w.dump(2);
  WorkloadRun r;
  std::vector<std::string> args = {PLUMBLINE_BIN, "run", wl};
  args.insert(args.end(), extraArgs.begin(), extraArgs.end());
  for (const std::string& a : {std::string("--db"), dir.file("runs.db"), std::string("--summary-json"),
                               dir.file("summary.json"), std::string("--workers"), std::string("1")})
    args.push_back(a);
  ChildProcess p(args, dir.file("out.txt"));
  r.exitCode = p.wait(120'000);
  r.output = p.output();
  std::ifstream in(dir.file("summary.json"));
  if (in) r.summary = nlohmann::json::parse(in);
  ChildProcess e({PLUMBLINE_BIN, "runs", "--db", dir.file("runs.db"), "export", "1", "--format", "json"},
                 dir.file("export.json"));
  e.wait(30'000);
  r.exported = nlohmann::json::parse(e.output());
  return r;
}

/// What the mock streams for `tokens` completion tokens.
inline std::string mockReplyText(int64_t tokens) {
  std::string s;
  for (int64_t i = 0; i < tokens; ++i) s += "tok ";
  return s;
}

}  // namespace plumbline::test
