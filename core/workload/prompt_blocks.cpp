#include "core/workload/prompt_blocks.h"

#include <algorithm>

namespace plumbline::workload {

uint32_t PromptBlockLayout::blockTokens(size_t i) const {
  const uint64_t start = static_cast<uint64_t>(i) * kPromptBlockTokens;
  if (i >= blocks || start >= totalTokens) return 0;
  return static_cast<uint32_t>(std::min<uint64_t>(kPromptBlockTokens, totalTokens - start));
}

PromptBlockLayout promptBlockLayout(size_t hashIds, uint32_t tokens) {
  PromptBlockLayout layout;
  layout.totalTokens = tokens;
  layout.blocks = std::min(hashIds, promptBlocksFor(tokens));
  const uint64_t covered = std::min<uint64_t>(static_cast<uint64_t>(layout.blocks) * kPromptBlockTokens, tokens);
  layout.uniqueTokens = static_cast<uint32_t>(tokens - covered);
  return layout;
}

}  // namespace plumbline::workload
