#pragma once
#include <string>

namespace plumbline::store {

/// Why a command must not write its output (a summary, a socket, ...) at `outputPath`, or ""
/// when it may: the path is the database `dbPath` itself or one of SQLite's files beside it
/// (-wal, -shm, -journal), compared after resolving the paths and by device and inode where
/// the file exists; or an existing file there is an SQLite database (another one than dbPath,
/// which writing over would destroy). The reason is one line naming what the path is.
std::string databaseClobberedBy(const std::string& outputPath, const std::string& dbPath);

}  // namespace plumbline::store
