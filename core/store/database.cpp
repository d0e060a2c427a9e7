#include "core/store/database.h"

#include <sqlite3.h>

#include <filesystem>
#include <system_error>
#include <utility>

#include "core/store/database_path.h"
#include "core/store/schema.h"
#include "core/store/sqlite_failure.h"
#include "core/store/store_error.h"

namespace plumbline::store {

namespace fs = std::filesystem;

Database Database::open(const std::string& path, Mode mode) {
  std::error_code ec;
  if (fs::is_directory(path, ec))  // SQLite would say "unable to open" or "disk I/O error"
    throw StoreError(path, "opening", "is a directory, not a database file",
                     StoreErrorKind::InvalidInput);
  if (mode == Mode::ReadWrite) {
    // Said before SQLite tries: it opens a read-only file read-only without a word, and says
    // "unable to open database file" of a directory that takes no new files.
    if (const std::string why = unwritableDatabaseReason(path); !why.empty())
      throw StoreError::described(path, why, StoreErrorKind::InvalidInput);
  } else if (!fs::exists(path, ec)) {
    throw StoreError(path, "opening", "no such file", StoreErrorKind::NotFound);
  }

  int flags = mode == Mode::ReadWrite ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
                                      : SQLITE_OPEN_READONLY;
  sqlite3* raw = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &raw, flags, nullptr);
  Database db(raw, path);  // owns the handle even when opening failed
  if (rc == SQLITE_OK && mode == Mode::ReadWrite && sqlite3_db_readonly(raw, "main") == 1)
    rc = SQLITE_READONLY;  // what the checks above could not tell (an ACL, a mount's options)
  if (rc != SQLITE_OK)
    throw sqliteFailure(
        path, raw, rc, isUnusableFile(rc) ? StoreErrorKind::InvalidInput : StoreErrorKind::Failure);
  sqlite3_extended_result_codes(raw, 1);
  sqlite3_busy_timeout(raw, 5000);
  db.checkReadable();
  if (mode == Mode::ReadWrite) db.checkOurs();  // before WAL or a table changes a foreign file
  db.configure(mode);
  if (mode == Mode::ReadWrite) {
    db.migrate();
  } else {
    int version = db.userVersion();
    if (version > kSchemaVersion)
      throw StoreError(path, "opening",
                       "schema version " + std::to_string(version) +
                           " is newer than this Plumbline understands (" +
                           std::to_string(kSchemaVersion) + "); upgrade Plumbline",
                       StoreErrorKind::TooNew);
    if (version == 0) throw StoreError::notADatabase(path, "no Plumbline schema (user_version 0)");
    if (version < kSchemaVersion) {
      // Written by an older Plumbline: its runs are read through this one's queries, which name
      // columns added since (QA: `runs show` of a schema 2 file failed on "no such column").
      // Upgraded as any write would (the migrations only add), then read like any other.
      try {
        return open(path, Mode::ReadWrite);
      } catch (const StoreError& e) {
        throw StoreError(path, "opening",
                         "written by an older Plumbline (schema version " +
                             std::to_string(version) + "; this one reads " +
                             std::to_string(kSchemaVersion) +
                             ") and it cannot be upgraded where it is (" + e.what() +
                             "): open a writable copy of it",
                         StoreErrorKind::InvalidInput);
      }
    }
  }
  return db;
}

void Database::setBusyTimeout(int ms) const { sqlite3_busy_timeout(m_db, ms); }

Database::~Database() {
  if (m_db) sqlite3_close_v2(m_db);
}

Database::Database(Database&& other) noexcept
    : m_db(std::exchange(other.m_db, nullptr)), m_path(std::move(other.m_path)) {}

Database& Database::operator=(Database&& other) noexcept {
  if (this != &other) {
    if (m_db) sqlite3_close_v2(m_db);
    m_db = std::exchange(other.m_db, nullptr);
    m_path = std::move(other.m_path);
  }
  return *this;
}

// Reading the header is the first thing that fails on a file that is not SQLite.
void Database::checkReadable() {
  int rc = sqlite3_exec(m_db, "SELECT count(*) FROM sqlite_schema", nullptr, nullptr, nullptr);
  if (rc == SQLITE_OK) return;
  if ((rc & 0xff) == SQLITE_CORRUPT)  // not even its list of tables: no run can be read
    throw StoreError::damaged(m_path, sqlite3_errmsg(m_db),
                              "its list of tables cannot be read; sqlite3 " + m_path +
                                  " .recover may save what it holds");
  // The file opened, so what could not be is its -shm file (WAL mode), made beside it.
  if ((rc & 0xff) == SQLITE_CANTOPEN)
    if (const std::string why = closedDirectoryReason(m_path); !why.empty())
      throw StoreError::described(m_path, why, StoreErrorKind::InvalidInput);
  throw sqliteFailure(m_path, m_db, rc,
                      isUnusableFile(rc) ? StoreErrorKind::InvalidInput : StoreErrorKind::Failure);
}

std::string Database::damageIn(const char* table) const {
  sqlite3_stmt* stmt = nullptr;
  const std::string sql = std::string("PRAGMA quick_check(") + table + ")";
  if (sqlite3_prepare_v2(m_db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK)
    return sqlite3_errmsg(m_db);
  std::string found;
  const int rc = sqlite3_step(stmt);
  if (rc == SQLITE_ROW) {
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
    found = text != nullptr ? text : "";
    const std::string header = "*** in database main ***";
    if (found == "ok")
      found.clear();
    else if (found == header && sqlite3_step(stmt) == SQLITE_ROW)
      found = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));  // the first finding
    else if (found.rfind(header + "\n", 0) == 0)  // the findings in one row, a line each
      found.erase(0, header.size() + 1);
    found = found.substr(0, found.find('\n'));  // the first: an error is one line
  } else if (rc != SQLITE_DONE) {
    found = sqlite3_errmsg(m_db);
  }
  sqlite3_finalize(stmt);
  if (found.size() > 200) found = found.substr(0, 200) + "…";
  return found;
}

// A file with no Plumbline schema is set up only when it holds nothing: tables of another
// application's SQLite file are not ours to add to (nor its journal mode to switch).
void Database::checkOurs() {
  if (userVersion() != 0) return;
  Statement s = prepare("SELECT count(*) FROM sqlite_schema");
  s.step();
  if (s.columnInt(0) != 0)
    throw StoreError::notADatabase(
        m_path, "no Plumbline schema (user_version 0) and it holds other tables; not changed");
}

void Database::configure(Mode mode) {
  if (mode == Mode::ReadWrite) {
    Statement wal = prepare("PRAGMA journal_mode=WAL");
    if (!wal.step() || wal.columnText(0) != "wal")
      throw StoreError(m_path, "enabling WAL", "journal mode is '" + wal.columnText(0) + "'");
    exec("PRAGMA synchronous=NORMAL");
  }
  exec("PRAGMA foreign_keys=ON");
}

void Database::migrate() {
  Transaction tx(*this, /*immediate=*/true);  // serialises two writers migrating at once
  int version = userVersion();
  if (version > kSchemaVersion)
    throw StoreError(m_path, "opening for writing",
                     "schema version " + std::to_string(version) +
                         " is newer than this Plumbline understands (" +
                         std::to_string(kSchemaVersion) + "); upgrade Plumbline",
                     StoreErrorKind::TooNew);
  if (version == kSchemaVersion) return;  // rolls back an empty transaction
  for (const Migration& m : migrations()) {
    if (m.version <= version) continue;
    exec(m.sql);
    exec("PRAGMA user_version=" + std::to_string(m.version));
  }
  tx.commit();
}

Statement Database::prepare(std::string_view sql) const { return Statement(m_db, sql, m_path); }

void Database::exec(const std::string& sql) const {
  const int rc = sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) throw sqliteFailure(m_path, m_db, rc);
}

int Database::userVersion() const {
  Statement s = prepare("PRAGMA user_version");
  s.step();
  return static_cast<int>(s.columnInt(0));
}

bool Database::inTransaction() const { return sqlite3_get_autocommit(m_db) == 0; }

Transaction::Transaction(const Database& db, bool immediate) : m_db(db) {
  m_db.exec(immediate ? "BEGIN IMMEDIATE" : "BEGIN");
}

Transaction::~Transaction() {
  if (m_open && m_db.inTransaction()) sqlite3_exec(m_db.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit() {
  m_db.exec("COMMIT");
  m_open = false;
}

}  // namespace plumbline::store
