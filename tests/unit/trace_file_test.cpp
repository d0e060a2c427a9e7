// Trace files: exact timestamps, kept hash_ids, and errors naming file, line and field.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <gtest/gtest.h>

#include "core/workload/trace_file.h"
#include "core/workload/workload_error.h"

using namespace plumbline::workload;

namespace {

const std::string kTraces = std::string(PLUMBLINE_SOURCE_DIR) + "/workloads/traces/";

/// "PATH | REASON" of the error parsing `text`, or "accepted".
std::string traceErrorOf(const std::string& text, TraceFormat format) {
  try {
    parseTraceText(text, "t.txt", format);
  } catch (const WorkloadError& e) {
    return e.path() + " | " + e.reason();
  }
  return "accepted";
}

/// A trace_file_fuzz input from tests/data/fuzz_regressions/, without its format-selector byte.
std::string fuzzInput(const std::string& name) {
  std::ifstream in(std::string(PLUMBLINE_TEST_DATA) + "/fuzz_regressions/" + name, std::ios::binary);
  const std::string bytes(std::istreambuf_iterator<char>(in), {});
  return bytes.empty() ? bytes : bytes.substr(1);
}

constexpr const char* kHeader = "TIMESTAMP,ContextTokens,GeneratedTokens\n";

}  // namespace

TEST(TraceFile, AzureTimestampsAreExactToTheNanosecond) {
  const auto rows = parseTraceText(std::string(kHeader) +
                                       "2023-11-16 18:15:46.6805900,374,44\r\n"
                                       "2023-11-16 18:15:50.9951690,396,109\n"
                                       "2023-11-17 00:00:00.0000001,1,2\n"
                                       "2023-11-17 00:00:01,3,4",
                                   "t.csv", TraceFormat::AzureCsv);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].timestampNs, 0);
  EXPECT_EQ(rows[1].timestampNs, 4'314'579'000);
  // Midnight crossing: 5 h 44 min 13.3194100 s later, plus 100 ns.
  EXPECT_EQ(rows[2].timestampNs, ((5 * 60 + 44) * 60 + 13) * 1'000'000'000LL + 319'410'000 + 100);
  EXPECT_EQ(rows[3].timestampNs - rows[2].timestampNs, 999'999'900);
  EXPECT_EQ(rows[1].inputTokens, 396u);
  EXPECT_EQ(rows[1].outputTokens, 109u);
  EXPECT_EQ(rows[1].line, 3u);
  EXPECT_TRUE(rows[0].hashIds.empty());
}

// Lines end at LF, CR LF or a lone CR: a file saved with classic Mac line endings has its
// rows, and errors name the line an editor shows.
TEST(TraceFile, EveryLineEndingEndsARow) {
  for (const std::string eol : {"\n", "\r\n", "\r"}) {
    SCOPED_TRACE(eol == "\r" ? "CR" : eol == "\n" ? "LF" : "CR LF");
    const std::string header = "TIMESTAMP,ContextTokens,GeneratedTokens" + eol;
    const auto rows = parseTraceText(
        header + "2023-11-16 18:15:46.0,374,44" + eol + eol + "2023-11-16 18:15:47.0,396,109" + eol,
        "t.csv", TraceFormat::AzureCsv);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[1].line, 4u);
    EXPECT_EQ(rows[1].outputTokens, 109u);
    EXPECT_EQ(traceErrorOf(header + "2023-11-16 18:15:46.0,374,44" + eol +
                               "2023-11-16 18:15:46.6,-4,44" + eol,
                           TraceFormat::AzureCsv),
              "t.txt:3 | field 'ContextTokens': expected a non-negative whole number, got '-4'");
    const auto jsonl =
        parseTraceText("{\"timestamp\": 0, \"input_length\": 1, \"output_length\": 1}" + eol +
                           "{\"timestamp\": 5, \"input_length\": 2, \"output_length\": 3}",
                       "t.jsonl", TraceFormat::MooncakeJsonl);
    ASSERT_EQ(jsonl.size(), 2u);
    EXPECT_EQ(jsonl[1].line, 2u);
  }
}

TEST(TraceFile, MooncakeKeepsHashIdsAndMilliseconds) {
  const auto rows = parseTraceText(
      "{\"timestamp\": 0, \"input_length\": 1300, \"output_length\": 500, \"hash_ids\": [0, 1, "
      "2]}\n"
      "\n"
      "{\"timestamp\": 1500, \"input_length\": 600, \"output_length\": 1, \"hash_ids\": [0, 7]}\n",
      "t.jsonl", TraceFormat::MooncakeJsonl);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1].timestampNs, 1'500'000'000);
  EXPECT_EQ(rows[0].hashIds, (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(rows[1].hashIds, (std::vector<uint32_t>{0, 7}));
  EXPECT_EQ(rows[1].line, 3u);
  EXPECT_EQ(rows[0].inputTokens, 1300u);
}

// Every row of both public Mooncake traces has ceil(input_length / 512) hash_ids (the last
// block partial); a row with more or fewer was replayed with the wrong blocks and reuse.
TEST(TraceFile, MooncakeHashIdsMustCoverInputLength) {
  const std::string ok = "{\"timestamp\": 0, \"input_length\": 1, \"output_length\": 1}\n";
  auto row = [](const std::string& length, const std::string& ids) {
    return "{\"timestamp\": 5, \"input_length\": " + length +
           ", \"output_length\": 1, \"hash_ids\": [" + ids + "]}\n";
  };
  EXPECT_EQ(
      traceErrorOf(ok + row("40000", "0, 1, 2"), TraceFormat::MooncakeJsonl),
      "t.txt:2 | field 'hash_ids': 3 block ids, but input_length 40000 spans 79 blocks of 512 "
      "tokens (one id per block, the last block may be partial)");
  std::string hundred = "0";
  for (int i = 1; i < 100; ++i) hundred += ", " + std::to_string(i);
  EXPECT_EQ(traceErrorOf(ok + row("10", hundred), TraceFormat::MooncakeJsonl),
            "t.txt:2 | field 'hash_ids': 100 block ids, but input_length 10 spans 1 block of 512 "
            "tokens (one id per block, the last block may be partial)");
  EXPECT_EQ(
      traceErrorOf(ok + row("1025", "0, 1"), TraceFormat::MooncakeJsonl)
          .rfind("t.txt:2 | field 'hash_ids': 2 block ids, but input_length 1025 spans 3 blocks",
                 0),
      0u)
      << "a partial last block has an id of its own";
  EXPECT_EQ(traceErrorOf(ok + row("10", ""), TraceFormat::MooncakeJsonl),
            "t.txt:2 | field 'hash_ids': 0 block ids, but input_length 10 spans 1 block of 512 "
            "tokens (one id per block, the last block may be partial); leave hash_ids out for a "
            "row without prefix blocks");
  // Exactly as many as the blocks: a whole last block, a partial one, none for no tokens, and
  // a row without hash_ids at all.
  EXPECT_EQ(
      traceErrorOf(ok + row("1024", "0, 1") + row("1025", "0, 1, 2") + row("0", "") + row("1", "7"),
                   TraceFormat::MooncakeJsonl),
      "accepted");
}

TEST(TraceFile, AzureErrorsNameLineAndField) {
  const std::string h = kHeader;
  EXPECT_EQ(traceErrorOf("TIME,In,Out\n", TraceFormat::AzureCsv).rfind("t.txt:1 | field '(header)'", 0), 0u);
  EXPECT_EQ(traceErrorOf(h + "2023-11-16 18:15:46.68,374,44\n2023-13-16 18:15:46.6,3,4\n",
                    TraceFormat::AzureCsv)
                .rfind("t.txt:3 | field 'TIMESTAMP': a date or time field is out of range", 0),
            0u);
  EXPECT_EQ(traceErrorOf(h + "yesterday,374,44\n", TraceFormat::AzureCsv).rfind("t.txt:2 | field 'TIMESTAMP': not a date", 0), 0u);
  EXPECT_EQ(traceErrorOf(h + "2023-11-16 18:15:46.1234567890,1,1\n", TraceFormat::AzureCsv).rfind("t.txt:2 | field 'TIMESTAMP': bad fractional", 0), 0u);
  EXPECT_EQ(traceErrorOf(h + "2023-11-16 18:15:46.6,-4,44\n", TraceFormat::AzureCsv),
            "t.txt:2 | field 'ContextTokens': expected a non-negative whole number, got '-4'");
  EXPECT_EQ(traceErrorOf(h + "2023-11-16 18:15:46.6,4,4.5\n", TraceFormat::AzureCsv),
            "t.txt:2 | field 'GeneratedTokens': expected a non-negative whole number, got '4.5'");
  EXPECT_EQ(traceErrorOf(h + "2023-11-16 18:15:46.6,4\n", TraceFormat::AzureCsv).rfind("t.txt:2 | field 'GeneratedTokens': missing column", 0), 0u);
  EXPECT_EQ(traceErrorOf(h + "2023-11-16 18:15:46.6,4,5,6\n", TraceFormat::AzureCsv).rfind("t.txt:2 | field 'GeneratedTokens': more than 3 columns", 0), 0u);
  EXPECT_EQ(traceErrorOf(h + "2023-11-16 18:15:46.6,4,5\n2023-11-16 18:15:46.5,4,5\n", TraceFormat::AzureCsv)
                .rfind("t.txt:3 | field 'TIMESTAMP': earlier than the row before it (line 2)", 0),
            0u);
  EXPECT_EQ(traceErrorOf(h, TraceFormat::AzureCsv), "t.txt | the trace has no rows");
  EXPECT_EQ(traceErrorOf("", TraceFormat::MooncakeJsonl), "t.txt | the trace has no rows");
}

TEST(TraceFile, MooncakeErrorsNameLineAndField) {
  const std::string ok = "{\"timestamp\": 0, \"input_length\": 1, \"output_length\": 1}\n";
  EXPECT_EQ(traceErrorOf(ok + "{\"timestamp\": 5, \"input_length\": 1}\n", TraceFormat::MooncakeJsonl),
            "t.txt:2 | field 'output_length': missing");
  EXPECT_EQ(traceErrorOf(ok + "{\"timestamp\": 5, \"input_length\": -1, \"output_length\": 1}\n", TraceFormat::MooncakeJsonl),
            "t.txt:2 | field 'input_length': expected a non-negative whole number, got '-1'");
  EXPECT_EQ(traceErrorOf(ok + "{\"timestamp\": \"5\", \"input_length\": 1, \"output_length\": 1}\n", TraceFormat::MooncakeJsonl)
                .rfind("t.txt:2 | field 'timestamp': expected non-negative milliseconds", 0),
            0u);
  EXPECT_EQ(traceErrorOf(ok + "{\"input_length\": 1, \"output_length\": 1}\n", TraceFormat::MooncakeJsonl),
            "t.txt:2 | field 'timestamp': missing");
  EXPECT_EQ(traceErrorOf(ok + "{\"timestamp\": 5, \"input_length\": 1, \"output_length\": 1, \"hash_ids\": [1, \"x\"]}\n", TraceFormat::MooncakeJsonl)
                .rfind("t.txt:2 | field 'hash_ids'", 0),
            0u);
  EXPECT_EQ(traceErrorOf(ok + "{\"timestamp\": 5, \n", TraceFormat::MooncakeJsonl).rfind("t.txt:2 | field '(line)': invalid JSON", 0), 0u);
  EXPECT_EQ(traceErrorOf(ok + "[1, 2]\n", TraceFormat::MooncakeJsonl), "t.txt:2 | field '(line)': expected one JSON object per line");
}

// QA: a row with "hash_id" for "hash_ids" was accepted, and the replay lost all prefix reuse.
TEST(TraceFile, MooncakeUnknownKeysAreErrorsNamingTheKey) {
  const std::string ok = "{\"timestamp\": 0, \"input_length\": 1, \"output_length\": 1}\n";
  EXPECT_EQ(traceErrorOf(ok + "{\"timestamp\": 5, \"input_length\": 1, \"output_length\": 1, "
                              "\"hash_id\": [1]}\n",
                         TraceFormat::MooncakeJsonl),
            "t.txt:2 | field 'hash_id': unknown key (a row holds timestamp, input_length, "
            "output_length and hash_ids)");
  EXPECT_EQ(
      traceErrorOf("{\"foo\": 1, \"timestamp\": 0, \"input_length\": 1, \"output_length\": 1}\n",
                   TraceFormat::MooncakeJsonl)
          .rfind("t.txt:1 | field 'foo': unknown key", 0),
      0u);
}

// QA: 2023-02-31 was accepted, rolled into March, and reported as "earlier than the row before".
TEST(TraceFile, AzureDatesThatDoNotExistAreRefused) {
  const std::string h = kHeader;
  EXPECT_EQ(traceErrorOf(h + "2023-02-28 18:15:46.6,1,1\n2023-02-31 18:15:51.2,4,5\n",
                         TraceFormat::AzureCsv),
            "t.txt:3 | field 'TIMESTAMP': no such date: that month has 28 days in 2023, got "
            "'2023-02-31 18:15:51.2'");
  EXPECT_EQ(traceErrorOf(h + "2023-04-31 00:00:00,1,1\n", TraceFormat::AzureCsv),
            "t.txt:2 | field 'TIMESTAMP': no such date: that month has 30 days in 2023, got "
            "'2023-04-31 00:00:00'");
  EXPECT_EQ(traceErrorOf(h + "2023-02-29 00:00:00,1,1\n", TraceFormat::AzureCsv)
                .rfind("t.txt:2 | field 'TIMESTAMP': no such date: that month has 28 days", 0),
            0u);
  EXPECT_EQ(traceErrorOf(
                h + "2024-02-29 00:00:00,1,1\n2100-02-28 00:00:00,1,1\n2000-02-29 00:00:00,1,1\n",
                TraceFormat::AzureCsv)
                .rfind("t.txt:4 | field 'TIMESTAMP': earlier than", 0),
            0u);  // 2024 and 2000 are leap years; the third row is only out of order
  EXPECT_EQ(
      traceErrorOf(h + "2100-02-29 00:00:00,1,1\n", TraceFormat::AzureCsv)
          .rfind("t.txt:2 | field 'TIMESTAMP': no such date: that month has 28 days in 2100", 0),
      0u);
}

// QA: an Azure CSV saved with a UTF-8 BOM was refused as "expected 'TIMESTAMP,...', got
// 'TIMESTAMP,...'", the mark invisible on a terminal.
TEST(TraceFile, AByteOrderMarkAtTheStartIsSkipped) {
  const auto azure =
      parseTraceText("\xEF\xBB\xBF" + std::string(kHeader) + "2023-11-16 18:15:46.6805900,374,44\n",
                     "t.csv", TraceFormat::AzureCsv);
  ASSERT_EQ(azure.size(), 1u);
  EXPECT_EQ(azure[0].inputTokens, 374u);
  EXPECT_EQ(azure[0].line, 2u);
  const auto mooncake =
      parseTraceText("\xEF\xBB\xBF{\"timestamp\": 0, \"input_length\": 3, \"output_length\": 1}\n",
                     "t.jsonl", TraceFormat::MooncakeJsonl);
  ASSERT_EQ(mooncake.size(), 1u);
  EXPECT_EQ(mooncake[0].inputTokens, 3u);
}

TEST(TraceFile, MissingFileNamesIt) {
  try {
    readTraceFile(kTraces + "nope.csv", TraceFormat::AzureCsv);
    FAIL() << "accepted";
  } catch (const WorkloadError& e) {
    EXPECT_EQ(e.path(), kTraces + "nope.csv");
    EXPECT_NE(e.reason().find("cannot read trace file"), std::string::npos);
  }
}

TEST(TraceFile, ShippedTracesParseWhole) {
  struct Case {
    const char* file;
    TraceFormat format;
    size_t rows;
    double spanS;
  };
  for (const Case& c : {Case{"azure_llm_2023_conv.csv", TraceFormat::AzureCsv, 19366, 3501.721937},
                        Case{"azure_llm_2023_code.csv", TraceFormat::AzureCsv, 8819, 3435.948056},
                        Case{"mooncake_conversation.jsonl", TraceFormat::MooncakeJsonl, 12031, 3536.999},
                        Case{"mooncake_synthetic.jsonl", TraceFormat::MooncakeJsonl, 3993, 1022.025}}) {
    SCOPED_TRACE(c.file);
    const auto rows = readTraceFile(kTraces + c.file, c.format);
    EXPECT_EQ(rows.size(), c.rows);
    EXPECT_NEAR(static_cast<double>(rows.back().timestampNs) * 1e-9, c.spanS, 1e-9);
    if (c.format == TraceFormat::MooncakeJsonl) {
      EXPECT_FALSE(rows.front().hashIds.empty());
    }
  }
}

// Found by trace_file_fuzz (tests/data/fuzz_regressions/): a year past 2261 overflowed the
// nanosecond timestamp (signed overflow, caught by UBSan). The first byte is the fuzzer's
// format selector.
TEST(TraceFile, TimestampsBeyondNanosecondRangeAreRefused) {
  const std::string text = fuzzInput("trace_year_2623_overflow.bin");
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(traceErrorOf(text, TraceFormat::AzureCsv).rfind("t.txt:3 | field 'TIMESTAMP': the year is outside 1970-2200", 0), 0u)
      << traceErrorOf(text, TraceFormat::AzureCsv);
  EXPECT_EQ(traceErrorOf(std::string(kHeader) + "1969-12-31 23:59:59,1,1\n", TraceFormat::AzureCsv)
                .rfind("t.txt:2 | field 'TIMESTAMP': the year is outside 1970-2200", 0),
            0u);
  EXPECT_EQ(traceErrorOf("{\"timestamp\": 9223372036854775807, \"input_length\": 1, \"output_length\": 1}\n",
                    TraceFormat::MooncakeJsonl),
            "t.txt:1 | field 'timestamp': at most 1e12 milliseconds, got '9223372036854775807'");
  EXPECT_EQ(traceErrorOf("{\"timestamp\": 1e300, \"input_length\": 1, \"output_length\": 1}\n",
                    TraceFormat::MooncakeJsonl)
                .rfind("t.txt:1 | field 'timestamp': at most 1e12 milliseconds", 0),
            0u);
  EXPECT_EQ(traceErrorOf("{\"timestamp\": 1000000000000, \"input_length\": 1, \"output_length\": 1}\n",
                    TraceFormat::MooncakeJsonl),
            "accepted");
}

// Found by trace_file_fuzz: a number too large for a double escaped as nlohmann out_of_range.
TEST(TraceFile, MooncakeNumberTooLargeForADoubleIsAJsonErrorOnItsLine) {
  const std::string text = fuzzInput("trace_number_overflow.bin");
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(traceErrorOf(text, TraceFormat::MooncakeJsonl).rfind("t.txt:1 | field '(line)': invalid JSON: ", 0), 0u)
      << traceErrorOf(text, TraceFormat::MooncakeJsonl);
  const std::string ok = "{\"timestamp\": 0, \"input_length\": 1, \"output_length\": 1}\n";
  EXPECT_EQ(traceErrorOf(ok + "{\"timestamp\": 1e999, \"input_length\": 1, \"output_length\": 1}\n",
                    TraceFormat::MooncakeJsonl)
                .rfind("t.txt:2 | field '(line)': invalid JSON: ", 0),
            0u);
}
