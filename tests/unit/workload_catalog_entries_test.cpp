// The catalog entries issue 3 asks for: present, described, and previewed usefully.
#include <filesystem>

#include <gtest/gtest.h>

#include "core/workload/plan_preview.h"
#include "core/workload/workload_loader.h"

using namespace plumbline::workload;
namespace fs = std::filesystem;

namespace {
const fs::path kCatalog = fs::path(PLUMBLINE_SOURCE_DIR) / "workloads";
}

TEST(WorkloadCatalogEntries, EveryWorkloadHasAOneLineDescriptionAndAPreview) {
  for (const auto& entry : fs::directory_iterator(kCatalog)) {
    if (entry.path().extension() != ".json") continue;
    SCOPED_TRACE(entry.path().filename().string());
    const auto spec = loadWorkloadFile(entry.path().string());
    EXPECT_FALSE(spec.description.empty());
    EXPECT_EQ(spec.description.find('\n'), std::string::npos);
    const std::string text = formatPreview(buildPreview(spec), spec);
    EXPECT_NE(text.find("arrivals  mean"), std::string::npos) << text;
  }
}

TEST(WorkloadCatalogEntries, TheTraceAndArrivalEntriesAreThere) {
  struct Entry {
    const char* file;
    Arrival arrival;
  };
  for (const Entry& e : {Entry{"chat.json", Arrival::Poisson},
                         Entry{"long_context_rag.json", Arrival::Poisson},
                         Entry{"rate_sweep.json", Arrival::Poisson},
                         Entry{"bursty_chat.json", Arrival::Gamma},
                         Entry{"azure_conv_replay.json", Arrival::Trace},
                         Entry{"azure_code_replay.json", Arrival::Trace},
                         Entry{"mooncake_conversation_replay.json", Arrival::Trace}}) {
    SCOPED_TRACE(e.file);
    const auto spec = loadWorkloadFile((kCatalog / e.file).string());
    EXPECT_EQ(spec.load.arrival, e.arrival);
  }
  const auto sweep = loadWorkloadFile((kCatalog / "rate_sweep.json").string());
  ASSERT_GE(sweep.load.stages.size(), 4u);
  for (size_t i = 1; i < sweep.load.stages.size(); ++i)
    EXPECT_GT(sweep.load.stages[i].startRate, sweep.load.stages[i - 1].startRate);
  const auto bursty = loadWorkloadFile((kCatalog / "bursty_chat.json").string());
  const auto preview = buildPreview(bursty);
  // A sanity check only (cv 3 has a heavy tail); the KS tests in planner_gamma_test are exact.
  EXPECT_NEAR(preview.arrivals.gapCv, bursty.load.cv, 0.25 * bursty.load.cv);
}
