#pragma once
// One-value SQLite queries for integration tests that check what a run stored.
#include <sqlite3.h>

#include <cstdint>
#include <string>

namespace plumbline::test {

/// The first column of the first row of `sql` on `db` opened read-only; -1 if none or on error.
inline int64_t queryInt(const std::string& db, const std::string& sql) {
  sqlite3* h = nullptr;
  int64_t out = -1;
  if (sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(h, sql.c_str(), -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
      out = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
  }
  sqlite3_close(h);
  return out;
}

/// The first column of the first row of `sql` on `db` as text; "" if none or on error.
inline std::string queryText(const std::string& db, const std::string& sql) {
  sqlite3* h = nullptr;
  std::string out;
  if (sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(h, sql.c_str(), -1, &st, nullptr) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
      if (const unsigned char* text = sqlite3_column_text(st, 0))
        out = reinterpret_cast<const char*>(text);
    sqlite3_finalize(st);
  }
  sqlite3_close(h);
  return out;
}

}  // namespace plumbline::test
