#include "ui/compare/compare_view.h"

namespace plumbline::ui::compare {

CompareView::CompareView(const StudioContext& context, QWidget* parent)
    : QWidget(parent), m_context(context) {}

void CompareView::compareRuns(const QList<qint64>&) {}

}  // namespace plumbline::ui::compare
