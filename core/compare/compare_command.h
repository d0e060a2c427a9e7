#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "core/compare/goodput.h"

namespace plumbline::compare {

/// `plumbline runs compare ID ID... [--slo-ttft-ms X] [--slo-ttfa-ms A] [--slo-itl-ms Y]
/// [--slo-e2e-ms Z] [--format text|json]`.
/// Returns 0; 2 for 2–4 ids not given, a repeated or unknown id, a bad SLO or format, a
/// missing or foreign database (one line on err naming it); 1 for any other failure.
int runsCompare(const std::string& dbPath, const std::vector<int64_t>& ids, const Slo& slo,
                const std::string& format, std::ostream& out, std::ostream& err);

}  // namespace plumbline::compare
