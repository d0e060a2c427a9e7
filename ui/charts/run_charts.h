#pragma once
#include <QWidget>
#include <vector>

#include "core/live/live_messages.h"
#include "core/store/window_row.h"

namespace plumbline::ui::charts {

/// The run's chart grid, shared by the live view and a run opened from history:
/// requested vs achieved rate (headline), TTFT / inter-token / end-to-end p50 and p99 over
/// time (service view and from the planned time), output tokens/s, in-flight, errors by
/// class, send lag, worker CPU. Series are bounded windows decimated keeping min and max;
/// redraws are coalesced (≤ 25/s).
class RunCharts : public QWidget {
  Q_OBJECT
 public:
  explicit RunCharts(QWidget* parent = nullptr);

  void clear();
  /// A whole stored run (history): replaces everything shown.
  void setWindows(const std::vector<store::WindowRow>& windows);
  /// Live: a final window, and the provisional 250 ms ticks between windows.
  void appendWindow(const store::WindowRow& window);
  void appendTick(const live::LiveTick& tick);
  /// Renders the whole grid to a PNG or SVG file (by extension); false on failure.
  bool exportTo(const QString& path) const;
};

}  // namespace plumbline::ui::charts
