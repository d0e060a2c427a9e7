#include "core/workload/trace_file.h"

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/util/json_duplicate_key.h"
#include "core/util/json_syntax_error.h"
#include "core/workload/prompt_blocks.h"
#include "core/workload/workload_error.h"

namespace plumbline::workload {
namespace {

constexpr int64_t kTraceNsPerS = 1'000'000'000;
constexpr double kMaxTimestampMs = 1e12;

class RowError {
 public:
  RowError(const std::string& name, uint32_t line) : m_where(name + ":" + std::to_string(line)) {}
  [[noreturn]] void fail(const std::string& field, const std::string& reason) const {
    throw WorkloadError(m_where, "field '" + field + "': " + reason);
  }

 private:
  std::string m_where;
};

std::string shownText(std::string_view text) {
  return "'" + std::string(text.substr(0, 40)) + (text.size() > 40 ? "...'" : "'");
}

bool parseDigits(std::string_view text, int64_t& out) {
  if (text.empty()) return false;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size() && out >= 0;
}

uint32_t tokenCount(std::string_view text, const RowError& err, const std::string& field) {
  int64_t value = 0;
  if (!parseDigits(text, value))
    err.fail(field, "expected a non-negative whole number, got " + shownText(text));
  if (value > std::numeric_limits<uint32_t>::max()) err.fail(field, "too large: " + shownText(text));
  return static_cast<uint32_t>(value);
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
int64_t daysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

int64_t daysInMonth(int64_t year, int64_t month) {
  constexpr int64_t kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

/// "2023-11-16 18:15:46.6805900" (1 to 9 fractional digits, or none) to ns since the epoch.
int64_t azureTimestampNs(std::string_view text, const RowError& err) {
  auto bad = [&](const char* why) {
    err.fail("TIMESTAMP", std::string(why) + " (expected YYYY-MM-DD HH:MM:SS[.fffffff]), got " +
                              shownText(text));
  };
  if (text.size() < 19 || text[4] != '-' || text[7] != '-' || text[10] != ' ' ||
      text[13] != ':' || text[16] != ':')
    bad("not a date and time");
  int64_t year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!parseDigits(text.substr(0, 4), year) || !parseDigits(text.substr(5, 2), month) ||
      !parseDigits(text.substr(8, 2), day) || !parseDigits(text.substr(11, 2), hour) ||
      !parseDigits(text.substr(14, 2), minute) || !parseDigits(text.substr(17, 2), second))
    bad("not a date and time");
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60)
    bad("a date or time field is out of range");
  // Nanoseconds since the epoch fit in int64 only for years 1678..2261.
  if (year < 1970 || year > 2200) bad("the year is outside 1970-2200");
  // QA: 2023-02-31 rolled into March and was reported as out of time order.
  if (day > daysInMonth(year, month))
    err.fail("TIMESTAMP", "no such date: that month has " +
                              std::to_string(daysInMonth(year, month)) + " days in " +
                              std::to_string(year) + ", got " + shownText(text));
  int64_t fractionNs = 0;
  if (text.size() > 19) {
    const std::string_view fraction = text.substr(20);
    if (text[19] != '.' || fraction.empty() || fraction.size() > 9) bad("bad fractional seconds");
    int64_t digits = 0;
    if (!parseDigits(fraction, digits)) bad("bad fractional seconds");
    fractionNs = digits;
    for (size_t i = fraction.size(); i < 9; ++i) fractionNs *= 10;
  }
  const int64_t seconds =
      daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second;
  return seconds * kTraceNsPerS + fractionNs;
}

std::string_view trimLine(std::string_view line) {
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
  return line;
}

/// Calls onLine(text, 1-based number) for every non-empty line. Lines end at LF, CR LF or a
/// lone CR (a file saved with classic Mac line endings is not one long line).
template <typename OnLine>
void forEachLine(std::string_view text, OnLine onLine) {
  size_t start = 0;
  uint32_t number = 0;
  while (start < text.size()) {
    size_t end = text.find_first_of("\r\n", start);
    if (end == std::string_view::npos) end = text.size();
    ++number;
    const std::string_view line = trimLine(text.substr(start, end - start));
    if (!line.empty()) onLine(line, number);
    start = end + (text.compare(end, 2, "\r\n") == 0 ? 2 : 1);
  }
}

void parseAzureRow(std::string_view line, uint32_t number, const std::string& name,
                   std::vector<TraceRow>& rows) {
  const RowError err(name, number);
  std::string_view fields[3];
  size_t count = 0, start = 0;
  for (;;) {
    const size_t comma = line.find(',', start);
    if (count == 3) err.fail("GeneratedTokens", "more than 3 columns in " + shownText(line));
    fields[count++] = line.substr(start, comma == std::string_view::npos ? comma : comma - start);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  if (count < 3)
    err.fail(count == 1 ? "ContextTokens" : "GeneratedTokens",
             "missing column (expected TIMESTAMP,ContextTokens,GeneratedTokens)");
  TraceRow row;
  row.line = number;
  row.timestampNs = azureTimestampNs(fields[0], err);
  row.inputTokens = tokenCount(fields[1], err, "ContextTokens");
  row.outputTokens = tokenCount(fields[2], err, "GeneratedTokens");
  rows.push_back(std::move(row));
}

std::vector<TraceRow> parseAzure(std::string_view text, const std::string& name) {
  std::vector<TraceRow> rows;
  bool header = true;
  forEachLine(text, [&](std::string_view line, uint32_t number) {
    if (header) {
      header = false;
      if (line != "TIMESTAMP,ContextTokens,GeneratedTokens")
        RowError(name, number).fail("(header)", "expected 'TIMESTAMP,ContextTokens,GeneratedTokens', got " + shownText(line));
      return;
    }
    parseAzureRow(line, number, name, rows);
  });
  return rows;
}

uint32_t jsonCount(const nlohmann::json& row, const char* field, const RowError& err) {
  const auto it = row.find(field);
  if (it == row.end()) err.fail(field, "missing");
  if (!it->is_number_unsigned() &&
      !(it->is_number_integer() && it->get<int64_t>() >= 0))
    err.fail(field, "expected a non-negative whole number, got " + shownText(it->dump()));
  const auto value = it->get<uint64_t>();
  if (value > std::numeric_limits<uint32_t>::max()) err.fail(field, "too large");
  return static_cast<uint32_t>(value);
}

/// One hash id per 512-token block of the prompt, as in every row of the public traces: with
/// more or fewer, the blocks sent and the prefix reuse counted would not be the trace's.
void checkBlockCount(const TraceRow& row, const RowError& err) {
  const size_t needed = promptBlocksFor(row.inputTokens);
  if (row.hashIds.size() == needed) return;
  err.fail("hash_ids",
           std::to_string(row.hashIds.size()) +
               (row.hashIds.size() == 1 ? " block id" : " block ids") + ", but input_length " +
               std::to_string(row.inputTokens) + " spans " + std::to_string(needed) + " block" +
               (needed == 1 ? "" : "s") + " of " + std::to_string(kPromptBlockTokens) +
               " tokens (one id per block, the last block may be partial)" +
               (row.hashIds.empty() ? "; leave hash_ids out for a row without prefix blocks" : ""));
}

void parseMooncakeRow(std::string_view line, uint32_t number, const std::string& name,
                      std::vector<TraceRow>& rows) {
  const RowError err(name, number);
  nlohmann::json row;
  try {
    row = nlohmann::json::parse(line);
  } catch (const nlohmann::json::parse_error& e) {
    const util::JsonSyntaxError where = util::jsonSyntaxError(line, e);  // one line: no line
    err.fail("(line)",
             "invalid JSON at column " + std::to_string(where.column) + ": " + where.reason);
  } catch (const nlohmann::json::out_of_range& e) {  // a number too large for a double
    err.fail("(line)", "invalid JSON: " + util::jsonSyntaxError(line, e).reason);
  }
  if (!row.is_object()) err.fail("(line)", "expected one JSON object per line");
  if (const auto duplicate = util::firstDuplicateKey(line))
    err.fail(duplicate->path, duplicate->reason());
  // A misspelt key is not a missing one (QA: "hash_id" silently removed all prefix reuse).
  for (const auto& item : row.items()) {
    if (item.key() != "timestamp" && item.key() != "input_length" &&
        item.key() != "output_length" && item.key() != "hash_ids")
      err.fail(item.key(),
               "unknown key (a row holds timestamp, input_length, output_length "
               "and hash_ids)");
  }
  TraceRow out;
  out.line = number;
  const auto ts = row.find("timestamp");
  if (ts == row.end()) err.fail("timestamp", "missing");
  if (!ts->is_number() || ts->get<double>() < 0)
    err.fail("timestamp", "expected non-negative milliseconds, got " + shownText(ts->dump()));
  // 1e12 ms is 31 years of trace; beyond it nanoseconds would soon overflow int64.
  if (ts->get<double>() > kMaxTimestampMs)
    err.fail("timestamp", "at most 1e12 milliseconds, got " + shownText(ts->dump()));
  out.timestampNs = ts->is_number_integer() ? ts->get<int64_t>() * 1'000'000
                                            : std::llround(ts->get<double>() * 1e6);
  out.inputTokens = jsonCount(row, "input_length", err);
  out.outputTokens = jsonCount(row, "output_length", err);
  if (const auto ids = row.find("hash_ids"); ids != row.end()) {
    if (!ids->is_array()) err.fail("hash_ids", "expected an array of block ids");
    out.hashIds.reserve(ids->size());
    for (const auto& id : *ids) {
      if (!id.is_number_integer() || id.get<int64_t>() < 0 ||
          id.get<int64_t>() > std::numeric_limits<uint32_t>::max())
        err.fail("hash_ids", "expected non-negative integer block ids, got " + shownText(id.dump()));
      out.hashIds.push_back(id.get<uint32_t>());
    }
    checkBlockCount(out, err);
  }
  rows.push_back(std::move(out));
}

std::vector<TraceRow> parseMooncake(std::string_view text, const std::string& name) {
  std::vector<TraceRow> rows;
  forEachLine(text, [&](std::string_view line, uint32_t number) {
    parseMooncakeRow(line, number, name, rows);
  });
  return rows;
}

}  // namespace

const char* traceFormatName(TraceFormat format) {
  return format == TraceFormat::AzureCsv ? "azure_csv" : "mooncake_jsonl";
}

std::vector<TraceRow> parseTraceText(const std::string& text, const std::string& name,
                                     TraceFormat format) {
  // A UTF-8 byte order mark (Excel saves CSV with one) is not text: the header read
  // "expected X, got X" with it, the mark invisible on a terminal.
  std::string_view body(text);
  if (body.substr(0, 3) == "\xEF\xBB\xBF") body.remove_prefix(3);
  std::vector<TraceRow> rows =
      format == TraceFormat::AzureCsv ? parseAzure(body, name) : parseMooncake(body, name);
  if (rows.empty()) throw WorkloadError(name, "the trace has no rows");
  const int64_t first = rows.front().timestampNs;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (i > 0 && rows[i].timestampNs < rows[i - 1].timestampNs)
      RowError(name, rows[i].line)
          .fail(format == TraceFormat::AzureCsv ? "TIMESTAMP" : "timestamp",
                "earlier than the row before it (line " + std::to_string(rows[i - 1].line) +
                    "); a trace must be in time order");
  }
  for (auto& row : rows) row.timestampNs -= first;
  return rows;
}

std::vector<TraceRow> readTraceFile(const std::string& path, TraceFormat format) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw WorkloadError(path, std::string("cannot read trace file: ") + std::strerror(errno));
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) throw WorkloadError(path, "cannot read trace file");
  return parseTraceText(content.str(), path, format);
}

}  // namespace plumbline::workload
