#pragma once
#include "core/util/rng.h"
#include "core/workload/workload_spec.h"

namespace plumbline::workload {

/// One raw draw from the distribution, before clamps and rounding (sampleLength in planner.h
/// applies both). Uniform draws cover [min - 0.5, max + 0.5) so that rounding gives every
/// whole count in [min, max] the same probability.
double drawLength(const LengthDist& dist, util::Rng& rng);

/// Clamps a raw draw to [clampMin, clampMax] and rounds it to the nearest whole count >= 1.
uint32_t clampAndRound(double value, const LengthDist& dist);

}  // namespace plumbline::workload
