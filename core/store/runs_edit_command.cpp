#include "core/store/runs_edit_command.h"

#include <filesystem>
#include <functional>
#include <ostream>

#include "core/store/run_editor.h"
#include "core/store/runs_command.h"
#include "core/store/store_error.h"

namespace plumbline::store {

namespace {

/// Opens the editor on an existing database only: editing must not create an empty one.
int edit(const std::string& dbPath, std::ostream& err,
         const std::function<void(RunEditor&)>& body) {
  return guardedStoreCommand(err, [&] {
    std::error_code ec;
    if (!std::filesystem::exists(dbPath, ec))
      throw StoreError(dbPath, "opening", "no such file", StoreErrorKind::NotFound);
    RunEditor editor(dbPath);
    body(editor);
    return 0;
  });
}

}  // namespace

int runsRename(const std::string& dbPath, int64_t id, const std::string& name,
               std::ostream& out, std::ostream& err) {
  return edit(dbPath, err, [&](RunEditor& e) {
    e.rename(id, name);
    out << "run " << id << " renamed\n";
  });
}

int runsNotes(const std::string& dbPath, int64_t id, const std::string& notes,
              std::ostream& out, std::ostream& err) {
  return edit(dbPath, err, [&](RunEditor& e) {
    e.setNotes(id, notes);
    out << "run " << id << (notes.empty() ? " notes cleared\n" : " notes set\n");
  });
}

int runsTag(const std::string& dbPath, int64_t id, const std::vector<std::string>& tags,
            bool remove, std::ostream& out, std::ostream& err) {
  return edit(dbPath, err, [&](RunEditor& e) {
    if (remove)
      e.removeTags(id, tags);
    else
      e.addTags(id, tags);
    for (const std::string& tag : tags)
      out << "run " << id << (remove ? " untagged " : " tagged ") << RunEditor::normalizeTag(tag)
          << '\n';
  });
}

int runsDelete(const std::string& dbPath, int64_t id, std::ostream& out, std::ostream& err) {
  return edit(dbPath, err, [&](RunEditor& e) {
    e.deleteRun(id);
    out << "run " << id << " deleted\n";
  });
}

}  // namespace plumbline::store
