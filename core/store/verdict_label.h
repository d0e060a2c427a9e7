#pragma once
#include <string>

#include "core/store/run_row.h"

namespace plumbline::store {

/// A run's verdict as one short label for places with no status column (the studio's History
/// table, Compare's run pickers): the stored verdict for a complete run; a run that did not
/// finish says so first, in `runs list`'s status word ("incomplete · kept_up until stopped":
/// judged on what was planned before the stop); a run with no verdict its status ("running").
std::string verdictLabel(const RunRow& run);

}  // namespace plumbline::store
