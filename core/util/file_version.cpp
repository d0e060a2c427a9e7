#include "core/util/file_version.h"

#include <system_error>

namespace plumbline::util {

std::optional<FileVersion> fileVersion(const std::string& path) {
  std::error_code error;
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (error) return std::nullopt;
  const auto modified = std::filesystem::last_write_time(path, error);
  if (error) return std::nullopt;
  return FileVersion{size, modified};
}

}  // namespace plumbline::util
