#include "core/compare/compare_command.h"

#include <cmath>
#include <ostream>

#include "core/compare/compare_report.h"
#include "core/compare/comparison.h"
#include "core/store/store_error.h"

namespace plumbline::compare {

namespace {

void checkLimit(const std::optional<double>& v, const char* flag, const std::string& dbPath) {
  if (v && !(std::isfinite(*v) && *v > 0))
    throw store::StoreError(dbPath, "comparing runs",
                            std::string(flag) + " must be a positive number of milliseconds",
                            store::StoreErrorKind::InvalidInput);
}

}  // namespace

int runsCompare(const std::string& dbPath, const std::vector<int64_t>& ids, const Slo& slo,
                const std::string& format, std::ostream& out, std::ostream& err) {
  try {
    if (format != "text" && format != "json")
      throw store::StoreError(dbPath, "comparing runs",
                              "unknown format '" + format + "' (use text or json)",
                              store::StoreErrorKind::InvalidInput);
    checkLimit(slo.ttftMs, "--slo-ttft-ms", dbPath);
    checkLimit(slo.itlMs, "--slo-itl-ms", dbPath);
    checkComparedIds(ids, dbPath);
    store::RunReader reader(dbPath);
    Comparison c = buildComparison(reader, ids, slo);
    if (format == "json") out << comparisonToJson(c).dump(2) << '\n';
    else printComparison(c, out);
    out.flush();
    return 0;
  } catch (const store::StoreError& e) {
    err << e.what() << '\n';
    return e.kind() == store::StoreErrorKind::Failure ? 1 : 2;
  } catch (const std::exception& e) {
    err << e.what() << '\n';
    return 1;
  }
}

}  // namespace plumbline::compare
