#pragma once
#include <QWidget>

#include "core/workload/session_preview.h"

namespace plumbline::ui::designer {

/// Draws a session's shape (turn chain, tree, agent loop, map-reduce) at its typical size,
/// with the expected requests and tokens per session under it.
class SessionPictureWidget : public QWidget {
  Q_OBJECT
 public:
  explicit SessionPictureWidget(QWidget* parent = nullptr);
  void setPreview(const workload::SessionPreview& preview);
  void clear(const QString& why);
  /// "3.0 requests · 630 input tokens · 30 output tokens per session"
  QString caption() const { return m_caption; }
  QSize sizeHint() const override { return {420, 190}; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  void drawChain(QPainter& p, const QRectF& area, int count, bool agent) const;
  void drawTree(QPainter& p, const QRectF& area) const;
  void drawMapReduce(QPainter& p, const QRectF& area) const;

  workload::SessionPreview m_preview;
  bool m_valid = false;
  QString m_caption;
};

}  // namespace plumbline::ui::designer
