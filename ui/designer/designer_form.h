#pragma once
#include <QWidget>

#include <optional>
#include <vector>

#include "core/workload/workload_spec.h"

class QComboBox;
class QTableView;

namespace plumbline::ui::designer {

class DistEditor;
class FieldBinder;
class FieldGrid;
class RateChartWidget;
class SessionPictureWidget;
class StageTableModel;
class WorkloadDocument;

/// Every field of the workload format as a form, grouped: workload, target, load, requests,
/// sampling, session; with the load profile, length histograms and session picture beside
/// the fields they preview.
class DesignerForm : public QWidget {
  Q_OBJECT
 public:
  DesignerForm(WorkloadDocument* document, QWidget* parent = nullptr);

  FieldBinder* binder() const { return m_binder; }
  StageTableModel* stageModel() const { return m_stages; }
  RateChartWidget* rateChart() const { return m_rateChart; }
  SessionPictureWidget* sessionPicture() const { return m_sessionPicture; }
  const std::vector<DistEditor*>& distEditors() const { return m_dists; }

  /// Puts the document's values into the fields (all but `origin`) and shows the rows its
  /// arrival and session shape use.
  void refreshFields(const void* origin);
  /// Redraws every preview; `spec` is the validated workload when there is one. Without one,
  /// the previews that need the workload's files say they wait for them (`filesBeingRead`:
  /// to be read, else for the workload to be valid).
  void refreshPreviews(const std::optional<workload::WorkloadSpec>& spec,
                       bool filesBeingRead = false);

 private:
  QWidget* buildWorkloadGroup();
  QWidget* buildTargetGroup();
  QWidget* buildLoadGroup();
  QWidget* buildRequestsGroup();
  QWidget* buildSamplingGroup();
  QWidget* buildSessionGroup();
  QWidget* addDist(FieldGrid* form, const QString& label, const std::string& path, int unit);
  void setRowsVisible(FieldGrid* form, const std::vector<std::string>& paths, bool visible);
  void refreshVisibility();
  void refreshSessionPreview(const std::optional<workload::WorkloadSpec>& spec);
  /// A replay of the trace's lengths: the input and output editors draw the replayed rows'.
  void refreshTraceLengths(const std::optional<workload::WorkloadSpec>& spec, bool filesBeingRead);

  WorkloadDocument* m_document;
  FieldBinder* m_binder;
  StageTableModel* m_stages;
  QTableView* m_stageTable = nullptr;
  QWidget* m_stageArea = nullptr;
  RateChartWidget* m_rateChart = nullptr;
  SessionPictureWidget* m_sessionPicture = nullptr;
  QComboBox* m_arrival = nullptr;
  QComboBox* m_shape = nullptr;
  FieldGrid* m_loadForm = nullptr;
  FieldGrid* m_promptForm = nullptr;
  FieldGrid* m_sessionForm = nullptr;
  std::vector<DistEditor*> m_dists;
};

}  // namespace plumbline::ui::designer
