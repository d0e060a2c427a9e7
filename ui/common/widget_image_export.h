#pragma once
#include <QString>

class QWidget;

namespace plumbline::ui {

/// Renders a widget (a chart view, a grid of them) to PNG or SVG, chosen by the file's
/// extension (.png, .svg). Returns an empty string on success, else why it failed.
QString exportWidgetImage(QWidget* widget, const QString& path);

}  // namespace plumbline::ui
