#pragma once
#include <string>

namespace plumbline::metrics {

/// A latency in ms as the reports print it: four significant digits, never fewer than a
/// microsecond's (0.008, 50.20, 652.2, 1221). The histogram holds a value to within 1/128 of
/// it (LatencyHistogram), so more digits would claim a precision the figure does not have.
std::string latencyMsText(double ms);

}  // namespace plumbline::metrics
