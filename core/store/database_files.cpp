#include "core/store/database_files.h"

#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace plumbline::store {

namespace {

namespace fs = std::filesystem;

constexpr std::array<const char*, 4> kSqliteFiles = {"", "-wal", "-shm", "-journal"};

/// The path absolute, its symlinks resolved as far as it exists (SQLite follows a database's
/// symlink and keeps -wal beside the target).
fs::path resolved(const fs::path& p) {
  std::error_code ec;
  fs::path out = fs::weakly_canonical(fs::absolute(p, ec), ec);
  return ec ? fs::absolute(p, ec).lexically_normal() : out;
}

bool sameFile(const fs::path& a, const fs::path& b) {
  std::error_code ec;
  return fs::equivalent(a, b, ec) && !ec;
}

bool startsWithSqliteHeader(const fs::path& p) {
  static constexpr char kHeader[] = "SQLite format 3";  // 16 bytes with its NUL
  std::ifstream in(p, std::ios::binary);
  char head[sizeof kHeader] = {};
  return in.read(head, sizeof head) && std::memcmp(head, kHeader, sizeof kHeader) == 0;
}

}  // namespace

std::string databaseClobberedBy(const std::string& outputPath, const std::string& dbPath) {
  const fs::path out = resolved(outputPath);
  for (const char* suffix : kSqliteFiles) {
    // Both the symlink-resolved database and the path as given: either may carry the -wal.
    for (const fs::path& db :
         {resolved(dbPath), fs::absolute(fs::path(dbPath)).lexically_normal()}) {
      const fs::path file = db.string() + suffix;
      if (out == file || out == resolved(file) || sameFile(outputPath, file))
        return *suffix == '\0'
                   ? "is the database " + dbPath
                   : "is the database's " + std::string(suffix + 1) + " file " + dbPath + suffix;
    }
  }
  std::error_code ec;
  if (fs::is_regular_file(outputPath, ec) && startsWithSqliteHeader(outputPath))
    return "is an SQLite database; not overwriting it";
  return {};
}

}  // namespace plumbline::store
