#include "core/mock/kv_cache.h"

namespace plumbline::mock {

KvCache::KvCache(int64_t totalBlocks, bool prefixCaching)
    : m_prefixCaching(prefixCaching),
      m_refs(static_cast<size_t>(totalBlocks), 0),
      m_hash(static_cast<size_t>(totalBlocks), 0),
      m_prev(static_cast<size_t>(totalBlocks), -1),
      m_next(static_cast<size_t>(totalBlocks), -1) {
  m_free.reserve(static_cast<size_t>(totalBlocks));
  for (int64_t i = totalBlocks - 1; i >= 0; --i) m_free.push_back(static_cast<int32_t>(i));
}

int64_t KvCache::takeCachedPrefix(std::span<const uint64_t> hashes, std::vector<int32_t>& blocks) {
  if (!m_prefixCaching) return 0;
  int64_t taken = 0;
  for (uint64_t hash : hashes) {
    const auto it = m_byHash.find(hash);
    if (it == m_byHash.end()) break;
    const int32_t block = it->second;
    if (m_refs[static_cast<size_t>(block)]++ == 0) {
      lruRemove(block);
      ++m_used;
    }
    blocks.push_back(block);
    ++taken;
  }
  return taken;
}

bool KvCache::allocate(int64_t count, std::vector<int32_t>& blocks) {
  if (count > availableBlocks()) return false;
  for (int64_t i = 0; i < count; ++i) {
    const int32_t block = takeFreeOrEvict();
    m_refs[static_cast<size_t>(block)] = 1;
    ++m_used;
    blocks.push_back(block);
  }
  return true;
}

int32_t KvCache::takeFreeOrEvict() {
  if (!m_free.empty()) {
    const int32_t block = m_free.back();
    m_free.pop_back();
    return block;
  }
  const int32_t block = m_lruHead;  // availableBlocks() > 0 guarantees one
  lruRemove(block);
  m_byHash.erase(m_hash[static_cast<size_t>(block)]);
  m_hash[static_cast<size_t>(block)] = 0;
  return block;
}

void KvCache::publish(int32_t block, uint64_t hash) {
  if (!m_prefixCaching || hash == 0 || m_hash[static_cast<size_t>(block)] != 0) return;
  // Another sequence computed the same block concurrently: keep the first copy indexed.
  if (!m_byHash.emplace(hash, block).second) return;
  m_hash[static_cast<size_t>(block)] = hash;
}

void KvCache::release(std::vector<int32_t>& blocks) {
  for (int32_t block : blocks) {
    const auto i = static_cast<size_t>(block);
    if (--m_refs[i] > 0) continue;
    --m_used;
    if (m_hash[i] != 0) {
      lruPushBack(block);
    } else {
      m_free.push_back(block);
    }
  }
  blocks.clear();
}

void KvCache::lruRemove(int32_t block) {
  const auto i = static_cast<size_t>(block);
  if (m_prev[i] >= 0) m_next[static_cast<size_t>(m_prev[i])] = m_next[i];
  else m_lruHead = m_next[i];
  if (m_next[i] >= 0) m_prev[static_cast<size_t>(m_next[i])] = m_prev[i];
  else m_lruTail = m_prev[i];
  m_prev[i] = m_next[i] = -1;
}

void KvCache::lruPushBack(int32_t block) {
  const auto i = static_cast<size_t>(block);
  m_prev[i] = m_lruTail;
  m_next[i] = -1;
  if (m_lruTail >= 0) m_next[static_cast<size_t>(m_lruTail)] = block;
  else m_lruHead = block;
  m_lruTail = block;
}

}  // namespace plumbline::mock
