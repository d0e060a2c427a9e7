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

/// "FILE: PATH: REASON" with the file named once: an error of the file's own text (I/O, syntax)
/// has it in its path already ("w.json:4:23"), the others name a JSON path in it.
inline std::string inWorkloadFile(const std::string& file, const WorkloadError& error) {
  if (error.path().rfind(file, 0) == 0) return error.what();
  return file + ": " + error.what();
}

}  // namespace plumbline::workload
