#pragma once
#include <span>

namespace plumbline::store {

/// One forward migration: applied when the database's user_version is below `version`.
struct Migration {
  int version;
  const char* sql;
};

/// Every migration in order; the last one's version is Database::kSchemaVersion.
std::span<const Migration> migrations();

}  // namespace plumbline::store
