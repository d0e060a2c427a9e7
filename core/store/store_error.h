#pragma once
#include <stdexcept>
#include <string>

namespace plumbline::store {

/// Why a store operation failed; the CLI maps everything but Failure and Busy to exit code 2.
enum class StoreErrorKind {
  Failure,       ///< I/O or SQLite trouble, a bug, a writer error
  NotFound,      ///< the database file or the run does not exist
  NotADatabase,  ///< not SQLite, or not a Plumbline schema
  TooNew,        ///< written by a newer Plumbline (schema version unknown here)
  InvalidInput,  ///< a bad argument (export format, ...), a database file that cannot be used
  Busy,          ///< another connection holds a lock (SQLITE_BUSY / SQLITE_LOCKED) past the timeout
  Damaged,  ///< a Plumbline database with a corrupt page (SQLITE_CORRUPT, a failed quick check)
};

/// The exit code of a command that failed with this: 1 for the tool's or the machine's trouble
/// (a lock held by another process included), 2 for input a person can correct.
inline int exitCodeOf(StoreErrorKind kind) {
  return kind == StoreErrorKind::Failure || kind == StoreErrorKind::Busy ? 1 : 2;
}

/// What a damaged database may still give, said after every report of damage.
inline constexpr const char* kDamageStillReadable =
    "runs stored before the damage may still be readable with runs show ID";

/// Every error of core/store. what() is one line naming the file, never quoting SQL: "PATH:
/// OPERATION: REASON", "PATH is not a Plumbline database: REASON", "the database PATH is damaged
/// (FINDING); WHAT IT MEANS", or a sentence naming the file ("the database file PATH is
/// read-only").
class StoreError : public std::runtime_error {
 public:
  StoreError(std::string path, const std::string& operation, const std::string& reason,
             StoreErrorKind kind = StoreErrorKind::Failure)
      : std::runtime_error(path + ": " + operation + ": " + reason),
        m_path(std::move(path)),
        m_kind(kind) {}

  static StoreError notADatabase(const std::string& path, const std::string& reason) {
    return described(path, path + " is not a Plumbline database: " + reason,
                     StoreErrorKind::NotADatabase);
  }

  /// `finding`: what SQLite found wrong; `consequence`: what it means for the command.
  static StoreError damaged(const std::string& path, const std::string& finding,
                            const std::string& consequence = kDamageStillReadable) {
    return described(path, "the database " + path + " is damaged (" + finding + "); " + consequence,
                     StoreErrorKind::Damaged);
  }

  /// `sentence` names the file itself.
  static StoreError described(const std::string& path, const std::string& sentence,
                              StoreErrorKind kind) {
    return StoreError(path, sentence, kind);
  }

  const std::string& path() const { return m_path; }
  StoreErrorKind kind() const { return m_kind; }

 private:
  StoreError(std::string path, const std::string& message, StoreErrorKind kind)
      : std::runtime_error(message), m_path(std::move(path)), m_kind(kind) {}

  std::string m_path;
  StoreErrorKind m_kind;
};

}  // namespace plumbline::store
