// ShareGPT files: what is read, and what is rejected with the file, entry index and field.
#include <gtest/gtest.h>

#include "core/workload/sharegpt_dataset.h"
#include "core/workload/workload_error.h"

using namespace plumbline::workload;

namespace {

std::string datasetErrorOf(const std::string& text) {
  try {
    ShareGptDataset::fromText(text, "chat.json");
  } catch (const WorkloadError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST(ShareGptDataset, ReadsConversationsInFileOrderAndIgnoresOtherKeys) {
  const auto d = ShareGptDataset::fromText(R"([
    {"id": "a", "model": "x", "conversations": [{"from": "human", "value": "hi"}, {"from": "gpt", "value": "hello", "markdown": null}]},
    {"id": 7, "conversations": []}])", "chat.json");
  ASSERT_EQ(d.conversations().size(), 2u);
  EXPECT_EQ(d.conversations()[0].id, "a");
  ASSERT_EQ(d.conversations()[0].turns.size(), 2u);
  EXPECT_EQ(d.conversations()[0].turns[1].from, "gpt");
  EXPECT_EQ(d.conversations()[0].turns[1].value, "hello");
  EXPECT_EQ(d.conversations()[1].id, "7");
  EXPECT_TRUE(d.conversations()[1].turns.empty());
}

TEST(ShareGptDataset, MalformedFilesNameFileEntryAndField) {
  EXPECT_EQ(datasetErrorOf(R"({"id": "a"})"), "chat.json: expected an array of conversations, got object");
  EXPECT_EQ(datasetErrorOf(R"([{"id": "a", "conversations": []}, 3])"),
            "chat.json: [1]: expected an object {\"id\", \"conversations\"}, got integer 3");
  EXPECT_EQ(datasetErrorOf(R"([{"conversations": []}])"), "chat.json: [0].id: missing required key");
  EXPECT_EQ(datasetErrorOf(R"([{"id": 1.5, "conversations": []}])"),
            "chat.json: [0].id: expected a string or an integer, got number 1.5");
  EXPECT_EQ(datasetErrorOf(R"([{"id": "a"}])"), "chat.json: [0].conversations: missing required key");
  EXPECT_EQ(datasetErrorOf(R"([{"id": "a", "conversations": {}}])"),
            "chat.json: [0].conversations: expected an array, got object");
  EXPECT_EQ(datasetErrorOf(R"([{"id": "a", "conversations": [{"from": "human", "value": "x"}, {"from": 2, "value": "y"}]}])"),
            "chat.json: [0].conversations[1].from: expected a string, got integer 2");
  EXPECT_EQ(datasetErrorOf(R"([{"id": "a", "conversations": [{"from": "human"}]}])"),
            "chat.json: [0].conversations[0].value: missing required key");
  EXPECT_EQ(datasetErrorOf(R"([{"id": "a", "conversations": ["hi"]}])"),
            "chat.json: [0].conversations[0]: expected an object {\"from\", \"value\"}, got string");
  EXPECT_EQ(datasetErrorOf("[{\"id\": \"a\",\n  \"conv"),
            "chat.json: invalid JSON: line 2, column 8: syntax error while parsing object key - "
            "invalid string: missing closing quote; last read: '\"conv'; expected string literal");
  EXPECT_NE(datasetErrorOf("").find("chat.json: invalid JSON"), std::string::npos);
}

TEST(ShareGptDataset, MissingFileIsAnErrorNamingIt) {
  try {
    ShareGptDataset::fromFile("/nonexistent/chat.json");
    FAIL();
  } catch (const WorkloadError& e) {
    EXPECT_EQ(e.path(), "/nonexistent/chat.json");
    EXPECT_NE(e.reason().find("cannot read"), std::string::npos);
  }
}

TEST(ShareGptDataset, TheShippedSampleIsValidAndMultiTurn) {
  const auto d = ShareGptDataset::fromFile(std::string(PLUMBLINE_SOURCE_DIR) + "/workloads/datasets/sample_chat.json");
  EXPECT_EQ(d.conversations().size(), 50u);
  size_t multiTurn = 0;
  for (const auto& c : d.conversations()) multiTurn += c.turns.size() > 3 ? 1 : 0;
  EXPECT_GT(multiTurn, 5u);
}
