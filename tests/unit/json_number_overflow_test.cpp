// A number too large for a double (e.g. 1e999) is a JSON error naming the file, not an
// escaping nlohmann out_of_range. Found by sharegpt_fuzz (tests/data/fuzz_regressions/).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "core/tokenizer/tokenizer.h"
#include "core/tokenizer/tokenizer_error.h"
#include "core/workload/sharegpt_dataset.h"
#include "core/workload/workload_error.h"
#include "core/workload/workload_loader.h"
#include "temp_text_file.h"

using namespace plumbline;

namespace {

std::string readRegression(const std::string& name) {
  std::ifstream in(std::string(PLUMBLINE_TEST_DATA) + "/fuzz_regressions/" + name, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST(JsonNumberOverflow, ShareGptFuzzRegressionIsAWorkloadErrorNamingTheFile) {
  const std::string bytes = readRegression("sharegpt_number_overflow.json");
  ASSERT_FALSE(bytes.empty());
  try {
    workload::ShareGptDataset::fromText(bytes, "chat.json");
    FAIL() << "accepted";
  } catch (const workload::WorkloadError& e) {
    EXPECT_EQ(e.path(), "chat.json");
    EXPECT_NE(e.reason().find("invalid JSON: number overflow"), std::string::npos) << e.reason();
  }
}

TEST(JsonNumberOverflow, WorkloadFileIsAWorkloadErrorNamingTheFile) {
  const plumbline::testing::TempTextFile file(
      R"({"plumbline": 1, "name": "x", "load": {"seed": 1e999}})");
  try {
    workload::loadWorkloadFile(file.path);
    FAIL() << "accepted";
  } catch (const workload::WorkloadError& e) {
    EXPECT_EQ(e.path(), file.path);
    EXPECT_NE(e.reason().find("invalid JSON: number overflow"), std::string::npos) << e.reason();
  }
}

TEST(JsonNumberOverflow, TokenizerFileIsATokenizerErrorNamingTheFile) {
  const plumbline::testing::TempTextFile file(R"({"model": {"type": "BPE", "dropout": 1e999}})");
  try {
    tokenizer::Tokenizer::fromFile(file.path);
    FAIL() << "accepted";
  } catch (const tokenizer::TokenizerError& e) {
    EXPECT_NE(std::string(e.what()).find(file.path), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("number overflow"), std::string::npos) << e.what();
  }
}
