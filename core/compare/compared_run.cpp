#include "core/compare/compared_run.h"

#include "core/metrics/run_summary.h"
#include "core/store/run_export.h"
#include "core/util/label_text.h"

namespace plumbline::compare {

namespace {
nlohmann::json parsedOrNull(const std::optional<std::string>& text) {
  if (!text || text->empty()) return nullptr;
  nlohmann::json j = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  return j.is_discarded() ? nlohmann::json(nullptr) : j;
}
}  // namespace

std::string ComparedRun::label() const {
  // An older database may hold control characters or ill-formed UTF-8 in a name.
  return "#" + std::to_string(row.id) + " " +
         util::terminalSafe(row.name.empty() ? row.workloadName : row.name);
}

std::optional<double> ComparedRun::summaryNumber(const std::string& key,
                                                 const std::string& sub) const {
  if (!summary.is_object()) return std::nullopt;
  auto it = summary.find(key);
  if (it == summary.end()) return std::nullopt;
  const nlohmann::json* v = &*it;
  if (!sub.empty()) {
    if (!v->is_object()) return std::nullopt;
    auto s = v->find(sub);
    if (s == v->end()) return std::nullopt;
    // Percentiles of no values (no request got that far) are not figures to compare.
    if (metrics::Percentiles::emptyJson(*v)) return std::nullopt;
    v = &*s;
  }
  if (!v->is_number()) return std::nullopt;
  return v->get<double>();
}

nlohmann::json ComparedRun::specAt(const std::string& pointer) const {
  nlohmann::json::json_pointer p(pointer);
  if (!spec.is_object() || !spec.contains(p)) return nullptr;
  return spec.at(p);
}

ComparedRun ComparedRun::load(const store::RunReader& reader, int64_t id) {
  std::optional<store::RunRow> row = reader.getRun(id);
  if (!row) throw store::runNotFound(reader.path(), id, reader.damage());
  ComparedRun run;
  run.row = std::move(*row);
  run.spec = parsedOrNull(run.row.specJson);
  run.summary = parsedOrNull(run.row.summaryJson);
  run.tags = reader.tags(id);
  return run;
}

}  // namespace plumbline::compare
