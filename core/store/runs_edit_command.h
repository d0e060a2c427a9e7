#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace plumbline::store {

/// `plumbline runs rename | notes | tag | untag | delete`. Exit codes as runs_command.h:
/// 0 ok; 2 for an unknown run, a bad name or tag, a run still recording, a missing or foreign
/// database (one line on err naming it); 1 for any other failure.
int runsRename(const std::string& dbPath, int64_t id, const std::string& name,
               std::ostream& out, std::ostream& err);
int runsNotes(const std::string& dbPath, int64_t id, const std::string& notes,
              std::ostream& out, std::ostream& err);
/// Adds (remove = false) or removes the tags: all of them, or none when one is bad (or, to
/// remove, not on the run).
int runsTag(const std::string& dbPath, int64_t id, const std::vector<std::string>& tags,
            bool remove, std::ostream& out, std::ostream& err);
int runsDelete(const std::string& dbPath, int64_t id, std::ostream& out, std::ostream& err);

}  // namespace plumbline::store
