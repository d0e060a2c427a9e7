// Every file in tests/data/bad_workloads/ must be rejected with the path expected.json names.
#include <filesystem>
#include <fstream>
#include <set>

#include <gtest/gtest.h>

#include "core/workload/workload_loader.h"

using namespace plumbline::workload;
namespace fs = std::filesystem;

namespace {
const fs::path kCorpus = fs::path(PLUMBLINE_TEST_DATA) / "bad_workloads";

nlohmann::json expectations() {
  std::ifstream in(kCorpus / "expected.json");
  return nlohmann::json::parse(in);
}
}  // namespace

TEST(WorkloadBadCorpus, EveryFileFailsWithItsPath) {
  const auto expected = expectations();
  ASSERT_GE(expected.size(), 22u);
  for (const auto& [name, path] : expected.items()) {
    SCOPED_TRACE(name);
    try {
      loadWorkloadFile((kCorpus / name).string());
      ADD_FAILURE() << name << " was accepted";
    } catch (const WorkloadError& error) {
      EXPECT_NE(error.path().find(path.get<std::string>()), std::string::npos)
          << "path '" << error.path() << "', reason '" << error.reason() << "'";
      EXPECT_FALSE(error.reason().empty());
      EXPECT_EQ(std::string(error.what()).find('\n'), std::string::npos);
    }
  }
}

TEST(WorkloadBadCorpus, EveryFileIsListed) {
  const auto expected = expectations();
  for (const auto& entry : fs::directory_iterator(kCorpus)) {
    const std::string name = entry.path().filename().string();
    if (name == "expected.json") continue;
    EXPECT_TRUE(expected.contains(name)) << name << " not in expected.json";
  }
}
