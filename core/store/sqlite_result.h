#pragma once
// What an SQLite result code means for a StoreError, in one place for Database and Statement.
#include <sqlite3.h>

#include "core/store/store_error.h"

namespace plumbline::store {

/// Not SQLite, or a damaged file: refused as "not a Plumbline database".
inline bool isNotADatabase(int rc) {
  const int primary = rc & 0xff;
  return primary == SQLITE_NOTADB || primary == SQLITE_CORRUPT;
}

/// Busy when another connection held a lock past the busy timeout (a writer may wait it out),
/// else Failure.
inline StoreErrorKind failureKindOf(int rc) {
  const int primary = rc & 0xff;
  return primary == SQLITE_BUSY || primary == SQLITE_LOCKED ? StoreErrorKind::Busy
                                                            : StoreErrorKind::Failure;
}

}  // namespace plumbline::store
