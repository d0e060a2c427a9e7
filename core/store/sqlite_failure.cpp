#include "core/store/sqlite_failure.h"

#include <sqlite3.h>

#include <cstring>

namespace plumbline::store {

namespace {

/// " (No space left on device)" from the system's errno behind the failure, or "".
std::string systemErrorOf(sqlite3* db) {
  const int code = db != nullptr ? sqlite3_system_errno(db) : 0;
  return code != 0 ? std::string(" (") + std::strerror(code) + ")" : std::string();
}

std::string sqliteMessageOf(sqlite3* db, int rc) {
  return db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
}

std::string readOnlyReason(const std::string& file, int rc) {
  switch (rc) {
    case SQLITE_READONLY_DBMOVED:
      return file + " was moved or deleted while it was open";
    case SQLITE_READONLY_DIRECTORY:
    case SQLITE_READONLY_CANTLOCK:
    case SQLITE_READONLY_CANTINIT:
      return file + " cannot be written: its directory or its -shm file is read-only";
    default:
      return file + " is read-only";
  }
}

std::string ioErrorReason(const std::string& file, int rc, sqlite3* db) {
  const std::string cause = systemErrorOf(db);
  const std::string said = cause.empty() ? " (" + sqliteMessageOf(db, rc) + ")" : cause;
  switch (rc) {
    case SQLITE_IOERR_READ:
    case SQLITE_IOERR_SHORT_READ:
      return file + " could not be read: an I/O error" + said;
    case SQLITE_IOERR_WRITE:
    case SQLITE_IOERR_FSYNC:
    case SQLITE_IOERR_TRUNCATE:
      return file + " could not be written: an I/O error" + said;
    default:
      return file + " could not be read or written: an I/O error" + said;
  }
}

}  // namespace

StoreError sqliteFailure(const std::string& path, sqlite3* db, int rc, StoreErrorKind kind) {
  const std::string file = "the database file " + path;
  switch (rc & 0xff) {
    case SQLITE_NOTADB:
      return StoreError::notADatabase(path, sqliteMessageOf(db, rc));
    case SQLITE_CORRUPT:
      return StoreError::damaged(path, sqliteMessageOf(db, rc));
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return StoreError::described(path, file + " is locked by another process",
                                   StoreErrorKind::Busy);
    case SQLITE_READONLY:
      return StoreError::described(path, readOnlyReason(file, rc), kind);
    case SQLITE_CANTOPEN:
      return StoreError::described(path, file + " cannot be opened" + systemErrorOf(db), kind);
    case SQLITE_PERM:
      return StoreError::described(path, file + " may not be accessed" + systemErrorOf(db), kind);
    case SQLITE_FULL:
      return StoreError::described(path, "the disk holding " + file + " is full", kind);
    case SQLITE_IOERR:
      return StoreError::described(path, ioErrorReason(file, rc, db), kind);
    case SQLITE_NOMEM:
      return StoreError::described(path, "out of memory using " + file, kind);
    default:
      return StoreError::described(
          path, "SQLite failed on " + file + ": " + sqliteMessageOf(db, rc), kind);
  }
}

bool isUnusableFile(int rc) {
  const int primary = rc & 0xff;
  return primary == SQLITE_CANTOPEN || primary == SQLITE_READONLY || primary == SQLITE_PERM;
}

}  // namespace plumbline::store
