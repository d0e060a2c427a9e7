#pragma once
// What an SQLite result code means for a person, in one place for Database and Statement.
#include <string>

#include "core/store/store_error.h"

struct sqlite3;

namespace plumbline::store {

/// The error for SQLite's result code `rc` on the database file `path`, said in words naming
/// the file and never quoting the statement: "the database file PATH is read-only", "the disk
/// holding the database file PATH is full", "the database PATH is damaged (...)". `db` (may be
/// null) gives the system's error and SQLite's message where they add to the words. The kind is
/// Busy for a lock, NotADatabase for a file that is not SQLite, Damaged for a corrupt page, and
/// `kind` otherwise.
StoreError sqliteFailure(const std::string& path, sqlite3* db, int rc,
                         StoreErrorKind kind = StoreErrorKind::Failure);

/// True when `rc`, opening a database, means the file itself cannot be used as given (it cannot
/// be opened, or written where writing is asked): input a person can correct, not the machine.
bool isUnusableFile(int rc);

}  // namespace plumbline::store
