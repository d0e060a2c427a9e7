// The studio validates a workload after every pause in editing: a workload's tokenizer and
// dataset are loaded once per version of their files and of requests.prompt, and again when
// either changes.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "core/workload/prompt_materials_cache.h"
#include "core/workload/workload_error.h"

using namespace plumbline::workload;
namespace fs = std::filesystem;

namespace {

void writeDataset(const fs::path& file, int conversations) {
  std::ofstream out(file);
  out << "[";
  for (int i = 0; i < conversations; ++i)
    out << (i ? "," : "") << R"({"id":"c)" << i
        << R"(","conversations":[{"from":"human","value":"one two three four"},)"
        << R"({"from":"gpt","value":"five six"}]})";
  out << "]";
}

PromptSpec datasetSpec(const fs::path& file) {
  PromptSpec spec;
  spec.source = "sharegpt";
  ShareGptSpec g;
  g.file = file.filename().string();
  g.resolvedFile = file.string();
  spec.sharegpt = g;
  return spec;
}

}  // namespace

TEST(PromptMaterialsCache, TheSameFilesAndSettingsShareOneLoadAndAChangeLoadsAgain) {
  const fs::path dir = fs::path(::testing::TempDir()) / "plumbline_materials_cache";
  fs::create_directories(dir);
  const fs::path file = dir / "chat.json";
  writeDataset(file, 3);
  const PromptSpec spec = datasetSpec(file);
  const auto first = sharedPromptMaterials(spec, "requests.prompt");
  ASSERT_TRUE(first->sharegpt);
  EXPECT_EQ(first->sharegpt->prompts().size(), 3u);
  EXPECT_EQ(sharedPromptMaterials(spec, "requests.prompt"), first);  // not loaded again

  PromptSpec shorter = spec;
  shorter.sharegpt->maxInputTokens = 2;  // another setting: loaded again, with it
  const auto cut = sharedPromptMaterials(shorter, "requests.prompt");
  EXPECT_NE(cut, first);

  writeDataset(file, 5);  // the file edited: read again
  fs::last_write_time(file, fs::last_write_time(file) + std::chrono::seconds(1));
  const auto edited = sharedPromptMaterials(shorter, "requests.prompt");
  EXPECT_NE(edited, cut);
  EXPECT_EQ(edited->sharegpt->prompts().size(), 5u);

  fs::remove(file);  // gone: the error names the file, and nothing stale comes back
  EXPECT_THROW(sharedPromptMaterials(shorter, "requests.prompt"), WorkloadError);
}
