#include "ui/designer/histogram_widget.h"

#include <QPainter>

#include <algorithm>

namespace plumbline::ui::designer {

HistogramWidget::HistogramWidget(QWidget* parent) : QWidget(parent) {
  setMinimumSize(240, 120);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

namespace {

/// Either core histogram as drawn: both have bins, draws, min, max, p50/p90/p99 and mean.
template <typename CoreHistogram>
HistogramWidget::Shown shownOf(const CoreHistogram& h, bool whole) {
  HistogramWidget::Shown shown;
  for (const auto& bin : h.bins) shown.bins.push_back({bin.low, bin.high, bin.count});
  shown.draws = h.draws;
  shown.tailFolded = h.tailFolded;
  shown.whole = whole;
  shown.min = h.min;
  shown.max = h.max;
  shown.p50 = h.p50;
  shown.p90 = h.p90;
  shown.p99 = h.p99;
  shown.mean = h.mean;
  return shown;
}

}  // namespace

void HistogramWidget::setHistogram(const workload::LengthHistogram& h, const QString& unit,
                                   const QString& counted) {
  m_shown = shownOf(h, true);
  m_unit = unit;
  m_counted = counted;
  m_empty.clear();
  update();
}

void HistogramWidget::setHistogram(const workload::SecondsHistogram& h) {
  m_shown = shownOf(h, false);
  m_unit = QStringLiteral("s");
  m_counted = QStringLiteral("draws");
  m_empty.clear();
  update();
}

void HistogramWidget::clear(const QString& why) {
  m_shown = {};
  m_empty = why;
  update();
}

QString HistogramWidget::format(double v) const {
  return m_shown.whole ? QString::number(static_cast<qint64>(v)) : QString::number(v, 'g', 3);
}

QString HistogramWidget::summary() const {
  if (m_shown.draws == 0) return m_empty;
  return QStringLiteral("p50 %1 · p90 %2 · p99 %3 · mean %4 %5 (%6 %7)")
      .arg(format(m_shown.p50), format(m_shown.p90), format(m_shown.p99),
           m_shown.whole ? QString::number(m_shown.mean, 'f', 1)
                         : QString::number(m_shown.mean, 'g', 3),
           m_unit)
      .arg(m_shown.draws)
      .arg(m_counted);
}

void HistogramWidget::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  p.fillRect(rect(), palette().base());
  const QFontMetrics fm(font());
  // The summary wraps (at "·") when the widget is narrower than its one line.
  const QString text = summary();
  const int textHeight = fm.boundingRect(rect().adjusted(8, 0, -8, 0), Qt::TextWordWrap, text).height();
  const QRect plot = rect().adjusted(8, textHeight + 6, -8, -fm.height() - 6);
  if (m_shown.bins.empty()) {
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, m_empty);
    return;
  }
  uint64_t peak = 1;
  for (const auto& bin : m_shown.bins) peak = std::max(peak, bin.count);
  const double low = m_shown.bins.front().low, high = m_shown.bins.back().high;
  auto xOf = [&](double v) { return plot.left() + (v - low) / (high - low) * plot.width(); };
  p.setPen(Qt::NoPen);
  p.setBrush(QColor(0x3a, 0x7b, 0xd5));
  for (const auto& bin : m_shown.bins) {
    const double h = static_cast<double>(bin.count) / static_cast<double>(peak) * plot.height();
    p.drawRect(QRectF(xOf(bin.low), plot.bottom() - h, std::max(1.0, xOf(bin.high) - xOf(bin.low) - 1), h));
  }
  const struct {
    const char* label;
    double value;
  } marks[] = {{"p50", m_shown.p50}, {"p90", m_shown.p90}, {"p99", m_shown.p99}};
  p.setPen(QPen(QColor(0xc0, 0x39, 0x2b), 1, Qt::DashLine));
  for (const auto& mark : marks) {
    const double x = std::clamp(xOf(m_shown.whole ? mark.value + 0.5 : mark.value), double(plot.left()), double(plot.right()));
    p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
  }
  p.setPen(palette().color(QPalette::Text));
  p.drawText(QRect(plot.left(), plot.bottom() + 3, plot.width(), fm.height()), Qt::AlignLeft,
             format(m_shown.min));
  p.drawText(QRect(plot.left(), plot.bottom() + 3, plot.width(), fm.height()), Qt::AlignRight,
             (m_shown.tailFolded ? QStringLiteral("≥ %1 (to %2) ").arg(format(m_shown.bins.back().low), format(m_shown.max))
                                     : format(m_shown.max) + QLatin1Char(' ')) + m_unit);
  p.drawText(QRect(plot.left(), 2, plot.width(), textHeight), Qt::AlignLeft | Qt::TextWordWrap, text);
}

}  // namespace plumbline::ui::designer
