#include "ui/designer/session_picture_widget.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace plumbline::ui::designer {
namespace {

/// Beyond this many nodes in a row the picture says "…" rather than shrinking boxes to dots.
constexpr int kMaxDrawn = 6;
const QColor kLlm(0x3a, 0x7b, 0xd5);
const QColor kTool(0xe0, 0x8e, 0x2b);

void box(QPainter& p, const QRectF& r, const QColor& colour, const QString& text) {
  p.setPen(colour.darker(130));
  p.setBrush(colour.lighter(160));
  p.drawRoundedRect(r, 4, 4);
  p.setPen(Qt::black);
  p.drawText(r, Qt::AlignCenter, text);
}

void arrow(QPainter& p, QPointF a, QPointF b) {
  p.setPen(QPen(Qt::darkGray, 1.2));
  p.drawLine(a, b);
  const double angle = std::atan2(b.y() - a.y(), b.x() - a.x());
  const QPointF left = b - QPointF(std::cos(angle - 0.4) * 7, std::sin(angle - 0.4) * 7);
  const QPointF right = b - QPointF(std::cos(angle + 0.4) * 7, std::sin(angle + 0.4) * 7);
  p.drawLine(b, left);
  p.drawLine(b, right);
}

}  // namespace

SessionPictureWidget::SessionPictureWidget(QWidget* parent) : QWidget(parent) {
  setMinimumSize(320, 170);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void SessionPictureWidget::setPreview(const workload::SessionPreview& preview) {
  m_preview = preview;
  m_valid = true;
  m_caption = QStringLiteral("per session: %1 requests · %2 input tokens · %3 output tokens")
                  .arg(preview.requests, 0, 'f', 2)
                  .arg(preview.inputTokens, 0, 'f', 0)
                  .arg(preview.outputTokens, 0, 'f', 0);
  update();
}

void SessionPictureWidget::clear(const QString& why) {
  m_valid = false;
  m_caption = why;
  update();
}

void SessionPictureWidget::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  p.fillRect(rect(), palette().base());
  const QFontMetrics fm(font());
  p.setPen(palette().color(QPalette::Text));
  // The caption wraps at "·" boundaries when the widget is narrower than its one line.
  const QRect captionBox(6, 0, width() - 12, height());
  const int captionHeight = fm.boundingRect(captionBox, Qt::TextWordWrap, m_caption).height();
  p.drawText(QRect(6, height() - captionHeight - 4, width() - 12, captionHeight),
             Qt::AlignLeft | Qt::TextWordWrap, m_caption);
  if (!m_valid) return;
  const QRectF area(8, 8, width() - 16, height() - captionHeight - 20);
  const std::string& shape = m_preview.shape;
  if (shape == "single") drawChain(p, area, 1, false);
  if (shape == "multi_turn") drawChain(p, area, m_preview.typicalCount, false);
  if (shape == "agentic") drawChain(p, area, m_preview.typicalCount, true);
  if (shape == "tree") drawTree(p, area);
  if (shape == "summarize") drawMapReduce(p, area);
}

void SessionPictureWidget::drawChain(QPainter& p, const QRectF& area, int count, bool agent) const {
  // A turn chain: turn → think → turn; an agent loop: LLM step → tool → LLM step.
  // As many as fit at a readable width (about 60 px a box with its arrow).
  const int fit = std::max(1, static_cast<int>(area.width() / (agent ? 2 * 82 : 82)));
  const int drawn = std::min({count, kMaxDrawn, fit});
  const int nodes = agent ? drawn * 2 - 1 : drawn;
  const double gap = 22;
  const double w = std::min(90.0, (area.width() - gap * (nodes - 1)) / std::max(1, nodes));
  const double h = 34;
  const double y = area.center().y() - h / 2;
  double x = area.left();
  for (int i = 0; i < nodes; ++i) {
    const bool tool = agent && i % 2 == 1;
    const QRectF r(x, y, w, h);
    const int turn = agent ? i / 2 + 1 : i + 1;
    const bool last = i == nodes - 1 && count > drawn;
    box(p, r, tool ? kTool : kLlm,
        tool ? QStringLiteral("tool")
             : (last ? QStringLiteral("… %1").arg(count) : QStringLiteral("%1 %2").arg(agent ? QStringLiteral("step") : QStringLiteral("turn")).arg(turn)));
    if (i > 0) arrow(p, QPointF(x - gap, y + h / 2), QPointF(x, y + h / 2));
    x += w + gap;
  }
  if (nodes > 1 && !agent) {
    p.setPen(Qt::darkGray);
    p.drawText(QRectF(area.left(), y + h + 4, area.width(), 16), Qt::AlignLeft,
               QStringLiteral("each turn resends the conversation, then waits the think time"));
  }
  if (agent) {
    p.setPen(Qt::darkGray);
    p.drawText(QRectF(area.left(), y + h + 4, area.width(), 16), Qt::AlignLeft,
               QStringLiteral("each step appends its reply and the tool's result"));
  }
}

void SessionPictureWidget::drawTree(QPainter& p, const QRectF& area) const {
  const int depth = std::min(m_preview.typicalCount, 3);
  const int branching = std::min(std::max(m_preview.branching, 1), 4);
  const double levelH = area.height() / (depth + 1);
  std::vector<QPointF> previous{QPointF(area.center().x(), area.top() + 12)};
  box(p, QRectF(previous[0].x() - 20, previous[0].y() - 10, 40, 20), kLlm, QStringLiteral("root"));
  for (int level = 1; level <= depth; ++level) {
    const int count = static_cast<int>(previous.size()) * branching;
    std::vector<QPointF> current;
    const double step = area.width() / count;
    const double bw = std::min(40.0, step - 4);
    for (int i = 0; i < count; ++i) {
      const QPointF c(area.left() + step * (i + 0.5), area.top() + 12 + level * levelH);
      arrow(p, previous[i / branching] + QPointF(0, 10), c - QPointF(0, 10));
      box(p, QRectF(c.x() - bw / 2, c.y() - 10, bw, 20), kLlm, QString());
      current.push_back(c);
    }
    previous = std::move(current);
  }
  if (m_preview.typicalCount > depth || m_preview.branching > branching) {
    p.setPen(Qt::darkGray);
    p.drawText(area, Qt::AlignRight | Qt::AlignTop,
               QStringLiteral("drawn to depth %1, branching %2").arg(depth).arg(branching));
  }
}

void SessionPictureWidget::drawMapReduce(QPainter& p, const QRectF& area) const {
  const int chunks = m_preview.typicalCount;
  const int drawn = std::min(chunks, kMaxDrawn);
  const double h = std::min(24.0, area.height() / drawn - 4);
  const QRectF reduce(area.right() - 100, area.center().y() - 17, 100, 34);
  for (int i = 0; i < drawn; ++i) {
    const double y = area.top() + (area.height() - drawn * (h + 4)) / 2 + i * (h + 4);
    const QRectF r(area.left(), y, 110, h);
    const bool last = i == drawn - 1 && chunks > drawn;
    box(p, r, kLlm, last ? QStringLiteral("… chunk %1").arg(chunks) : QStringLiteral("chunk %1").arg(i + 1));
    arrow(p, QPointF(r.right(), r.center().y()), QPointF(reduce.left(), reduce.center().y()));
  }
  box(p, reduce, kTool, QStringLiteral("reduce"));
}

}  // namespace plumbline::ui::designer
