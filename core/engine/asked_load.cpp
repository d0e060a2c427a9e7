#include "core/engine/asked_load.h"

#include <cstdio>

#include "core/workload/arrival_preview.h"

namespace plumbline::engine {

std::string describeAskedLoad(const workload::WorkloadSpec& spec) {
  const workload::LoadSpec& load = spec.load;
  char buf[256];
  if (load.arrival == workload::Arrival::Trace && load.trace) {
    if (load.trace->timeScale == 1.0)
      return "the trace's own arrival instants (" + load.trace->file + ")";
    std::snprintf(buf, sizeof buf, ", its gaps × %g)", load.trace->timeScale);
    return "the trace's own arrival instants (" + load.trace->file + buf;
  }
  double sessions = 0, durationS = 0;
  for (const workload::Stage& s : load.stages) {
    sessions += (s.startRate + s.endRate) / 2 * s.durationS;  // a ramp is linear
    durationS += s.durationS;
  }
  const bool single = spec.session.kind == workload::SessionShape::Single;
  std::snprintf(buf, sizeof buf, "%s arrivals at %.2f %s/s on average over %.2f s (%zu %s)",
                workload::arrivalName(load.arrival), durationS > 0 ? sessions / durationS : 0.0,
                single ? "requests" : "sessions", durationS, load.stages.size(),
                load.stages.size() == 1 ? "stage" : "stages");
  std::string text = buf;
  if (!single) text += "; session shape " + spec.session.shape + ", several requests each";
  return text;
}

}  // namespace plumbline::engine
