#pragma once
#include <QString>

namespace plumbline::ui {

/// What every view of the studio needs to know about its surroundings.
struct StudioContext {
  QString dbPath;          ///< the runs database (core/store); default: core's default path
  QString plumblineBin;    ///< the `plumbline` binary used to launch runs
  QString catalogDir;      ///< the shipped workloads/ folder
  QString userWorkloadDir; ///< the user's own workloads (created on first save)
};

}  // namespace plumbline::ui
