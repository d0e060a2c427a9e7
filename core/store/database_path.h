#pragma once
#include <string>

namespace plumbline::store {

/// Makes the missing directories of the database file `path`, then says why the file cannot be
/// opened for writing, in one line naming it ("the database file /x/runs.db is read-only"), or
/// "" when it can: its directory cannot be made or takes no new files (SQLite keeps its -wal and
/// -shm files beside the database), or the file exists and cannot be read or written.
std::string unwritableDatabaseReason(const std::string& path);

/// Why SQLite cannot make the -wal and -shm files beside the database file `path` (its directory
/// takes no new files), in one line naming both, or "" when it can. A database in WAL mode
/// cannot even be read without its -shm file.
std::string closedDirectoryReason(const std::string& path);

}  // namespace plumbline::store
