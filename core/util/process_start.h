#pragma once
#include <cstdint>
#include <optional>

namespace plumbline::util {

/// When process `pid` started, on the wall clock (CLOCK_REALTIME, ns since the epoch): its
/// `starttime` in /proc/PID/stat (clock ticks after boot, so to 10 ms) placed on the wall clock
/// by the current offset between CLOCK_REALTIME and CLOCK_BOOTTIME. nullopt when there is no
/// such process or its stat cannot be read or parsed.
std::optional<int64_t> processStartWallNs(int64_t pid);

/// The starttime field of one /proc/PID/stat line, in clock ticks after boot (the command name
/// in parentheses may itself hold spaces and parentheses: fields are counted after the last
/// ')'). nullopt when the line has no such field.
std::optional<int64_t> statStartTicks(const char* line, int64_t size);

}  // namespace plumbline::util
