#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace plumbline::store {

/// A prepared SQLite statement. Binds and columns are 1-based / 0-based like SQLite's.
/// Errors throw StoreError naming the database file and what is wrong, never the statement.
class Statement {
 public:
  Statement(sqlite3* db, std::string_view sql, std::string path);
  ~Statement();
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bindInt(int index, int64_t value);
  Statement& bindDouble(int index, double value);
  /// The value, or NULL when there is none.
  Statement& bindDouble(int index, const std::optional<double>& value);
  Statement& bindText(int index, std::string_view value);
  Statement& bindBlob(int index, std::string_view bytes);
  Statement& bindNull(int index);

  /// Advances; true when a row is available, false when done.
  bool step();
  /// Steps to completion (for statements returning no rows), then resets for reuse.
  void run();
  /// Resets for reuse and clears bindings.
  void reset();

  bool isNull(int column) const;
  int64_t columnInt(int column) const;
  double columnDouble(int column) const;
  std::string columnText(int column) const;
  std::string columnBlob(int column) const;

 private:
  [[noreturn]] void fail(int rc) const;

  sqlite3* m_db = nullptr;
  sqlite3_stmt* m_stmt = nullptr;
  std::string m_path;
};

}  // namespace plumbline::store
