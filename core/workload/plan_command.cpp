#include "core/workload/plan_command.h"

#include <ostream>

#include "core/workload/plan_preview.h"
#include "core/workload/workload_loader.h"

namespace plumbline::workload {

int planCommand(const std::string& path, bool json, std::ostream& out, std::ostream& err) {
  try {
    const WorkloadSpec spec = loadWorkloadFile(path);
    const PlanPreview preview = buildPreview(spec);
    if (json) {
      out << previewJson(preview, spec).dump(2) << '\n';
    } else {
      out << formatPreview(preview, spec);
    }
    return 0;
  } catch (const WorkloadError& e) {
    err << "plumbline plan: invalid workload " << path << ": " << e.what() << '\n';
    return 2;
  }
}

}  // namespace plumbline::workload
