// Every workload shipped in workloads/ must validate and plan.
#include <filesystem>

#include <gtest/gtest.h>

#include "core/workload/plan_preview.h"
#include "core/workload/workload_loader.h"

using namespace plumbline::workload;
namespace fs = std::filesystem;

TEST(WorkloadCatalog, EveryShippedWorkloadValidates) {
  int count = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(PLUMBLINE_SOURCE_DIR) / "workloads")) {
    if (entry.path().extension() != ".json") continue;
    SCOPED_TRACE(entry.path().string());
    ++count;
    try {
      const auto spec = loadWorkloadFile(entry.path().string());
      EXPECT_FALSE(spec.name.empty());
      EXPECT_GT(buildPreview(spec).sessions, 0u);
    } catch (const WorkloadError& error) {
      ADD_FAILURE() << error.what();
    }
  }
  EXPECT_GE(count, 3);
}

TEST(WorkloadCatalog, QuickstartIsAMinuteOfChat) {
  const auto spec =
      loadWorkloadFile(std::string(PLUMBLINE_SOURCE_DIR) + "/workloads/quickstart.json");
  EXPECT_EQ(spec.name, "quickstart: a minute of chat");
  EXPECT_DOUBLE_EQ(spec.totalDurationS(), 60);
  EXPECT_EQ(spec.load.arrival, Arrival::Poisson);
  EXPECT_EQ(spec.load.seed, 7u);
  EXPECT_EQ(spec.target.url, "embedded");
  EXPECT_DOUBLE_EQ(*spec.target.mockTtftMs, 50);
}
