// SSE chunk parse rate: the worker's per-chunk work (SSE framing + simdjson decode of the
// chunk) on recorded OpenAI-style streams, one chunk per feed as a paced stream delivers it.
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/engine/chunk_decoder.h"
#include "core/engine/sse_parser.h"

namespace {

std::string chatChunk(const std::string& content) {
  return "data: {\"id\":\"chatcmpl-9x\",\"object\":\"chat.completion.chunk\",\"created\":1718000000,"
         "\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" +
         content + "\"},\"logprobs\":null,\"finish_reason\":null}]}\n\n";
}

void BM_ParseChunkFedOneByOne(benchmark::State& state) {
  std::vector<std::string> chunks;
  for (const char* w : {" the", " quick", " brown", " fox", " jumps", " over", " a", " lazy", " dog", "."})
    chunks.push_back(chatChunk(w));
  plumbline::engine::SseParser parser;
  plumbline::engine::ChunkDecoder decoder;
  int64_t tokens = 0;
  size_t i = 0;
  for (auto _ : state) {
    const std::string& c = chunks[i++ % chunks.size()];
    parser.feed(c.data(), c.size(), [&](const std::string& data) {
      if (decoder.decodeChunk(data).hasContent) ++tokens;
    });
  }
  benchmark::DoNotOptimize(tokens);
  state.SetItemsProcessed(state.iterations());
  state.counters["chunks/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ParseChunkFedOneByOne);

void BM_SseFramingOnly(benchmark::State& state) {
  const std::string c = chatChunk(" token");
  plumbline::engine::SseParser parser;
  size_t bytes = 0;
  for (auto _ : state) parser.feed(c.data(), c.size(), [&](const std::string& data) { bytes += data.size(); });
  benchmark::DoNotOptimize(bytes);
  state.counters["chunks/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SseFramingOnly);

void BM_ParseWholeRecordedStream(benchmark::State& state) {
  std::ifstream in(std::string(PLUMBLINE_SOURCE_DIR) + "/tests/data/sse/openai_chat.sse", std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string stream = ss.str();
  plumbline::engine::SseParser parser;
  plumbline::engine::ChunkDecoder decoder;
  size_t events = 0;
  for (auto _ : state) {
    parser.reset();
    parser.feed(stream.data(), stream.size(), [&](const std::string& data) {
      decoder.decodeChunk(data);
      ++events;
    });
  }
  state.counters["chunks/s"] = benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ParseWholeRecordedStream);

}  // namespace
