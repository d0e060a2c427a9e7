#pragma once
#include <stdexcept>
#include <string>

namespace plumbline::tokenizer {

/// A tokenizer file that cannot be used. what() is "FILE: JSON.PATH: REASON" on one line, e.g.
/// "tokenizer.json: model.merges[12]: expected two symbols".
class TokenizerError : public std::runtime_error {
 public:
  TokenizerError(std::string file, std::string path, std::string reason)
      : std::runtime_error(file + ": " + (path.empty() ? "" : path + ": ") + reason),
        m_file(std::move(file)),
        m_path(std::move(path)),
        m_reason(std::move(reason)) {}
  const std::string& file() const { return m_file; }
  const std::string& path() const { return m_path; }
  const std::string& reason() const { return m_reason; }

 private:
  std::string m_file;
  std::string m_path;
  std::string m_reason;
};

}  // namespace plumbline::tokenizer
