#include "core/store/database_path.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace plumbline::store {

namespace fs = std::filesystem;

std::string closedDirectoryReason(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  const std::string dir = parent.empty() ? "." : parent.string();
  if (access(dir.c_str(), W_OK | X_OK) == 0) return {};
  return "the directory " + dir + " of the database file " + path + " takes no new files (" +
         std::strerror(errno) + "), and SQLite keeps its -wal and -shm files there";
}

std::string unwritableDatabaseReason(const std::string& path) {
  const std::string file = "the database file " + path;
  const fs::path parent = fs::path(path).parent_path();
  // Its own error code: a relative "runs.db" has no parent to make.
  std::error_code made;
  if (!parent.empty()) fs::create_directories(parent, made);
  if (made)
    return "the directory " + parent.string() + " of " + file + " cannot be made (" +
           made.message() + ")";
  if (std::string why = closedDirectoryReason(path); !why.empty()) return why;
  std::error_code ec;
  if (!fs::exists(path, ec)) return {};
  if (access(path.c_str(), W_OK) != 0)
    return errno == EROFS ? file + " is on a read-only file system" : file + " is read-only";
  if (access(path.c_str(), R_OK) != 0)
    return file + " cannot be read (" + std::strerror(errno) + ")";
  return {};
}

}  // namespace plumbline::store
