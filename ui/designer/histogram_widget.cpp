#include "ui/designer/histogram_widget.h"

#include <QPainter>

#include <algorithm>

namespace plumbline::ui::designer {

HistogramWidget::HistogramWidget(QWidget* parent) : QWidget(parent) {
  setMinimumSize(240, 120);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void HistogramWidget::setHistogram(const workload::LengthHistogram& histogram, const QString& unit) {
  m_histogram = histogram;
  m_unit = unit;
  m_empty.clear();
  update();
}

void HistogramWidget::clear(const QString& why) {
  m_histogram = {};
  m_empty = why;
  update();
}

QString HistogramWidget::summary() const {
  if (m_histogram.draws == 0) return m_empty;
  return QStringLiteral("p50 %1 · p90 %2 · p99 %3 · mean %4 %5 (%6 draws)")
      .arg(m_histogram.p50)
      .arg(m_histogram.p90)
      .arg(m_histogram.p99)
      .arg(m_histogram.mean, 0, 'f', 1)
      .arg(m_unit)
      .arg(m_histogram.draws);
}

void HistogramWidget::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  p.fillRect(rect(), palette().base());
  const QFontMetrics fm(font());
  const QRect plot = rect().adjusted(8, fm.height() + 6, -8, -fm.height() - 6);
  if (m_histogram.bins.empty()) {
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, m_empty);
    return;
  }
  uint64_t peak = 1;
  for (const auto& bin : m_histogram.bins) peak = std::max(peak, bin.count);
  const double low = m_histogram.bins.front().low, high = m_histogram.bins.back().high;
  auto xOf = [&](double v) { return plot.left() + (v - low) / (high - low) * plot.width(); };
  p.setPen(Qt::NoPen);
  p.setBrush(QColor(0x3a, 0x7b, 0xd5));
  for (const auto& bin : m_histogram.bins) {
    const double h = static_cast<double>(bin.count) / static_cast<double>(peak) * plot.height();
    p.drawRect(QRectF(xOf(bin.low), plot.bottom() - h, std::max(1.0, xOf(bin.high) - xOf(bin.low) - 1), h));
  }
  const struct {
    const char* label;
    uint32_t value;
  } marks[] = {{"p50", m_histogram.p50}, {"p90", m_histogram.p90}, {"p99", m_histogram.p99}};
  p.setPen(QPen(QColor(0xc0, 0x39, 0x2b), 1, Qt::DashLine));
  for (const auto& mark : marks) {
    const double x = std::clamp(xOf(mark.value + 0.5), double(plot.left()), double(plot.right()));
    p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
  }
  p.setPen(palette().color(QPalette::Text));
  p.drawText(QRect(plot.left(), plot.bottom() + 3, plot.width(), fm.height()), Qt::AlignLeft,
             QString::number(m_histogram.min));
  p.drawText(QRect(plot.left(), plot.bottom() + 3, plot.width(), fm.height()), Qt::AlignRight,
             (m_histogram.tailFolded ? QStringLiteral("≥ %1 (to %2) ").arg(static_cast<int>(m_histogram.bins.back().low)).arg(m_histogram.max)
                                     : QString::number(m_histogram.max) + QLatin1Char(' ')) + m_unit);
  p.drawText(QRect(plot.left(), 2, plot.width(), fm.height()), Qt::AlignLeft, summary());
}

}  // namespace plumbline::ui::designer
