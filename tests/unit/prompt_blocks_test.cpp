// Mooncake prefix blocks: how a row's prompt is laid out over its hash ids, and the prefix
// reuse `plumbline plan` reports (blocks, shared system prompts, resent conversations).
#include <gtest/gtest.h>

#include "core/workload/prefix_reuse.h"
#include "core/workload/prompt_blocks.h"
#include "core/workload/session_estimate.h"

using namespace plumbline::workload;

TEST(PromptBlocks, EveryIdIsA512TokenBlockAndTheLastMayBePartial) {
  const PromptBlockLayout l = promptBlockLayout(3, 1300);
  EXPECT_EQ(l.blocks, 3u);
  EXPECT_EQ(l.blockTokens(0), 512u);
  EXPECT_EQ(l.blockTokens(1), 512u);
  EXPECT_EQ(l.blockTokens(2), 276u);
  EXPECT_EQ(l.blockTokens(3), 0u);
  EXPECT_EQ(l.uniqueTokens, 0u);
}

TEST(PromptBlocks, TokensPastTheIdsAreTheRowsOwnAndSurplusIdsAreUnused) {
  const PromptBlockLayout past = promptBlockLayout(1, 1500);
  EXPECT_EQ(past.blocks, 1u);
  EXPECT_EQ(past.uniqueTokens, 988u);
  const PromptBlockLayout surplus = promptBlockLayout(5, 600);
  EXPECT_EQ(surplus.blocks, 2u);
  EXPECT_EQ(surplus.blockTokens(1), 88u);
  EXPECT_EQ(surplus.uniqueTokens, 0u);
  EXPECT_EQ(promptBlockLayout(0, 40).uniqueTokens, 40u);
}

namespace {
SessionPlan row(uint32_t input, std::vector<uint32_t> ids) {
  SessionPlan s{0, 0, input, 1, 0};
  s.promptBlocks = std::move(ids);
  s.requests.push_back({{}, 0, input, 1, RequestText::UserMessage});
  return s;
}
void add(PrefixReuseCounter& c, const SessionPlan& s) { c.add(s, requestInputTokens(s)); }
}  // namespace

TEST(PrefixReuse, CountsBlocksSeenBefore) {
  PrefixReuseCounter c;
  add(c, row(1300, {7, 8, 9}));
  add(c, row(1100, {7, 8, 10}));
  add(c, row(300, {7}));
  EXPECT_DOUBLE_EQ(c.reusedTokens(), 512 + 512 + 300);
  EXPECT_DOUBLE_EQ(c.share(), (512.0 + 512 + 300) / (1300 + 1100 + 300));
}

TEST(PrefixReuse, CountsSharedSystemPromptsAfterTheirGroupsFirstRequest) {
  PrefixReuseCounter c;
  for (uint32_t group : {0u, 1u, 0u}) {
    SessionPlan s{0, 0, 10, 5, 0};
    s.prefixGroup = group;
    s.prefixTokens = 100;
    s.requests.push_back({{}, 0, 10, 5, RequestText::UserMessage});
    add(c, s);
  }
  EXPECT_DOUBLE_EQ(c.reusedTokens(), 100);
  EXPECT_DOUBLE_EQ(c.share(), 100.0 / 330);
}

TEST(PrefixReuse, CountsTheConversationEachTurnResendsAndASiblingsSharedReply) {
  // Chain: turn 1 resends turn 0's prompt (10); tree: the second child also resends the reply.
  SessionPlan chain{0, 0, 10, 5, 0};
  chain.requests.push_back({{}, 0, 10, 5, RequestText::UserMessage});
  chain.requests.push_back({{0}, 0, 20, 5, RequestText::UserMessage});
  PrefixReuseCounter c;
  add(c, chain);
  EXPECT_DOUBLE_EQ(c.reusedTokens(), 10);  // inputs 10 and 10+5+20
  EXPECT_DOUBLE_EQ(c.share(), 10.0 / 45);

  SessionPlan tree{0, 0, 10, 5, 0};
  tree.requests.push_back({{}, 0, 10, 5, RequestText::UserMessage});
  tree.requests.push_back({{0}, 0, 3, 5, RequestText::UserMessage});
  tree.requests.push_back({{0}, 0, 3, 5, RequestText::UserMessage});
  PrefixReuseCounter t;
  add(t, tree);
  EXPECT_DOUBLE_EQ(t.reusedTokens(), 10 + 10 + 5);
}
