#pragma once
#include <string>

namespace plumbline::store {

/// $XDG_DATA_HOME/plumbline/runs.db, else $HOME/.local/share/plumbline/runs.db
/// (relative "runs.db" when neither is set).
std::string defaultDatabasePath();

}  // namespace plumbline::store
