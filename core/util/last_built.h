#pragma once
// The last value built from a key, kept until a build from another key.
#include <mutex>
#include <optional>
#include <utility>

namespace plumbline::util {

/// One cached value: what was last built, and from which key. A key that cannot be known
/// (nullopt: say, its file could not be examined) always builds, and is not kept; nor is a
/// build that throws. Thread-safe; two threads asking for the same new key may both build.
template <typename Key, typename Value>
class LastBuilt {
 public:
  template <typename Build>
  Value get(const std::optional<Key>& key, Build&& build) {
    if (key) {
      const std::lock_guard lock(m_mutex);
      if (m_key == key) return m_value;
    }
    Value value = std::forward<Build>(build)();
    if (key) {
      const std::lock_guard lock(m_mutex);
      m_key = key;
      m_value = value;
    }
    return value;
  }

 private:
  std::mutex m_mutex;
  std::optional<Key> m_key;
  Value m_value{};
};

}  // namespace plumbline::util
