// requests.prompt in workload files: tokenizer and ShareGPT settings, their errors, what the
// planner and the worker's prompt writer make of them, and the exactness of composed prompts.
#include <fstream>
#include <iostream>

#include <gtest/gtest.h>

#include "core/engine/prompt_writer.h"
#include "core/engine/request_body.h"
#include "core/workload/plan_preview.h"
#include "core/workload/planner.h"
#include "core/workload/prompt_materials.h"
#include "core/workload/workload_loader.h"
#include "tests/unit/workload_test_support.h"

using namespace plumbline::workload;
using plumbline::engine::PromptWriter;
using plumbline::engine::RequestBodyBuilder;
using plumbline::engine::WorkerConfig;
using plumbline::testing::validDocument;

namespace {

const std::string kSource = PLUMBLINE_SOURCE_DIR;
const std::string kQwen3File = kSource + "/tests/tokenizer/qwen3/tokenizer.json";

WorkloadError promptErrorOf(const nlohmann::json& document, const std::string& baseDir = kSource) {
  try {
    parseWorkload(document, baseDir);
  } catch (const WorkloadError& e) {
    return e;
  }
  return WorkloadError("(none)", "no error");
}

nlohmann::json sharegptDocument() {
  auto d = validDocument();
  d["requests"].erase("input_tokens");
  d["requests"].erase("output_tokens");
  d["requests"]["prompt"] = {{"source", "sharegpt"},
                             {"file", "workloads/datasets/sample_chat.json"},
                             {"tokenizer", "tests/tokenizer/qwen3/tokenizer.json"},
                             {"max_input_tokens", 64},
                             {"max_output_tokens", 128}};
  return d;
}

}  // namespace

TEST(PromptWorkload, WithoutATokenizerTheBasisIsTheApproximation) {
  const auto spec = parseWorkload(validDocument());
  EXPECT_EQ(spec.requests.prompt.source, "synthetic");
  EXPECT_EQ(spec.requests.prompt.basis(), "approximate: 1 word per token");
  ASSERT_TRUE(spec.requests.prompt.materials);
  EXPECT_FALSE(spec.requests.prompt.materials->tokenizer);
}

TEST(PromptWorkload, TokenizerPathIsRelativeToTheWorkloadFileAndNamedInTheBasis) {
  auto d = validDocument();
  d["requests"]["prompt"] = {{"source", "synthetic"}, {"tokenizer", "tests/tokenizer/qwen3/tokenizer.json"}};
  const auto spec = parseWorkload(d, kSource);
  EXPECT_EQ(spec.requests.prompt.resolvedTokenizer, kQwen3File);
  EXPECT_EQ(spec.requests.prompt.basis(), "tokenizer: tests/tokenizer/qwen3/tokenizer.json");
  ASSERT_TRUE(spec.requests.prompt.materials->synthetic);
  // The same through a file: resolved against the file's directory.
  const std::string path = ::testing::TempDir() + "/prompt_workload_tok.json";
  d["requests"]["prompt"]["tokenizer"] = kQwen3File;
  std::ofstream(path) << d.dump();
  EXPECT_EQ(loadWorkloadFile(path).requests.prompt.resolvedTokenizer, kQwen3File);
  EXPECT_NE(formatPreview(buildPreview(spec), spec).find("token counts: tokenizer: tests/tokenizer/qwen3/tokenizer.json"),
            std::string::npos);
}

TEST(PromptWorkload, PromptErrorsNameTheKey) {
  auto d = validDocument();
  d["requests"]["prompt"] = {{"source", "synthetic"}, {"tokenizer", "nope/tokenizer.json"}};
  auto e = promptErrorOf(d);
  EXPECT_EQ(e.path(), "requests.prompt.tokenizer");
  EXPECT_NE(e.reason().find("nope/tokenizer.json"), std::string::npos) << e.what();
  d["requests"]["prompt"] = {{"source", "synthetic"}, {"tokenizer", ""}};
  EXPECT_EQ(promptErrorOf(d).path(), "requests.prompt.tokenizer");
  d["requests"]["prompt"] = {{"source", "synthetic"}, {"file", "x.json"}};
  EXPECT_EQ(promptErrorOf(d).path(), "requests.prompt.file");  // only for sharegpt
  d["requests"]["prompt"] = {{"source", "books"}};
  EXPECT_EQ(promptErrorOf(d).path(), "requests.prompt.source");

  auto s = sharegptDocument();
  s["requests"]["prompt"]["truncation"] = "drop";
  e = promptErrorOf(s);
  EXPECT_EQ(e.path(), "requests.prompt.truncation");
  EXPECT_NE(e.reason().find("keep_start"), std::string::npos);
  s = sharegptDocument();
  s["requests"]["prompt"]["min_input_tokens"] = 100;
  EXPECT_EQ(promptErrorOf(s).path(), "requests.prompt.min_input_tokens");
  s = sharegptDocument();
  s["requests"]["prompt"]["max_output_tokens"] = 0;
  EXPECT_EQ(promptErrorOf(s).path(), "requests.prompt.max_output_tokens");
  s = sharegptDocument();
  s["requests"]["prompt"].erase("file");
  EXPECT_EQ(promptErrorOf(s).path(), "requests.prompt.file");
  s = sharegptDocument();
  s["requests"]["input_tokens"] = {{"dist", "fixed"}, {"value", 5}};
  EXPECT_EQ(promptErrorOf(s).path(), "requests.input_tokens");
  s = sharegptDocument();
  s["requests"]["prompt"]["file"] = "missing.json";
  EXPECT_NE(std::string(promptErrorOf(s).what()).find("missing.json: cannot read"), std::string::npos);
}

TEST(PromptWorkload, ShareGptLengthsComeFromTheDatasetDeterministically) {
  const auto spec = parseWorkload(sharegptDocument(), kSource);
  const auto* prompts = shareGptPrompts(spec);
  ASSERT_NE(prompts, nullptr);
  Planner a(spec), b(spec);
  SessionPlan x, y;
  size_t sessions = 0;
  while (a.next(x)) {
    ASSERT_TRUE(b.next(y));
    EXPECT_EQ(x.inputTokens, y.inputTokens);
    EXPECT_EQ(x.outputTokens, y.outputTokens);
    const auto& p = prompts->pick(spec.load.seed, x.id);
    EXPECT_EQ(x.inputTokens, p.systemTokens + p.inputTokens);  // the system turn is sent too
    EXPECT_EQ(x.outputTokens, p.outputTokens);
    EXPECT_LE(p.inputTokens, 64u);
    EXPECT_LE(x.outputTokens, 128u);
    ++sessions;
  }
  EXPECT_EQ(sessions, 100u);
  const std::string preview = formatPreview(buildPreview(spec), spec);
  EXPECT_NE(
      preview.find(
          "sharegpt workloads/datasets/sample_chat.json (48 of 50 entries usable, 7 of them led by "
          "a system turn sent with the prompt,"),
      std::string::npos)
      << preview;
  const auto json = previewJson(buildPreview(spec), spec);
  EXPECT_EQ(json.at("prompt_dataset").at("with_system_turn"), 7u);
  EXPECT_EQ(json.at("prompt_dataset").at("usable"), 48u);
}

TEST(PromptWorkload, AShareGptConversationsSystemTurnLeadsItsPromptOnBothApis) {
  const auto spec = parseWorkload(sharegptDocument(), kSource);
  const auto* prompts = shareGptPrompts(spec);
  auto tokenizer = plumbline::tokenizer::Tokenizer::fromFile(kQwen3File);
  for (const Api api : {Api::Chat, Api::Completions}) {
    WorkerConfig c;
    c.api = api;
    c.model = "m";
    c.prompt = spec.requests.prompt;
    c.promptSeed = spec.load.seed;
    RequestBodyBuilder bodies(c);
    Planner planner(spec);
    SessionPlan s;
    size_t withSystem = 0;
    while (planner.next(s)) {
      const ShareGptPrompt& p = prompts->pick(spec.load.seed, s.id);
      std::string body;
      bodies.build(s, body);
      const auto j = nlohmann::json::parse(body);
      const nlohmann::json user = {{"role", "user"}, {"content", p.text}};
      if (p.system.empty()) {
        if (api == Api::Chat) {
          EXPECT_EQ(j.at("messages"), nlohmann::json::array({user}));
        } else {
          EXPECT_EQ(j.at("prompt"), p.text);
        }
        continue;
      }
      ++withSystem;
      EXPECT_EQ(s.inputTokens, tokenizer.countTokens(p.system) + tokenizer.countTokens(p.text));
      if (api == Api::Chat) {
        const nlohmann::json system = {{"role", "system"}, {"content", p.system}};
        EXPECT_EQ(j.at("messages"), nlohmann::json::array({system, user}));
      } else {
        EXPECT_EQ(j.at("prompt"),
                  p.system + "\n\n" + p.text);  // as buildConversation joins messages
      }
    }
    EXPECT_GT(withSystem, 0u);
  }
}

TEST(PromptWorkload, WriterSendsTheSampledShareGptTextEscaped) {
  const auto spec = parseWorkload(sharegptDocument(), kSource);
  PromptWriter writer(spec.requests.prompt, spec.load.seed);
  const auto* prompts = shareGptPrompts(spec);
  for (uint64_t id = 0; id < 20; ++id) {
    SessionPlan s;
    s.id = id;
    std::string out = "\"";
    writer.append(s, out);
    out += "\"";
    EXPECT_EQ(nlohmann::json::parse(out).get<std::string>(), prompts->pick(spec.load.seed, id).text);
  }
}

TEST(PromptWorkload, WriterPromptsAreExactUnderTheTokenizerAndDifferPerSession) {
  auto d = validDocument();
  d["requests"]["prompt"] = {{"source", "synthetic"}, {"tokenizer", kQwen3File}};
  const auto spec = parseWorkload(d);
  PromptWriter writer(spec.requests.prompt, 7);
  auto tokenizer = plumbline::tokenizer::Tokenizer::fromFile(kQwen3File);
  std::string first;
  for (uint32_t tokens : {1u, 2u, 17u, 100u, 513u, 2048u}) {
    for (uint64_t id = 0; id < 5; ++id) {
      SessionPlan s;
      s.id = id;
      s.inputTokens = tokens;
      std::string out;
      writer.append(s, out);
      EXPECT_EQ(tokenizer.countTokens(out), tokens) << out;
      if (tokens == 100 && id == 0) first = out;
      if (tokens == 100 && id == 1) {
        EXPECT_NE(out.substr(0, 40), first.substr(0, 40));  // no shared prefix
      }
    }
  }
}

// The run path composes prompts without counting them: this is the evidence that composing
// is exact under qwen3, over lengths 1..512 (all) and a spread to 8192, for three seeds.
TEST(PromptWorkload, ComposedSyntheticPromptsAreExactUnderQwen3) {
  auto tokenizer = plumbline::tokenizer::Tokenizer::fromFile(kQwen3File);
  plumbline::tokenizer::SyntheticPromptBuilder builder(tokenizer);
  std::vector<size_t> lengths;
  for (size_t n = 1; n <= 512; ++n) lengths.push_back(n);
  for (size_t n = 571; n <= 8192; n += 61) lengths.push_back(n);
  lengths.push_back(8192);
  size_t exact = 0, total = 0;
  std::string text;
  for (const size_t n : lengths) {
    for (const uint64_t seed : {1ULL, 99ULL, 0xdeadbeefULL}) {
      text.clear();
      builder.compose(n, seed, text);
      ++total;
      if (tokenizer.countTokens(text) == n) {
        ++exact;
      } else {
        ADD_FAILURE() << "asked " << n << " seed " << seed << ", counted " << tokenizer.countTokens(text);
      }
    }
  }
  std::cout << "[synthetic-compose] " << exact << " of " << total << " composed prompts exact under qwen3 ("
            << lengths.size() << " lengths 1..8192 x 3 seeds)\n";
  EXPECT_EQ(exact, total);
}
