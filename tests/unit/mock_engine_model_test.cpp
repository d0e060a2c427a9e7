// The simulated serving engine, driven step by step on a fake clock (no real time).
#include <gtest/gtest.h>

#include <map>

#include "core/mock/engine_model.h"

namespace {

using plumbline::mock::EngineModel;
using plumbline::mock::EngineParams;
using plumbline::mock::SequenceSpec;

/// What happened to one request, in fake-clock nanoseconds.
struct Trace {
  int64_t firstTokenNs = -1;
  int64_t finishNs = -1;
  int64_t tokens = 0;
  int64_t emissions = 0;
};

/// Steps a model on a fake clock and records every emission.
struct Sim {
  explicit Sim(const EngineParams& p) : model(p) {}
  EngineModel model;
  int64_t now = 0;
  std::map<uint64_t, Trace> traces;

  void stepOnce() {
    const auto outcome = model.step();
    now += outcome.durationNs;
    for (const auto& e : outcome.emissions) {
      Trace& t = traces[e.id];
      if (t.firstTokenNs < 0) t.firstTokenNs = now;
      t.tokens += e.tokens;
      ++t.emissions;
      if (e.finished) t.finishNs = now;
    }
  }
  void runUntilIdle() {
    for (int guard = 0; !model.idle() && guard < 1'000'000; ++guard) stepOnce();
  }
};

EngineParams simple() {
  EngineParams p;
  p.maxRunningSeqs = 256;
  p.kvCapacityTokens = 1'000'000;
  p.blockTokens = 16;
  p.maxBatchedTokens = 2048;
  p.stepBaseUs = 6000;
  p.decodePerSeqUs = 40;
  p.contextPerTokenUs = 0;
  p.prefillPerTokenUs = 40;
  p.specTokens = 0;
  return p;
}

SequenceSpec spec(uint64_t id, int64_t prompt, int64_t output, double temperature = 0.0) {
  return SequenceSpec{id, prompt, {}, output, temperature};
}

std::vector<uint64_t> hashes(uint64_t base, int blocks) {
  std::vector<uint64_t> out;
  for (int i = 0; i < blocks; ++i) out.push_back(base + static_cast<uint64_t>(i) + 1);
  return out;
}

TEST(EngineModel, OneRequestPrefillsThenDecodesAtTheModelledCost) {
  Sim sim(simple());
  sim.model.submit(spec(1, 100, 10));
  sim.runUntilIdle();
  const Trace& t = sim.traces[1];
  EXPECT_EQ(t.firstTokenNs, 10'000'000);  // 6 ms base + 100 prompt tokens * 40 µs
  EXPECT_EQ(t.tokens, 10);
  EXPECT_EQ(t.emissions, 10);
  EXPECT_EQ(t.finishNs, 10'000'000 + 9 * 6'040'000);  // 9 decode steps of one sequence
  EXPECT_EQ(sim.model.counters().promptTokens, 100);
  EXPECT_EQ(sim.model.counters().generationTokens, 10);
}

TEST(EngineModel, LongPromptsArePrefilledInChunksOfTheStepBudget) {
  Sim sim(simple());
  sim.model.submit(spec(1, 5000, 1));
  sim.stepOnce();
  EXPECT_EQ(sim.now, 6'000'000 + 2048 * 40'000);
  EXPECT_TRUE(sim.traces.empty());
  sim.runUntilIdle();
  EXPECT_EQ(sim.model.counters().steps, 3);  // 2048 + 2048 + 904
  EXPECT_EQ(sim.traces[1].tokens, 1);
}

TEST(EngineModel, DecodeStepsGetSlowerWithBatchSizeAndContext) {
  EngineParams p = simple();
  p.contextPerTokenUs = 0.04;
  auto decodeStepNs = [&](int batch) {
    Sim sim(p);
    for (int i = 0; i < batch; ++i) sim.model.submit(spec(static_cast<uint64_t>(i), 16, 50));
    for (int i = 0; i < 3; ++i) sim.stepOnce();  // everyone prefilled and decoding
    const int64_t before = sim.now;
    sim.stepOnce();
    return sim.now - before;
  };
  EXPECT_EQ(decodeStepNs(1), 6'040'720);  // 6 ms + 40 µs + 18 context tokens * 0.04 µs
  EXPECT_GT(decodeStepNs(64), decodeStepNs(8));
  EXPECT_GT(decodeStepNs(8), decodeStepNs(1));
}

TEST(EngineModel, TheBatchIsCappedAndTheRestWaits) {
  EngineParams p = simple();
  p.maxRunningSeqs = 4;
  Sim sim(p);
  for (uint64_t i = 0; i < 10; ++i) sim.model.submit(spec(i, 32, 4));
  sim.stepOnce();
  EXPECT_EQ(sim.model.counters().running, 4);
  EXPECT_EQ(sim.model.counters().waiting, 6);
  sim.runUntilIdle();
  for (uint64_t i = 0; i < 10; ++i) EXPECT_EQ(sim.traces[i].tokens, 4) << i;
  // Sequences join as others leave: the last ones start only after the first ones finished.
  EXPECT_GE(sim.traces[9].firstTokenNs, sim.traces[0].finishNs);
}

TEST(EngineModel, ASmallKvCacheQueuesAndPreemptsButEveryoneFinishes) {
  EngineParams p = simple();
  p.kvCapacityTokens = 16 * 100;  // 100 blocks
  Sim sim(p);
  for (uint64_t i = 0; i < 12; ++i) sim.model.submit(spec(i, 200, 300));
  sim.stepOnce();
  EXPECT_GT(sim.model.counters().waiting, 0);
  EXPECT_GT(sim.model.counters().kvUsage, 0.5);
  sim.runUntilIdle();
  EXPECT_GT(sim.model.counters().preemptions, 0);
  for (uint64_t i = 0; i < 12; ++i) EXPECT_EQ(sim.traces[i].tokens, 300) << i;
  EXPECT_EQ(sim.model.counters().kvUsage, 0.0);
  EXPECT_FALSE(sim.model.fits(1600, 1));
  EXPECT_TRUE(sim.model.fits(1000, 500));
}

TEST(EngineModel, ACachedPrefixSkipsPrefill) {
  Sim sim(simple());
  SequenceSpec a = spec(1, 1024, 1);
  a.blockHashes = hashes(100, 64);
  sim.model.submit(a);
  sim.runUntilIdle();
  SequenceSpec b = spec(2, 1024, 1);
  b.blockHashes = hashes(100, 64);
  const int64_t start = sim.now;
  sim.model.submit(b);
  sim.runUntilIdle();
  EXPECT_EQ(sim.traces[1].firstTokenNs, 6'000'000 + 1024 * 40'000);
  // 63 blocks come from the cache; the last block is recomputed to get the next token.
  EXPECT_EQ(sim.traces[2].firstTokenNs - start, 6'000'000 + 16 * 40'000);
  EXPECT_EQ(sim.model.counters().prefixHitTokens, 63 * 16);
  EXPECT_EQ(sim.model.counters().prefixQueriedTokens, 2048);
}

TEST(EngineModel, DifferentPrefixesDoNotHit) {
  Sim sim(simple());
  SequenceSpec a = spec(1, 1024, 1);
  a.blockHashes = hashes(100, 64);
  SequenceSpec b = spec(2, 1024, 1);
  b.blockHashes = hashes(5000, 64);
  sim.model.submit(a);
  sim.runUntilIdle();
  sim.model.submit(b);
  sim.runUntilIdle();
  EXPECT_EQ(sim.model.counters().prefixHitTokens, 0);
}

TEST(EngineModel, SpeculativeDecodingIsFasterAtTemperatureZero) {
  EngineParams p = simple();
  p.specTokens = 3;
  auto decodeTimeNs = [&](double temperature) {
    Sim sim(p);
    for (uint64_t i = 0; i < 8; ++i) sim.model.submit(spec(i, 16, 400, temperature));
    sim.runUntilIdle();
    int64_t emissions = 0;
    for (const auto& [id, t] : sim.traces) {
      EXPECT_EQ(t.tokens, 400);
      emissions += t.emissions;
    }
    return std::pair(sim.now, emissions);
  };
  const auto [cold, coldSteps] = decodeTimeNs(0.0);
  const auto [warm, warmSteps] = decodeTimeNs(0.7);
  // Acceptance 0.80 vs 0.485 with 3 drafts: 2.95 vs 1.83 tokens per step, about 1.6x.
  EXPECT_GT(static_cast<double>(warm) / static_cast<double>(cold), 1.4);
  EXPECT_LT(static_cast<double>(warm) / static_cast<double>(cold), 1.8);
  EXPECT_LT(coldSteps, warmSteps);
}

TEST(EngineModel, CancelledRequestsLeaveTheEngine) {
  EngineParams p = simple();
  p.maxRunningSeqs = 1;
  Sim sim(p);
  sim.model.submit(spec(1, 16, 1000));
  sim.model.submit(spec(2, 16, 1000));
  sim.stepOnce();
  sim.model.cancel(2);  // waiting
  sim.model.cancel(1);  // running
  sim.model.cancel(99);  // unknown: ignored
  EXPECT_TRUE(sim.model.idle());
  EXPECT_EQ(sim.model.counters().kvUsage, 0.0);
}

TEST(EngineModel, IsDeterministic) {
  EngineParams p = simple();
  p.specTokens = 4;
  auto run = [&] {
    Sim sim(p);
    for (uint64_t i = 0; i < 20; ++i) sim.model.submit(spec(i, 50 + static_cast<int64_t>(i), 100, 0.5));
    sim.runUntilIdle();
    return sim.now;
  };
  EXPECT_EQ(run(), run());
}

}  // namespace
