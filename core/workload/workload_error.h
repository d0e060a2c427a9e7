#pragma once
#include <stdexcept>
#include <string>

namespace plumbline::workload {

/// Invalid workload input. path is a JSON pointer-like path ("load.stages[1].rate") or
/// the file name for I/O and syntax errors; what() is "PATH: REASON" on one line.
class WorkloadError : public std::runtime_error {
 public:
  WorkloadError(std::string path, std::string reason)
      : std::runtime_error(path + ": " + reason), m_path(std::move(path)), m_reason(std::move(reason)) {}
  const std::string& path() const { return m_path; }
  const std::string& reason() const { return m_reason; }

 private:
  std::string m_path;
  std::string m_reason;
};

}  // namespace plumbline::workload
