#pragma once
// A bounded time series for charts: points land in equal-width time bins; each bin keeps its
// first, minimum and maximum point, so peaks survive however long the run.
#include <cstddef>
#include <vector>

namespace plumbline::metrics {

struct SeriesPoint {
  double x = 0;  ///< time (seconds since t0); must not decrease between appends
  double y = 0;
  bool operator==(const SeriesPoint&) const = default;
};

/// Keeps at most 2 × maxBins points (and hands out one more: the newest). While the series is short every point is kept; when the
/// bin count would exceed maxBins, adjacent bins merge pairwise (bin width doubles), keeping
/// each merged bin's min and max. Memory is O(maxBins) over any run length.
class SeriesDecimator {
 public:
  explicit SeriesDecimator(size_t maxBins = 1000);

  /// Points with x earlier than the last one are ignored (a stream never goes back in time).
  void append(double x, double y);
  void clear();

  /// The kept points in time order: per bin its min and max (one point when they coincide),
  /// then the newest point when its bin did not keep it.
  std::vector<SeriesPoint> points() const;
  /// The same into out (cleared first), reusing its capacity: no allocation once out has
  /// held 2 × maxBins + 1 points.
  void pointsInto(std::vector<SeriesPoint>& out) const;
  size_t binCount() const { return m_bins.size(); }
  double binWidth() const { return m_width; }
  bool empty() const { return m_bins.empty(); }
  const SeriesPoint& last() const { return m_last; }

 private:
  struct Bin {
    double start = 0;
    SeriesPoint min, max;
  };
  void mergePairs();
  double binStart(double x) const;

  size_t m_maxBins;
  double m_width = 0;  ///< 0 until the first merge: one bin per point
  double m_origin = 0;
  std::vector<Bin> m_bins;
  SeriesPoint m_last;
};

}  // namespace plumbline::metrics
