#pragma once
#include <QGridLayout>
#include <QString>

class QLabel;

namespace plumbline::ui::designer {

/// Label | field rows that can be hidden and shown again, on a QGridLayout. The Designer's
/// forms hide the rows a workload does not use; QFormLayout::setRowVisible cannot do that
/// safely on Qt 6.4: a hidden row keeps the layout index of an earlier pass, and the form's
/// height-for-width pass writes through it past the end of its buffer (QA 23b D1, a heap
/// overflow that crashed the studio some time later).
class FieldGrid : public QGridLayout {
  Q_OBJECT  // so that qobject_cast and findChildren<FieldGrid*> tell it from a plain grid

      public :
      /// `Expanding`: fields fill the column. `AtSizeHint`: fields keep their preferred width.
      enum class Growth {
        Expanding,
        AtSizeHint
      };

  explicit FieldGrid(Growth growth, Qt::Alignment labelAlignment = Qt::AlignLeft);

  /// Appends a row: a label naming `field`, and the field.
  void addRow(const QString& label, QWidget* field);
  /// Hides or shows `field`'s row (its label with it); a hidden row takes no space.
  void setRowVisible(QWidget* field, bool visible);
  /// The label of `field`'s row, or nullptr when `field` is not a field of this grid.
  QLabel* labelFor(QWidget* field) const;

 private:
  Growth m_growth;
  Qt::Alignment m_labelAlignment;
  int m_rows = 0;
};

}  // namespace plumbline::ui::designer
