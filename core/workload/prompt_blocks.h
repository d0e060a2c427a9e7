#pragma once
#include <cstddef>
#include <cstdint>

namespace plumbline::workload {

/// Tokens per Mooncake prefix block (hash_ids are computed over 512-token blocks).
inline constexpr uint32_t kPromptBlockTokens = 512;

/// Blocks a prompt of `tokens` tokens spans: ceil(tokens / 512), the last one may be partial.
/// Every row of the public Mooncake traces has exactly this many hash_ids.
inline constexpr size_t promptBlocksFor(uint32_t tokens) {
  return (static_cast<size_t>(tokens) + kPromptBlockTokens - 1) / kPromptBlockTokens;
}

/// How a replayed row's prompt of `tokens` tokens is made of its hash-id blocks: block i holds
/// min(512, tokens − 512·i) tokens (the last one may be partial: the start of that id's
/// block); ids beyond the prompt's length are unused; tokens past the last id's block are
/// text of the row's own.
struct PromptBlockLayout {
  size_t blocks = 0;            ///< hash ids used
  uint32_t totalTokens = 0;
  uint32_t uniqueTokens = 0;    ///< after the blocks
  uint32_t blockTokens(size_t i) const;
};
PromptBlockLayout promptBlockLayout(size_t hashIds, uint32_t tokens);

}  // namespace plumbline::workload
