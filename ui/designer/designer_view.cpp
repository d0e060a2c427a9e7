#include "ui/designer/designer_view.h"

#include <QFile>

namespace plumbline::ui::designer {

DesignerView::DesignerView(const StudioContext& context, QWidget* parent)
    : QWidget(parent), m_context(context) {}

bool DesignerView::openWorkload(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return false;
  m_json = f.readAll();
  return true;
}

QByteArray DesignerView::currentJson() const { return m_json; }

}  // namespace plumbline::ui::designer
