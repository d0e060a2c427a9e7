#include "core/store/run_editor.h"

#include "core/store/run_reader.h"
#include "core/store/store_error.h"

namespace plumbline::store {

namespace {

std::string runLabel(int64_t id) { return "run " + std::to_string(id); }

}  // namespace

RunEditor::RunEditor(const std::string& dbPath)
    : m_db(Database::open(dbPath, Database::Mode::ReadWrite)) {}

void RunEditor::requireRun(int64_t runId, const std::string& operation) const {
  Statement s = m_db.prepare("SELECT 1 FROM runs WHERE id = ?");
  s.bindInt(1, runId);
  if (!s.step())
    throw StoreError(m_db.path(), operation, "no run with id " + std::to_string(runId),
                     StoreErrorKind::NotFound);
}

void RunEditor::rename(int64_t runId, const std::string& name) {
  const std::string op = "renaming " + runLabel(runId);
  std::string clean = util::trimmedLabel(name);
  if (const std::string why = util::labelProblem(clean, kMaxNameLength); !why.empty())
    throw StoreError(m_db.path(), op, "the name " + why, StoreErrorKind::InvalidInput);
  requireRun(runId, op);
  m_db.prepare("UPDATE runs SET name = ? WHERE id = ?").bindText(1, clean).bindInt(2, runId).run();
}

void RunEditor::setNotes(int64_t runId, const std::string& notes) {
  const std::string op = "setting the notes of " + runLabel(runId);
  if (const std::string why = util::notesProblem(notes); !why.empty())
    throw StoreError(m_db.path(), op, "the notes " + why, StoreErrorKind::InvalidInput);
  requireRun(runId, op);
  Statement s = m_db.prepare("UPDATE runs SET notes = ? WHERE id = ?");
  if (util::trimmedLabel(notes).empty())
    s.bindNull(1);
  else s.bindText(1, notes);
  s.bindInt(2, runId).run();
}

std::string RunEditor::normalizeTag(const std::string& tag, const std::string& dbPath) {
  const std::string op = "tag '" + tag + "'";
  std::string clean = util::trimmedLabel(tag);
  auto bad = [&](const std::string& why) {
    return StoreError(dbPath, op, why, StoreErrorKind::InvalidInput);
  };
  if (clean.find(',') != std::string::npos) throw bad("a tag cannot contain a comma");
  if (const std::string why = util::labelProblem(clean, kMaxTagLength); !why.empty())
    throw bad("a tag " + why);
  return clean;
}

void RunEditor::addTag(int64_t runId, const std::string& tag) {
  std::string clean = normalizeTag(tag, m_db.path());
  requireRun(runId, "tagging " + runLabel(runId));
  m_db.prepare("INSERT OR IGNORE INTO tags (run_id, tag) VALUES (?, ?)")
      .bindInt(1, runId)
      .bindText(2, clean)
      .run();
}

void RunEditor::removeTag(int64_t runId, const std::string& tag) {
  std::string clean = normalizeTag(tag, m_db.path());
  const std::string op = "removing tag '" + clean + "' from " + runLabel(runId);
  requireRun(runId, op);
  Statement s = m_db.prepare("DELETE FROM tags WHERE run_id = ? AND tag = ? RETURNING 1");
  s.bindInt(1, runId).bindText(2, clean);
  if (!s.step())
    throw StoreError(m_db.path(), op, "the run has no such tag", StoreErrorKind::NotFound);
  while (s.step()) {
  }
}

void RunEditor::addTags(int64_t runId, const std::vector<std::string>& tags) {
  for (const std::string& tag : tags) normalizeTag(tag, m_db.path());
  Transaction tx(m_db, /*immediate=*/true);
  for (const std::string& tag : tags) addTag(runId, tag);
  tx.commit();
}

void RunEditor::removeTags(int64_t runId, const std::vector<std::string>& tags) {
  for (const std::string& tag : tags) normalizeTag(tag, m_db.path());
  Transaction tx(m_db, /*immediate=*/true);
  for (const std::string& tag : tags) removeTag(runId, tag);
  tx.commit();
}

void RunEditor::deleteRun(int64_t runId) {
  const std::string op = "deleting " + runLabel(runId);
  Transaction tx(m_db, /*immediate=*/true);
  Statement s =
      m_db.prepare("SELECT status, coordinator_pid, host, t0_wall_ns FROM runs WHERE id = ?");
  s.bindInt(1, runId);
  if (!s.step())
    throw StoreError(m_db.path(), op, "no run with id " + std::to_string(runId),
                     StoreErrorKind::NotFound);
  if (RunReader::effectiveStatus(s.columnText(0), s.columnInt(1), s.columnText(2),
                                 s.columnInt(3)) == "running")
    throw StoreError(m_db.path(), op,
                     "the run is still being recorded (coordinator pid " +
                         std::to_string(s.columnInt(1)) + "); stop it first",
                     StoreErrorKind::InvalidInput);
  s.reset();
  // Explicit deletes: a database opened without foreign keys would not cascade.
  for (const char* table : {"requests", "windows", "histograms", "tags"})
    m_db.prepare(std::string("DELETE FROM ") + table + " WHERE run_id = ?").bindInt(1, runId).run();
  m_db.prepare("DELETE FROM runs WHERE id = ?").bindInt(1, runId).run();
  tx.commit();
}

}  // namespace plumbline::store
