#pragma once
#include <QWidget>

#include <string>

class QComboBox;

namespace plumbline::ui::designer {

class FieldBinder;
class FieldGrid;
class HistogramWidget;
class WorkloadDocument;

/// Edits one distribution object of the workload ({"dist": "lognormal", "median": 512, ...})
/// and previews it as a histogram of 20k draws from core's sampler (token lengths and counts
/// from the length sampler, seconds from the delay sampler a session waits with).
/// Switching the kind rewrites the object with the new kind's parameters, keeping its scale.
class DistEditor : public QWidget {
  Q_OBJECT
 public:
  enum class Unit { Tokens, Count, Seconds };
  DistEditor(WorkloadDocument* document, FieldBinder* binder, std::string path, Unit unit,
             QWidget* parent = nullptr);

  /// Shows the rows of the current kind and redraws the histogram; while the editor is not on
  /// screen (another page or tab is) the histogram is redrawn when it is shown again.
  void refreshPreview();
  HistogramWidget* histogram() const { return m_histogram; }
  const std::string& path() const { return m_path; }

 protected:
  void showEvent(QShowEvent* event) override;

 private:
  void redrawHistogram();
  void kindChosen(const QString& kind);
  void showRowsOfKind(const QString& kind);

  WorkloadDocument* m_document;
  FieldBinder* m_binder;
  std::string m_path;
  Unit m_unit;
  FieldGrid* m_form = nullptr;
  QComboBox* m_kind = nullptr;
  HistogramWidget* m_histogram = nullptr;
  bool m_histogramStale = false;
};

}  // namespace plumbline::ui::designer
