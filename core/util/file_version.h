#pragma once
// Which version of a file was read: for caches of what was built from it.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace plumbline::util {

/// A file's size and modification time. Two reads of equal versions read the same bytes, as
/// far as a cache of the studio's validations can tell (an edit that keeps both is not seen).
struct FileVersion {
  std::uintmax_t size = 0;
  std::filesystem::file_time_type modified;

  bool operator==(const FileVersion&) const = default;
};

/// The version of `path`; nullopt when it cannot be examined (missing, unreadable folder).
std::optional<FileVersion> fileVersion(const std::string& path);

}  // namespace plumbline::util
