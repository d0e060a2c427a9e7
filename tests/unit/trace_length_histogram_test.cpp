// A replay's lengths when they are the trace's: histograms of exactly the rows it sends, with
// the figures `plumbline plan` prints for it.
#include <string>

#include <gtest/gtest.h>

#include "core/workload/length_histogram.h"
#include "core/workload/plan_preview.h"
#include "core/workload/workload_loader.h"
#include "temp_text_file.h"
#include "workload_test_support.h"

using namespace plumbline::workload;
using json = nlohmann::json;

namespace {

json traceLengthsDocument(const json& trace) {
  auto document = plumbline::testing::validDocument();
  document["load"] = {{"arrival", "trace"}, {"trace", trace}};
  document["requests"].erase("input_tokens");
  document["requests"].erase("output_tokens");
  return document;
}

uint64_t binnedRows(const LengthHistogram& h) {
  uint64_t n = 0;
  for (const auto& bin : h.bins) n += bin.count;
  return n;
}

}  // namespace

TEST(TraceLengthHistogram, HoldsTheWindowsRowsAsTheyAreSent) {
  const plumbline::testing::TempTextFile csv(
      "TIMESTAMP,ContextTokens,GeneratedTokens\n"
      "2023-11-17 09:00:00.5000000,374,44\n"
      "2023-11-17 09:00:01.5000000,0,0\n"
      "2023-11-17 09:00:02.5000000,10,5\n"
      "2023-11-17 09:00:03.5000000,12,0\n"
      "2023-11-17 09:00:04.5000000,900,9\n");
  // The window [1 s, 4 s) replays lines 3-5: inputs 0 (sent as 1), 10, 12; outputs 0, 5, 0.
  const auto spec = parseWorkload(traceLengthsDocument(
      {{"file", csv.path}, {"format", "azure_csv"}, {"start_offset_s", 1}, {"window_s", 3}}));
  const auto h = traceLengthHistograms(spec);
  ASSERT_TRUE(h);
  EXPECT_EQ(h->input.draws, 3u);
  EXPECT_EQ(binnedRows(h->input), 3u);
  EXPECT_EQ(h->input.min, 1u);
  EXPECT_EQ(h->input.p50, 10u);
  EXPECT_EQ(h->input.max, 12u);
  EXPECT_DOUBLE_EQ(h->input.mean, 23.0 / 3);
  EXPECT_EQ(h->output.draws, 3u);
  EXPECT_EQ(h->output.min, 1u);
  EXPECT_EQ(h->output.p50, 1u);
  EXPECT_EQ(h->output.max, 5u);
  EXPECT_DOUBLE_EQ(h->output.mean, 7.0 / 3);
}

TEST(TraceLengthHistogram, AgreesWithThePlanOfEveryCatalogReplay) {
  for (const char* name :
       {"mooncake_conversation_replay.json", "azure_conv_replay.json", "azure_code_replay.json"}) {
    SCOPED_TRACE(name);
    const auto spec = loadWorkloadFile(std::string(PLUMBLINE_SOURCE_DIR) + "/workloads/" + name);
    const auto h = traceLengthHistograms(spec);
    ASSERT_TRUE(h);
    const PlanPreview plan = buildPreview(spec);
    const std::pair<const LengthHistogram&, const LengthSummary&> sides[] = {
        {h->input, plan.input}, {h->output, plan.output}};
    for (const auto& [histogram, summary] : sides) {
      EXPECT_EQ(histogram.draws, plan.requests);
      EXPECT_EQ(binnedRows(histogram), plan.requests);
      EXPECT_EQ(histogram.min, summary.min);
      EXPECT_EQ(histogram.p50, summary.p50);
      EXPECT_EQ(histogram.p90, summary.p90);
      EXPECT_EQ(histogram.p99, summary.p99);
      EXPECT_EQ(histogram.max, summary.max);
      EXPECT_DOUBLE_EQ(histogram.mean, summary.mean);
    }
  }
}

TEST(TraceLengthHistogram, NoneWhenTheLengthsAreNotTheTraces) {
  const plumbline::testing::TempTextFile csv(
      "TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46.0000000,374,44\n");
  auto document =
      traceLengthsDocument({{"file", csv.path}, {"format", "azure_csv"}, {"lengths", "workload"}});
  document["requests"] = plumbline::testing::validDocument()["requests"];
  EXPECT_FALSE(traceLengthHistograms(parseWorkload(document)));
  EXPECT_FALSE(traceLengthHistograms(parseWorkload(plumbline::testing::validDocument())));
}
