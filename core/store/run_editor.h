#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/store/database.h"
#include "core/util/label_text.h"

namespace plumbline::store {

/// Changes what a person may change about a recorded run: its name, notes and tags, or the
/// whole run. Never touches measurements. Every error is a StoreError naming the database
/// and the run: NotFound for an unknown id, InvalidInput for a bad name or tag or for
/// deleting a run that is still being recorded.
class RunEditor {
 public:
  static constexpr size_t kMaxNameLength = util::kMaxNameCharacters;
  static constexpr size_t kMaxTagLength = 64;

  /// Opens (creating or migrating) the database for writing.
  explicit RunEditor(const std::string& dbPath);

  /// A name of 1..kMaxNameLength characters (code points) after trimming: valid UTF-8, no
  /// control character (util::labelProblem).
  void rename(int64_t runId, const std::string& name);
  /// Empty notes clear them. Valid UTF-8; newline and tab, no other control character.
  void setNotes(int64_t runId, const std::string& notes);
  /// Tags are trimmed, 1..kMaxTagLength characters, valid UTF-8, without commas or control
  /// characters.
  /// Adding a tag the run has is a no-op; removing one it lacks is NotFound.
  void addTag(int64_t runId, const std::string& tag);
  void removeTag(int64_t runId, const std::string& tag);
  /// Every tag is checked first, then all are added (removed) in one transaction: a bad tag, or
  /// one to remove that the run lacks, changes nothing.
  void addTags(int64_t runId, const std::vector<std::string>& tags);
  void removeTags(int64_t runId, const std::vector<std::string>& tags);
  /// Deletes the run with its requests, windows, histograms and tags. A run whose
  /// coordinator is still recording it is refused.
  void deleteRun(int64_t runId);

  /// The tag as it will be stored; throws InvalidInput naming the problem.
  static std::string normalizeTag(const std::string& tag, const std::string& dbPath = {});

 private:
  void requireRun(int64_t runId, const std::string& operation) const;

  Database m_db;
};

}  // namespace plumbline::store
