#pragma once
// Finding a run's own child processes (workers, the embedded mock) for tests that kill one.
#include <sys/types.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace plumbline::test {

/// PIDs of the processes whose parent is `parent` and whose command line contains `needle`.
inline std::vector<pid_t> childrenOf(pid_t parent, const std::string& needle) {
  std::vector<pid_t> out;
  std::ifstream children("/proc/" + std::to_string(parent) + "/task/" + std::to_string(parent) + "/children");
  pid_t pid = 0;
  while (children >> pid) {
    std::ifstream cmd("/proc/" + std::to_string(pid) + "/cmdline");
    std::string line((std::istreambuf_iterator<char>(cmd)), std::istreambuf_iterator<char>());
    std::replace(line.begin(), line.end(), '\0', ' ');
    if (line.find(needle) != std::string::npos) out.push_back(pid);
  }
  return out;
}

}  // namespace plumbline::test
