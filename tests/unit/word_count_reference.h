#pragma once
// The mock's tokenization read a byte at a time: what its 64-bytes-per-step word count
// (core/mock/mock_request.cpp) must agree with. Shared by the unit test and the fuzz target.
#include <cstdint>
#include <string_view>

namespace plumbline::test {

inline int64_t wordsByteByByte(std::string_view text) {
  int64_t words = 0;
  bool spaceBefore = true;
  for (char c : text) {
    const bool space = c == ' ' || (c >= '\t' && c <= '\r');
    if (!space && spaceBefore) ++words;
    spaceBefore = space;
  }
  return words;
}

}  // namespace plumbline::test
