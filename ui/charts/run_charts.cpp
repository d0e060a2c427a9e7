#include "ui/charts/run_charts.h"

namespace plumbline::ui::charts {

RunCharts::RunCharts(QWidget* parent) : QWidget(parent) {}
void RunCharts::clear() {}
void RunCharts::setWindows(const std::vector<store::WindowRow>&) {}
void RunCharts::appendWindow(const store::WindowRow&) {}
void RunCharts::appendTick(const live::LiveTick&) {}
bool RunCharts::exportTo(const QString&) const { return false; }

}  // namespace plumbline::ui::charts
