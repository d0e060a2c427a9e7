#include "ui/common/button_shortcut.h"

#include <QAbstractButton>

namespace plumbline::ui {

void setButtonShortcut(QAbstractButton* button, const QKeySequence& key, const QString& what) {
  button->setShortcut(key);
  button->setToolTip(QStringLiteral("%1 (%2)").arg(what, key.toString(QKeySequence::NativeText)));
}

}  // namespace plumbline::ui
