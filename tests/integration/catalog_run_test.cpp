// Every workload in workloads/ runs against the embedded target: two seconds of it
// (--duration 2), against the mock's instant preset so that the test stays cheap.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/integration/child_process.h"

using nlohmann::json;
using plumbline::test::ChildProcess;
using plumbline::test::TempDir;
namespace fs = std::filesystem;

namespace {

const fs::path kCatalog = fs::path(PLUMBLINE_SOURCE_DIR) / "workloads";

/// The workload with the instant mock, and its trace (if any) found from the copy's place.
json forTest(const fs::path& file) {
  json document = json::parse(std::ifstream(file));
  document["target"]["url"] = "embedded";
  document["target"]["mock"] = {{"preset", "instant"}};
  auto& load = document["load"];
  if (load.contains("trace")) {
    const fs::path trace = load["trace"]["file"].get<std::string>();
    if (trace.is_relative()) load["trace"]["file"] = (kCatalog / trace).string();
  }
  if (!document.contains("requests") || !document["requests"].contains("prompt")) return document;
  auto& prompt = document["requests"]["prompt"];
  for (const char* key : {"tokenizer", "file"}) {
    if (!prompt.is_object() || !prompt.contains(key)) continue;
    const fs::path file = prompt[key].get<std::string>();
    if (file.is_relative()) prompt[key] = (kCatalog / file).lexically_normal().string();
  }
  return document;
}

}  // namespace

/// Every workload of the catalog, by file name.
std::vector<std::string> catalogWorkloads() {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(kCatalog))
    if (entry.path().extension() == ".json") names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// One test per workload, so that a sanitized build can run them beside other tests (one test of
// every workload in turn took 91 s of the ASan suite, alone).
class CatalogRun : public ::testing::TestWithParam<std::string> {};

TEST_P(CatalogRun, RunsTwoSecondsAgainstTheEmbeddedTarget) {
  TempDir dir;
  const std::string path = dir.file("w.json");
  std::ofstream(path) << forTest(kCatalog / GetParam()).dump(2);
  ChildProcess run({PLUMBLINE_BIN, "run", path, "--duration", "2", "--workers", "1", "--db",
                    dir.file("runs.db"), "--summary-json", dir.file("s.json"), "--quiet"},
                   dir.file("out.txt"));
  const int code = run.wait(90'000);
  // 0 kept up, 3 harness-limited (a host pause on this shared VM can cause it): both valid.
  EXPECT_TRUE(code == 0 || code == 3) << "exit " << code << "\n" << run.output();
  std::ifstream in(dir.file("s.json"));
  ASSERT_TRUE(in) << run.output();
  json summary = json::parse(in);
  EXPECT_GT(summary["planned"].get<int64_t>(), 0) << summary.dump(2);
  EXPECT_EQ(summary["completed"], summary["sent"]) << summary.dump(2);
}

INSTANTIATE_TEST_SUITE_P(Workloads, CatalogRun, ::testing::ValuesIn(catalogWorkloads()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return fs::path(info.param).stem().string();  // letters, digits, _
                         });

TEST(CatalogRunList, TheCatalogHoldsTheShippedWorkloads) {
  EXPECT_GE(catalogWorkloads().size(), 10u);
}
