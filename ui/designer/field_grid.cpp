#include "ui/designer/field_grid.h"

#include <QLabel>

#include <algorithm>

namespace plumbline::ui::designer {

FieldGrid::FieldGrid(Growth growth, Qt::Alignment labelAlignment)
    : m_growth(growth), m_labelAlignment(labelAlignment) {
  setColumnStretch(1, growth == Growth::Expanding ? 1 : 0);
}

void FieldGrid::addRow(const QString& label, QWidget* field) {
  const int row = m_rows++;
  auto* name = new QLabel(label);
  name->setBuddy(field);
  // Placed as QFormLayout places it: level with a one-line field, at the top of a taller one.
  const int lineHeight = name->sizeHint().height();
  name->setMinimumHeight(
      std::min(lineHeight * 7 / 4, std::max(lineHeight, field->sizeHint().height())));
  addWidget(name, row, 0, m_labelAlignment | Qt::AlignTop);
  addWidget(field, row, 1, m_growth == Growth::AtSizeHint ? Qt::AlignLeft : Qt::Alignment());
  // Height to spare goes below the last row, not into the rows.
  setRowStretch(row, 0);
  setRowStretch(row + 1, 1);
}

void FieldGrid::setRowVisible(QWidget* field, bool visible) {
  // A grid row whose widgets are all hidden is empty: QGridLayout gives it neither height
  // nor spacing.
  if (QLabel* name = labelFor(field)) name->setVisible(visible);
  field->setVisible(visible);
}

QLabel* FieldGrid::labelFor(QWidget* field) const {
  const int index = indexOf(field);
  if (index < 0) return nullptr;
  int row = 0, column = 0, rowSpan = 0, columnSpan = 0;
  getItemPosition(index, &row, &column, &rowSpan, &columnSpan);
  QLayoutItem* item = itemAtPosition(row, 0);
  return item ? qobject_cast<QLabel*>(item->widget()) : nullptr;
}

}  // namespace plumbline::ui::designer
