#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace plumbline::util {

/// A key one JSON object names twice.
struct DuplicateKey {
  std::string path;  ///< of its second occurrence: "load.stages[1].rate", "[2].id" in an array
  std::string key;   ///< "rate" (control bytes escaped, at most 64 bytes: util::shownKey)
  /// "'rate' is named twice in one object (JSON readers differ in which they keep: name it once)"
  std::string reason() const;
};

/// The first key that one JSON object of `text` names twice, in the workload loader's path
/// notation; nullopt when every object's keys are distinct, and also when `text` is not valid
/// JSON (the caller's parser says where that is). JSON parsers disagree on which of two equal
/// keys wins (nlohmann keeps the last), so an input that relies on either is refused rather than
/// guessed.
std::optional<DuplicateKey> firstDuplicateKey(std::string_view text);

}  // namespace plumbline::util
