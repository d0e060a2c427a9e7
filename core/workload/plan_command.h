#pragma once
#include <iosfwd>
#include <string>

namespace plumbline::workload {

/// `plumbline plan FILE [--json]`: validates and prints what would be sent; sends nothing.
/// Returns 0, or 2 with "FILE: PATH: REASON" on err for an invalid workload.
int planCommand(const std::string& path, bool json, std::ostream& out, std::ostream& err);

}  // namespace plumbline::workload
