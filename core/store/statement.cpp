#include "core/store/statement.h"

#include <sqlite3.h>

#include <utility>

#include "core/store/sqlite_failure.h"
#include "core/store/store_error.h"

namespace plumbline::store {

Statement::Statement(sqlite3* db, std::string_view sql, std::string path)
    : m_db(db), m_path(std::move(path)) {
  int rc = sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &m_stmt, nullptr);
  if (rc != SQLITE_OK) throw sqliteFailure(m_path, db, rc);
}

Statement::~Statement() { sqlite3_finalize(m_stmt); }

Statement::Statement(Statement&& other) noexcept
    : m_db(std::exchange(other.m_db, nullptr)),
      m_stmt(std::exchange(other.m_stmt, nullptr)),
      m_path(std::move(other.m_path)) {}

Statement& Statement::operator=(Statement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(m_stmt);
    m_db = std::exchange(other.m_db, nullptr);
    m_stmt = std::exchange(other.m_stmt, nullptr);
    m_path = std::move(other.m_path);
  }
  return *this;
}

void Statement::fail(int rc) const { throw sqliteFailure(m_path, m_db, rc); }

Statement& Statement::bindInt(int index, int64_t value) {
  if (int rc = sqlite3_bind_int64(m_stmt, index, value); rc != SQLITE_OK) fail(rc);
  return *this;
}

Statement& Statement::bindDouble(int index, double value) {
  if (int rc = sqlite3_bind_double(m_stmt, index, value); rc != SQLITE_OK) fail(rc);
  return *this;
}

Statement& Statement::bindDouble(int index, const std::optional<double>& value) {
  return value ? bindDouble(index, *value) : bindNull(index);
}

Statement& Statement::bindText(int index, std::string_view value) {
  int rc = sqlite3_bind_text64(m_stmt, index, value.data(), value.size(), SQLITE_TRANSIENT,
                               SQLITE_UTF8);
  if (rc != SQLITE_OK) fail(rc);
  return *this;
}

Statement& Statement::bindBlob(int index, std::string_view bytes) {
  int rc = sqlite3_bind_blob64(m_stmt, index, bytes.data(), bytes.size(), SQLITE_TRANSIENT);
  if (rc != SQLITE_OK) fail(rc);
  return *this;
}

Statement& Statement::bindNull(int index) {
  if (int rc = sqlite3_bind_null(m_stmt, index); rc != SQLITE_OK) fail(rc);
  return *this;
}

bool Statement::step() {
  int rc = sqlite3_step(m_stmt);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  // The statement is reset before the error is thrown (fail reads the message first), so a
  // caller that retries (a lock waited out) can bind it again.
  try {
    fail(rc);
  } catch (...) {
    sqlite3_reset(m_stmt);
    throw;
  }
}

void Statement::run() {
  while (step()) {
  }
  reset();
}

void Statement::reset() {
  sqlite3_reset(m_stmt);
  sqlite3_clear_bindings(m_stmt);
}

bool Statement::isNull(int column) const {
  return sqlite3_column_type(m_stmt, column) == SQLITE_NULL;
}

int64_t Statement::columnInt(int column) const { return sqlite3_column_int64(m_stmt, column); }

double Statement::columnDouble(int column) const { return sqlite3_column_double(m_stmt, column); }

std::string Statement::columnText(int column) const {
  const auto* p = sqlite3_column_text(m_stmt, column);
  int n = sqlite3_column_bytes(m_stmt, column);
  return p ? std::string(reinterpret_cast<const char*>(p), static_cast<size_t>(n)) : std::string();
}

std::string Statement::columnBlob(int column) const {
  const void* p = sqlite3_column_blob(m_stmt, column);
  int n = sqlite3_column_bytes(m_stmt, column);
  return p ? std::string(static_cast<const char*>(p), static_cast<size_t>(n)) : std::string();
}

}  // namespace plumbline::store
