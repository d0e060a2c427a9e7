#include "core/metrics/series_decimator.h"

#include <algorithm>
#include <cmath>

namespace plumbline::metrics {

SeriesDecimator::SeriesDecimator(size_t maxBins) : m_maxBins(std::max<size_t>(maxBins, 4)) {
  m_bins.reserve(m_maxBins + 1);
}

void SeriesDecimator::clear() {
  m_bins.clear();
  m_width = 0;
  m_origin = 0;
  m_last = {};
}

double SeriesDecimator::binStart(double x) const {
  return m_origin + m_width * std::floor((x - m_origin) / m_width);
}

void SeriesDecimator::append(double x, double y) {
  if (!m_bins.empty() && x < m_last.x) return;
  const SeriesPoint p{x, y};
  if (m_bins.empty()) m_origin = x;
  m_last = p;
  const double start = m_width > 0 ? binStart(x) : x;
  if (!m_bins.empty() && m_width > 0 && m_bins.back().start == start) {
    Bin& b = m_bins.back();
    if (y < b.min.y) b.min = p;
    if (y > b.max.y) b.max = p;
    return;
  }
  m_bins.push_back({start, p, p});
  if (m_bins.size() > m_maxBins) mergePairs();
}

void SeriesDecimator::mergePairs() {
  // The first merge picks a width that halves the bin count; later ones double it.
  if (m_width <= 0) {
    const double span = m_last.x - m_origin;
    m_width = span > 0 ? span / static_cast<double>(m_maxBins / 2) : 1.0;
  } else {
    m_width *= 2;
  }
  std::vector<Bin> merged;
  merged.reserve(m_maxBins + 1);
  for (const Bin& b : m_bins) {
    const double start = binStart(std::min(b.min.x, b.max.x));
    if (!merged.empty() && merged.back().start == start) {
      Bin& m = merged.back();
      if (b.min.y < m.min.y) m.min = b.min;
      if (b.max.y > m.max.y) m.max = b.max;
    } else {
      merged.push_back({start, b.min, b.max});
    }
  }
  m_bins = std::move(merged);
}

std::vector<SeriesPoint> SeriesDecimator::points() const {
  std::vector<SeriesPoint> out;
  out.reserve(m_bins.size() * 2 + 1);
  pointsInto(out);
  return out;
}

void SeriesDecimator::pointsInto(std::vector<SeriesPoint>& out) const {
  out.clear();
  for (const Bin& b : m_bins) {
    if (b.min == b.max) {
      out.push_back(b.min);
    } else if (b.min.x <= b.max.x) {
      out.push_back(b.min);
      out.push_back(b.max);
    } else {
      out.push_back(b.max);
      out.push_back(b.min);
    }
  }
  // The newest point too, so a chart always reaches the present (x never decreases, so it
  // is the last in time whatever its bin kept).
  if (!out.empty() && !(out.back() == m_last) && m_last.x >= out.back().x) out.push_back(m_last);
}

}  // namespace plumbline::metrics
