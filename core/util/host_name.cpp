#include "core/util/host_name.h"

#include <unistd.h>

namespace plumbline::util {

std::string hostName() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return {};
  return buf;
}

}  // namespace plumbline::util
