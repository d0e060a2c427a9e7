#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>

#include <nlohmann/json.hpp>

#include "core/store/run_reader.h"
#include "core/store/store_error.h"

namespace plumbline::store {

/// The run as JSON: every column; *_json columns parsed under their name without "_json"
/// (spec, verdict_reasons, summary; errors_by_class for windows). status is the effective one.
nlohmann::json runToJson(const RunRow& run);
nlohmann::json windowToJson(const WindowRow& w);

/// {"run": {..., "tags": [...]}, "windows": [...], "requests": [...]}; streamed, requests never
/// all in memory.
void exportJson(const RunReader& reader, const RunRow& run, std::ostream& out);
/// A header line, then one line per request with every column; error_class as its name.
void exportCsv(const RunReader& reader, const RunRow& run, std::ostream& out);

/// `damage`: what the database's runs table was found to suffer from, when it was: then the run
/// may be there and unreadable, and the error says so instead of "no run".
inline StoreError runNotFound(const std::string& dbPath, int64_t id,
                              const std::string& damage = "") {
  if (!damage.empty())
    return StoreError::damaged(
        dbPath, "runs table: " + damage,
        "run " + std::to_string(id) + " could not be read; " + kDamageStillReadable);
  return StoreError(dbPath, "finding run " + std::to_string(id), "no run with id " +
                    std::to_string(id), StoreErrorKind::NotFound);
}

}  // namespace plumbline::store
