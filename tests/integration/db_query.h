#pragma once
// One-value SQLite queries for integration tests that check what a run stored.
#include <sqlite3.h>

#include <cstdint>
#include <string>

namespace plumbline::test {

/// Runs `sql` on `db` opened read-only and hands its first row to `read`; false if there is no
/// row or on error.
template <typename Read>
bool readFirstRow(const std::string& db, const std::string& sql, Read read) {
  sqlite3* h = nullptr;
  bool found = false;
  if (sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(h, sql.c_str(), -1, &st, nullptr) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW) {
      read(st);
      found = true;
    }
    sqlite3_finalize(st);
  }
  sqlite3_close(h);
  return found;
}

/// The first column of the first row of `sql` on `db`; -1 if none or on error.
inline int64_t queryInt(const std::string& db, const std::string& sql) {
  int64_t out = -1;
  readFirstRow(db, sql, [&](sqlite3_stmt* st) { out = sqlite3_column_int64(st, 0); });
  return out;
}

/// The first column of the first row of `sql` on `db` as text; "" if none or on error.
inline std::string queryText(const std::string& db, const std::string& sql) {
  std::string out;
  readFirstRow(db, sql, [&](sqlite3_stmt* st) {
    if (const unsigned char* text = sqlite3_column_text(st, 0))
      out = reinterpret_cast<const char*>(text);
  });
  return out;
}

}  // namespace plumbline::test
