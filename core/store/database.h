#pragma once
#include <string>
#include <string_view>

#include "core/store/statement.h"

struct sqlite3;

namespace plumbline::store {

/// An open Plumbline database (SQLite, WAL). Writers create the file and its directory and
/// migrate the schema forward on open, and refuse another application's SQLite file (no
/// Plumbline schema, some tables) before changing anything; readers refuse a schema newer
/// than they know.
class Database {
 public:
  enum class Mode { ReadWrite, ReadOnly };
  static constexpr int kSchemaVersion = 12;

  static Database open(const std::string& path, Mode mode);

  ~Database();
  Database(Database&& other) noexcept;
  Database& operator=(Database&& other) noexcept;
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  Statement prepare(std::string_view sql) const;
  /// Runs one or more statements that return no rows.
  void exec(const std::string& sql) const;
  int userVersion() const;
  /// How long one statement waits for another connection's lock before failing Busy
  /// (5 s from open()).
  void setBusyTimeout(int ms) const;
  bool inTransaction() const;
  const std::string& path() const { return m_path; }
  /// What SQLite's quick check finds wrong in one table's pages ("" when nothing): a damaged
  /// file reads as missing rows or garbage values otherwise. Cheap for small tables only.
  std::string damageIn(const char* table) const;
  sqlite3* handle() const { return m_db; }

 private:
  Database(sqlite3* db, std::string path) : m_db(db), m_path(std::move(path)) {}
  void configure(Mode mode);
  void migrate();
  void checkReadable();
  void checkOurs();

  sqlite3* m_db = nullptr;
  std::string m_path;
};

/// Commits on commit(), rolls back if destroyed before.
class Transaction {
 public:
  explicit Transaction(const Database& db, bool immediate = false);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit();

 private:
  const Database& m_db;
  bool m_open = true;
};

}  // namespace plumbline::store
