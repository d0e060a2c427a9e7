#include "core/engine/diagnostic_switches.h"

#include <cstdlib>
#include <stdexcept>

#include "core/engine/spin_margin.h"
#include "core/net/arrival_stamp.h"

namespace plumbline::engine {

std::string diagnosticSwitchesError() {
  try {
    for (const char* name : {kArrivalStampsEnv, kMockArrivalEnv}) (void)net::arrivalStampsFromEnv(name, std::getenv(name));
    for (const char* name : {kWorkerSpinEnv, kMockSpinEnv}) (void)SpinMargin::fixedMarginFromEnv(name, std::getenv(name));
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return {};
}

}  // namespace plumbline::engine
