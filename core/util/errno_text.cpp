#include "core/util/errno_text.h"

#include <cstring>

namespace plumbline::util {

std::string errnoText(int err) {
  char buf[128];
  // GNU strerror_r: returns the text, in buf or in a static string.
  std::string out = strerror_r(err, buf, sizeof buf);
  if (const char* name = strerrorname_np(err); name != nullptr)
    out += std::string(" (") + name + ")";
  return out;
}

}  // namespace plumbline::util
