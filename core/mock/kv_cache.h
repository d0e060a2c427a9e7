#pragma once
// The simulated engine's KV cache: a pool of fixed-size token blocks with reference counts,
// and (vLLM-style automatic prefix caching) an index of full prompt blocks by content hash.
// A released block that carries a hash stays cached, evictable in LRU order, until the pool
// needs it; a later prompt with the same prefix takes it back instead of recomputing it.
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

namespace plumbline::mock {

/// Block allocator of one simulated GPU. Single-threaded (owned by the EngineModel).
class KvCache {
 public:
  KvCache(int64_t totalBlocks, bool prefixCaching);

  /// Takes the cached blocks of the longest cached prefix of `hashes` (chained block hashes,
  /// see MockRequest::blockHashes); appends their ids to `blocks`, returns how many.
  int64_t takeCachedPrefix(std::span<const uint64_t> hashes, std::vector<int32_t>& blocks);
  /// All or nothing: appends `count` fresh blocks (evicting cached ones, LRU first).
  bool allocate(int64_t count, std::vector<int32_t>& blocks);
  /// A block whose tokens are now computed becomes reusable by prompts sharing its prefix.
  void publish(int32_t block, uint64_t hash);
  /// Drops one reference to each block and clears `blocks`.
  void release(std::vector<int32_t>& blocks);

  int64_t totalBlocks() const { return static_cast<int64_t>(m_refs.size()); }
  /// Blocks referenced by a sequence (what vLLM reports as KV-cache usage).
  int64_t usedBlocks() const { return m_used; }
  /// Blocks an allocation may take: free ones plus evictable cached ones.
  int64_t availableBlocks() const { return totalBlocks() - m_used; }
  int64_t cachedBlocks() const { return static_cast<int64_t>(m_byHash.size()); }

 private:
  void lruRemove(int32_t block);
  void lruPushBack(int32_t block);
  int32_t takeFreeOrEvict();

  bool m_prefixCaching;
  std::vector<int32_t> m_refs;
  std::vector<uint64_t> m_hash;      ///< content hash of a published block, 0 = none
  std::vector<int32_t> m_prev;       ///< LRU list of evictable cached blocks (intrusive)
  std::vector<int32_t> m_next;
  std::vector<int32_t> m_free;       ///< blocks with no reference and no hash
  std::unordered_map<uint64_t, int32_t> m_byHash;
  int32_t m_lruHead = -1;
  int32_t m_lruTail = -1;
  int64_t m_used = 0;
};

}  // namespace plumbline::mock
