#include "ui/designer/rate_chart_widget.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>

namespace plumbline::ui::designer {

RateChartWidget::RateChartWidget(QWidget* parent) : QWidget(parent) {
  setMinimumSize(300, 150);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void RateChartWidget::setCurves(std::vector<workload::RatePoint> planned,
                                std::vector<workload::RatePoint> arrivals, double binS,
                                double durationS, const QString& caption) {
  m_planned = std::move(planned);
  m_arrivals = std::move(arrivals);
  m_binS = binS;
  m_durationS = durationS;
  m_caption = caption;
  update();
}

void RateChartWidget::clear(const QString& why) {
  m_planned.clear();
  m_arrivals.clear();
  m_durationS = 0;
  m_caption = why;
  update();
}

void RateChartWidget::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  p.fillRect(rect(), palette().base());
  const QFontMetrics fm(font());
  const int axis = fm.horizontalAdvance(QStringLiteral("00000")) + 6;
  const QRect plot = rect().adjusted(axis, fm.height() + 6, -8, -fm.height() - 6);
  p.setPen(palette().color(QPalette::Text));
  p.drawText(QRect(plot.left(), 2, plot.width(), fm.height()), Qt::AlignLeft, m_caption);
  if (!(m_durationS > 0)) return;
  double peak = 1;
  for (const auto& point : m_planned) peak = std::max(peak, point.rate);
  for (const auto& point : m_arrivals) peak = std::max(peak, point.rate);
  const double topLabel = peak;  // QA 23b: labelled at the top, it read 10 % low
  peak *= 1.1;
  auto xOf = [&](double t) { return plot.left() + t / m_durationS * plot.width(); };
  auto yOf = [&](double r) { return plot.bottom() - r / peak * plot.height(); };

  p.setPen(Qt::NoPen);
  p.setBrush(QColor(0x9e, 0xc5, 0xf0));
  for (const auto& point : m_arrivals) {
    const double x0 = xOf(point.timeS), x1 = xOf(std::min(point.timeS + m_binS, m_durationS));
    p.drawRect(QRectF(QPointF(x0, yOf(point.rate)), QPointF(std::max(x0 + 1, x1), plot.bottom())));
  }
  if (!m_planned.empty()) {
    QPainterPath line;
    line.moveTo(xOf(m_planned.front().timeS), yOf(m_planned.front().rate));
    for (const auto& point : m_planned) line.lineTo(xOf(point.timeS), yOf(point.rate));
    p.setPen(QPen(QColor(0x1a, 0x4f, 0x9c), 2));
    p.setBrush(Qt::NoBrush);
    p.drawPath(line);
  }
  p.setPen(palette().color(QPalette::Mid));
  p.drawLine(plot.bottomLeft(), plot.bottomRight());
  p.drawLine(plot.bottomLeft(), plot.topLeft());
  p.setPen(palette().color(QPalette::Text));
  // The highest value drawn, at its own height (the plot's top is 10 % above it).
  const int labelY = static_cast<int>(yOf(topLabel));
  p.drawLine(QPointF(plot.left() - 3, labelY), QPointF(plot.left(), labelY));
  p.drawText(QRect(0, labelY - fm.height() / 2, axis - 4, fm.height()), Qt::AlignRight,
             QString::number(topLabel, 'g', 4));
  p.drawText(QRect(0, plot.bottom() - fm.height() / 2, axis - 4, fm.height()), Qt::AlignRight,
             QStringLiteral("0"));
  p.drawText(QRect(plot.left(), plot.bottom() + 3, plot.width(), fm.height()), Qt::AlignLeft,
             QStringLiteral("0 s"));
  p.drawText(QRect(plot.left(), plot.bottom() + 3, plot.width(), fm.height()), Qt::AlignRight,
             QString::number(m_durationS, 'g', 6) + QStringLiteral(" s"));
  p.drawText(QRect(plot.left(), plot.bottom() + 3, plot.width(), fm.height()), Qt::AlignHCenter,
             legend());
  p.save();  // the unit up the y-axis, between its two numbers
  p.translate(0, plot.center().y());
  p.rotate(-90);
  p.drawText(QRect(-plot.height() / 2, 0, plot.height(), fm.height()), Qt::AlignHCenter,
             axisUnit());
  p.restore();
}

QString RateChartWidget::legend() const {
  // "arrivals per 0.5 s" read as a count: a bar at 6 was 3 arrivals in its half second.
  return QStringLiteral("line: planned sessions/s · bars: arrivals/s in %1 s bins")
      .arg(m_binS, 0, 'g', 3);
}

}  // namespace plumbline::ui::designer
