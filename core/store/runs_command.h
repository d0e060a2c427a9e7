#pragma once
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>

namespace plumbline::store {

/// `plumbline runs ...` subcommands. Each returns the process exit code: 0 ok; 2 for an
/// unknown run id, a missing or foreign database file or a bad format (one line on err
/// naming the file or id); 1 for any other failure.

/// Runs a subcommand's body: a StoreError is one line on err and exit 1 (Failure) or 2
/// (anything a person can fix); any other exception is one line and exit 1.
int guardedStoreCommand(std::ostream& err, const std::function<int()>& body);

/// One line per run, oldest first (the newest last, next to the prompt). A database that does
/// not exist prints "no runs yet (PATH)" and returns 0 when it is the default one (nothing
/// recorded yet); one a person named (`named`: --db) is an error, exit 2, as for show.
int runsList(const std::string& dbPath, bool named, std::ostream& out, std::ostream& err);
/// Verdict first, then status and the run's summary table.
int runsShow(const std::string& dbPath, int64_t id, std::ostream& out, std::ostream& err);
/// format "json": {run, windows, requests}; "csv": a header then one line per request.
int runsExport(const std::string& dbPath, int64_t id, const std::string& format,
               std::ostream& out, std::ostream& err);

}  // namespace plumbline::store
