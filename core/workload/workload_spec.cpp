#include "core/workload/workload_spec.h"

namespace plumbline::workload {

double WorkloadSpec::totalDurationS() const {
  double total = 0;
  for (const Stage& stage : load.stages) total += stage.durationS;
  return total;
}

}  // namespace plumbline::workload
