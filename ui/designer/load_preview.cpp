#include "ui/designer/load_preview.h"

#include "core/workload/workload_error.h"
#include "core/workload/workload_loader.h"

namespace plumbline::ui::designer {
namespace {

/// More arrivals than this are not drawn one by one: the histogram would look the same.
constexpr size_t kMaxArrivals = 1'000'000;

std::optional<workload::WorkloadSpec> loadOnlySpec(const OrderedJson& document, bool filesBeingRead,
                                                   QString& error) {
  nlohmann::json skeleton = nlohmann::json::parse(R"({"plumbline": 1, "name": "load preview",
      "requests": {"input_tokens": {"dist": "fixed", "value": 1},
                   "output_tokens": {"dist": "fixed", "value": 1}}})");
  const OrderedJson* load = JsonPath("load").find(document);
  if (!load) {
    error = QStringLiteral("no load yet");
    return std::nullopt;
  }
  // A replay's arrivals are its file's: read by the validation, off the GUI thread, and never
  // here (a first read takes up to seconds; a relative path would resolve against the studio's
  // folder, not the workload's).
  if (JsonPath("load.trace").find(document) || stringAt(document, "load.arrival") == "trace") {
    error = filesBeingRead
                ? QStringLiteral("the trace's arrivals are drawn once its file is read")
                : QStringLiteral("the trace's arrivals are drawn once the workload is valid");
    return std::nullopt;
  }
  skeleton["load"] = nlohmann::json::parse(load->dump());
  try {
    return workload::parseWorkload(skeleton);
  } catch (const workload::WorkloadError& e) {
    error = QString::fromStdString(e.what());
    return std::nullopt;
  }
}

}  // namespace

LoadPreview previewLoad(const OrderedJson& document,
                        const std::optional<workload::WorkloadSpec>& spec, bool filesBeingRead) {
  LoadPreview out;
  std::optional<workload::WorkloadSpec> own;
  if (!spec) own = loadOnlySpec(document, filesBeingRead, out.error);
  const workload::WorkloadSpec* use = spec ? &*spec : (own ? &*own : nullptr);
  if (!use) return out;
  out.planned = workload::plannedRateCurve(use->load);
  const std::vector<double> arrivals = workload::plannedArrivals(*use, kMaxArrivals);
  out.durationS = use->totalDurationS();
  if (!(out.durationS > 0) && !arrivals.empty()) out.durationS = arrivals.back();  // a trace
  if (!(out.durationS > 0)) {
    out.error = QStringLiteral("the profile has no duration");
    return out;
  }
  out.binS = workload::niceBinWidth(out.durationS, 60);  // bars wide enough to read
  out.arrivals = workload::arrivalHistogram(arrivals, out.durationS, out.binS);
  double peak = 0;
  for (const auto& point : out.planned) peak = std::max(peak, point.rate);
  // A trace's planned curve is its mean rate (QA 23b: "peak 2.47/s" under bars reaching 23/s):
  // its peak is the busiest bar's.
  QString rate = QStringLiteral("peak %1 sessions/s").arg(peak, 0, 'g', 4);
  if (use->load.arrival == workload::Arrival::Trace) {
    double busiest = 0;
    for (const auto& bar : out.arrivals) busiest = std::max(busiest, bar.rate);
    rate = QStringLiteral("mean %1 sessions/s, busiest %2 s: %3 sessions/s")
               .arg(peak, 0, 'g', 4)
               .arg(out.binS, 0, 'g', 4)
               .arg(busiest, 0, 'g', 4);
  }
  out.caption =
      QStringLiteral("%1 sessions over %2 s · %3%4")
          .arg(arrivals.size() >= kMaxArrivals ? QStringLiteral("≥ %1").arg(kMaxArrivals)
                                               : QString::number(arrivals.size()))
          .arg(out.durationS, 0, 'g', 6)
          .arg(rate)
          .arg(arrivals.size() >= kMaxArrivals ? QStringLiteral(" (bars: first 1e6)") : QString());
  return out;
}

}  // namespace plumbline::ui::designer
