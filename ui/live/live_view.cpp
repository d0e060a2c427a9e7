#include "ui/live/live_view.h"

namespace plumbline::ui::live {

LiveView::LiveView(const StudioContext& context, QWidget* parent)
    : QWidget(parent), m_context(context) {}

void LiveView::prepareRun(const QByteArray&, const QString&) {}

}  // namespace plumbline::ui::live
