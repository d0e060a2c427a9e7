#include "core/net/retry_after.h"

#include <array>
#include <ctime>

namespace plumbline::net {

namespace {

constexpr int64_t kMaxSecondsDigits = 10;

/// Exactly `width` decimal digits at `s[at]`; -1 otherwise.
int64_t digitsAt(std::string_view s, size_t at, size_t width) {
  if (at + width > s.size()) return -1;
  int64_t v = 0;
  for (size_t i = at; i < at + width; ++i) {
    if (s[i] < '0' || s[i] > '9') return -1;
    v = v * 10 + (s[i] - '0');
  }
  return v;
}

/// Days from 1970-01-01 to the given civil date (proleptic Gregorian; H. Hinnant's algorithm).
int64_t daysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2 ? 1 : 0;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

bool isLeap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

/// "Sun, 06 Nov 1994 08:49:37 GMT" as seconds since the epoch; -1 if it is not an IMF-fixdate.
int64_t imfFixdate(std::string_view s) {
  static constexpr std::array<std::string_view, 7> kDays = {"Mon", "Tue", "Wed", "Thu",
                                                            "Fri", "Sat", "Sun"};
  static constexpr std::array<std::string_view, 12> kMonths = {
      "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  // 0123456789012345678901234567890
  // Sun, 06 Nov 1994 08:49:37 GMT
  if (s.size() != 29 || s.substr(3, 2) != ", " || s[7] != ' ' || s[11] != ' ' || s[16] != ' ' ||
      s[19] != ':' || s[22] != ':' || s.substr(25) != " GMT")
    return -1;
  bool dayOk = false;
  for (std::string_view d : kDays) dayOk = dayOk || s.substr(0, 3) == d;
  int64_t month = 0;
  for (size_t i = 0; i < kMonths.size(); ++i)
    if (s.substr(8, 3) == kMonths[i]) month = static_cast<int64_t>(i) + 1;
  const int64_t day = digitsAt(s, 5, 2), year = digitsAt(s, 12, 4);
  const int64_t hour = digitsAt(s, 17, 2), minute = digitsAt(s, 20, 2), second = digitsAt(s, 23, 2);
  if (!dayOk || month == 0 || day < 1 || year < 0 || hour < 0 || hour > 23 || minute < 0 ||
      minute > 59 || second < 0 || second > 60)
    return -1;
  static constexpr std::array<int64_t, 12> kMonthDays = {31, 28, 31, 30, 31, 30,
                                                         31, 31, 30, 31, 30, 31};
  const int64_t monthDays =
      kMonthDays[static_cast<size_t>(month - 1)] + (month == 2 && isLeap(year) ? 1 : 0);
  if (day > monthDays) return -1;
  return daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second;
}

}  // namespace

int64_t parseRetryAfterMs(std::string_view value, int64_t nowUnixS) {
  if (value.empty()) return -1;
  if (value.front() >= '0' && value.front() <= '9') {
    if (value.size() > static_cast<size_t>(kMaxSecondsDigits)) return -1;
    const int64_t seconds = digitsAt(value, 0, value.size());
    return seconds < 0 ? -1 : seconds * 1000;
  }
  const int64_t at = imfFixdate(value);
  if (at < 0) return -1;
  return at <= nowUnixS ? 0 : (at - nowUnixS) * 1000;
}

std::string unreadableRetryAfterText(std::string_view value) {
  std::string shown = value.empty() ? "(empty)" : std::string(value.substr(0, kMaxRetryAfterShown));
  if (value.size() > kMaxRetryAfterShown) shown += "…";
  return "Retry-After: " + shown + " could not be read (whole seconds or an HTTP date)";
}

int64_t parseRetryAfterMsNow(std::string_view value) {
  return parseRetryAfterMs(value, static_cast<int64_t>(std::time(nullptr)));
}

}  // namespace plumbline::net
