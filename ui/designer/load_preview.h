#pragma once
#include <QString>

#include <optional>
#include <vector>

#include "core/workload/rate_curve.h"
#include "core/workload/workload_spec.h"
#include "ui/designer/json_path.h"

namespace plumbline::ui::designer {

/// What the load chart draws: the planned rate and the arrivals the planner places.
struct LoadPreview {
  std::vector<workload::RatePoint> planned, arrivals;
  double binS = 1, durationS = 0;
  QString caption;
  QString error;  ///< why there is nothing to draw
};

/// From the validated spec when there is one; otherwise from the document's "load" alone
/// (with one-token requests standing in), so the profile stays live while another field is wrong; a
/// trace replay's, whose arrivals are the file's, only from the validated spec (and until then
/// it says what it waits for: the file being read, or a valid workload).
LoadPreview previewLoad(const OrderedJson& document,
                        const std::optional<workload::WorkloadSpec>& spec,
                        bool filesBeingRead = false);

}  // namespace plumbline::ui::designer
