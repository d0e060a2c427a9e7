#pragma once
// A file holding a given text under /tmp, removed when it goes out of scope.
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

namespace plumbline::testing {

struct TempTextFile {
  explicit TempTextFile(const std::string& text) {
    char tmpl[] = "/tmp/plumbline-test-XXXXXX";
    const int fd = mkstemp(tmpl);
    path = tmpl;
    close(fd);
    std::ofstream(path) << text;
  }
  ~TempTextFile() { unlink(path.c_str()); }
  TempTextFile(const TempTextFile&) = delete;
  TempTextFile& operator=(const TempTextFile&) = delete;
  std::string path;
};

}  // namespace plumbline::testing
