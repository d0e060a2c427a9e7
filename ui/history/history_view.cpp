#include "ui/history/history_view.h"

namespace plumbline::ui::history {

HistoryView::HistoryView(const StudioContext& context, QWidget* parent)
    : QWidget(parent), m_context(context) {}

void HistoryView::refresh() {}

}  // namespace plumbline::ui::history
