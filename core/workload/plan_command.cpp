#include "core/workload/plan_command.h"

#include <new>

#include <ostream>

#include "core/workload/plan_preview.h"
#include "core/workload/workload_loader.h"
#include "core/workload/workload_warnings.h"

namespace plumbline::workload {

int planCommand(const std::string& path, bool json, std::ostream& out, std::ostream& err) {
  try {
    const WorkloadSpec spec = loadWorkloadFile(path);
    const PlanPreview preview = buildPreview(spec);
    const auto warnings = workloadWarnings(spec);
    if (json) {
      nlohmann::json document = previewJson(preview, spec);
      document["warnings"] = warningsJson(warnings);
      out << document.dump(2) << '\n';
    } else {
      out << formatPreview(preview, spec);
      if (!warnings.empty()) out << "\nwarnings\n";
      for (const auto& w : warnings) out << "  " << w.path << ": " << w.message << '\n';
    }
    return 0;
  } catch (const WorkloadError& e) {
    err << "plumbline plan: invalid workload " << inWorkloadFile(path, e) << '\n';
    return 2;
  } catch (const std::bad_alloc&) {
    err << "plumbline plan: " << path << ": out of memory building the preview (a plan this large "
        << "does not fit: lower the rate, the duration or the requests per session)\n";
    return 1;
  }
}

}  // namespace plumbline::workload
