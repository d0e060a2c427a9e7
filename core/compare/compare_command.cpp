#include "core/compare/compare_command.h"

#include <cmath>
#include <ostream>
#include <sstream>

#include "core/compare/compare_report.h"
#include "core/compare/comparison.h"
#include "core/store/runs_command.h"
#include "core/store/store_error.h"
#include "core/util/label_text.h"

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
  return store::guardedStoreCommand(err, [&] {
    if (format != "text" && format != "json")
      throw store::StoreError(dbPath, "comparing runs",
                              "unknown format '" + format + "' (use text or json)",
                              store::StoreErrorKind::InvalidInput);
    checkLimit(slo.ttftMs, "--slo-ttft-ms", dbPath);
    checkLimit(slo.ttfaMs, "--slo-ttfa-ms", dbPath);
    checkLimit(slo.itlMs, "--slo-itl-ms", dbPath);
    checkLimit(slo.e2eMs, "--slo-e2e-ms", dbPath);
    checkComparedIds(ids, dbPath);
    store::RunReader reader(dbPath);
    Comparison c = buildComparison(reader, ids, slo);
    if (format == "json") {
      // Ill-formed UTF-8 an older database holds becomes U+FFFD instead of failing mid-output.
      out << comparisonToJson(c).dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
          << '\n';
    } else {
      std::ostringstream text;  // names, models and warnings quoting them reach a terminal
      printComparison(c, text);
      out << util::terminalSafe(text.str(), "\n");
    }
    out.flush();
    return 0;
  });
}

}  // namespace plumbline::compare
