#include "ui/common/widget_image_export.h"

#include <QFileInfo>
#include <QPainter>
#include <QPixmap>
#include <QSvgGenerator>
#include <QWidget>

namespace plumbline::ui {

QString exportWidgetImage(QWidget* widget, const QString& path) {
  if (!widget) return QStringLiteral("nothing to export");
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix == QStringLiteral("png")) {
    const QPixmap pixmap = widget->grab();
    if (pixmap.isNull()) return QStringLiteral("the chart could not be rendered");
    if (!pixmap.save(path, "PNG")) return QStringLiteral("cannot write ") + path;
    return {};
  }
  if (suffix == QStringLiteral("svg")) {
    QSvgGenerator svg;
    svg.setFileName(path);
    svg.setSize(widget->size());
    svg.setViewBox(QRect(QPoint(0, 0), widget->size()));
    svg.setTitle(widget->windowTitle());
    QPainter painter;
    if (!painter.begin(&svg)) return QStringLiteral("cannot write ") + path;
    widget->render(&painter);
    painter.end();
    if (!QFileInfo(path).isFile() || QFileInfo(path).size() == 0)
      return QStringLiteral("cannot write ") + path;
    return {};
  }
  return QStringLiteral("unknown image format '") + suffix +
         QStringLiteral("' (use .png or .svg): ") + path;
}

}  // namespace plumbline::ui
