#pragma once
#include <QKeySequence>
#include <QString>

class QAbstractButton;

namespace plumbline::ui {

/// Gives a button a key and says it where a person looks for it: the tooltip ("run this
/// workload in the Live run tab (Ctrl+R)"). The key works while the button is visible and
/// enabled, so the same key may mean something else on another tab.
void setButtonShortcut(QAbstractButton* button, const QKeySequence& key, const QString& what);

}  // namespace plumbline::ui
