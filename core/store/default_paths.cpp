#include "core/store/default_paths.h"

#include <cstdlib>

namespace plumbline::store {

std::string defaultDatabasePath() {
  // XDG Base Directory spec: an empty or relative XDG_DATA_HOME is ignored.
  if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && xdg[0] == '/')
    return std::string(xdg) + "/plumbline/runs.db";
  if (const char* home = std::getenv("HOME"); home && home[0] != '\0')
    return std::string(home) + "/.local/share/plumbline/runs.db";
  return "runs.db";
}

}  // namespace plumbline::store
