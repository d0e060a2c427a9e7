#pragma once
#include <QWidget>

#include <optional>
#include <string>

#include "core/workload/length_histogram.h"

class QComboBox;
class QLabel;

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
  /// A replay whose lengths are the trace's sends no draws of this distribution: the editor
  /// hides its fields, says so, and draws `rows` (the replayed rows' lengths) instead, or
  /// `why` there are none to draw yet. Takes effect at the next refreshPreview().
  void showTraceLengths(std::optional<workload::LengthHistogram> rows, const QString& why = {});
  /// Back to editing and drawing the distribution itself.
  void showOwnDistribution();
  bool showsTraceLengths() const { return m_fromTrace; }
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
  QLabel* m_traceNote = nullptr;
  bool m_histogramStale = false;
  bool m_fromTrace = false;
  std::optional<workload::LengthHistogram> m_traceRows;
  QString m_traceWhy;
};

}  // namespace plumbline::ui::designer
