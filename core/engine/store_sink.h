#pragma once
#include "core/engine/run_sink.h"
#include "core/store/run_writer.h"
#include "core/store/window_row.h"

namespace plumbline::engine {

/// Sends a run's records and windows to the database writer (which batches on its thread).
class StoreSink : public RunSink {
 public:
  explicit StoreSink(store::RunWriter& writer) : m_writer(writer) {}
  void onRecords(const std::vector<metrics::RequestRecord>& records) override;
  void onWindow(const metrics::WindowStats& window) override;
  void onT0(int64_t t0WallNs) override;
  /// The first error writing the database ("" when none): nothing more is sent to it after.
  std::string failure() const override { return m_failure; }

 private:
  /// Runs `write` unless writing already failed; a StoreError becomes the failure.
  template <typename Write>
  void guarded(Write&& write);

  store::RunWriter& m_writer;
  std::string m_failure;
};

/// The database row of a window (percentiles in ms, errors by class as JSON).
store::WindowRow toWindowRow(const metrics::WindowStats& w);
/// Serialized histograms of every metric that has values, by metric name.
store::HistogramBlobs histogramBlobs(const std::array<metrics::LatencyHistogram,
                                                      static_cast<size_t>(metrics::Metric::Count)>& hists);

}  // namespace plumbline::engine
