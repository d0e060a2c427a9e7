#include <gtest/gtest.h>

#include <string>

#include "core/util/label_text.h"

namespace plumbline::util {
namespace {

TEST(LabelText, LengthCountsCharactersNotBytes) {
  std::string accents;
  for (int i = 0; i < 150; ++i) accents += "\xC3\xA9";  // 150 × "é": 300 bytes
  EXPECT_EQ(characterCount(accents), 150u);
  EXPECT_EQ(labelProblem(accents, 200), "");
  EXPECT_EQ(labelProblem(std::string(200, 'x'), 200), "");
  EXPECT_EQ(labelProblem(std::string(201, 'x'), 200),
            "must be at most 200 characters (it has 201)");
  EXPECT_EQ(labelProblem("", 200), "must not be empty");
}

TEST(LabelText, ControlCharactersAndIllFormedUtf8AreNamedWithWhere) {
  EXPECT_EQ(labelProblem("run\x1b[31mRED", 200),
            "must not contain control characters (U+001B at character 4)");
  EXPECT_EQ(labelProblem("a\nb", 200),
            "must not contain control characters (U+000A at character 2)");
  EXPECT_EQ(labelProblem("\xC3\xA9\r", 200),
            "must not contain control characters (U+000D at character 2)");
  EXPECT_EQ(labelProblem("x\x7f", 200),
            "must not contain control characters (U+007F at character 2)");
  EXPECT_EQ(labelProblem("x\xC2\x9B", 200),
            "must not contain control characters (U+009B at character 2)");
  EXPECT_EQ(labelProblem("bad\xffname", 200), "must be valid UTF-8 (byte 0xFF at byte 4 is not)");
  EXPECT_EQ(labelProblem("cut\xC3", 200), "must be valid UTF-8 (byte 0xC3 at byte 4 is not)");
  EXPECT_EQ(labelProblem(std::string(300, 'x') + "\xff", 200),
            "must be valid UTF-8 (byte 0xFF at byte 301 is not)");
  EXPECT_EQ(labelProblem("tab\there", 200),
            "must not contain control characters (U+0009 at character 4)");
}

TEST(LabelText, NotesKeepNewlineAndTabOnly) {
  EXPECT_EQ(notesProblem("GPU throttling\n\trerun tomorrow"), "");
  EXPECT_EQ(notesProblem(""), "");
  EXPECT_EQ(notesProblem("bell\a"), "must not contain control characters (U+0007 at character 5)");
  EXPECT_EQ(notesProblem("x\x1b[2J"),
            "must not contain control characters (U+001B at character 2)");
  EXPECT_EQ(notesProblem("line\r\n"),
            "must not contain control characters (U+000D at character 5)");
  EXPECT_EQ(notesProblem("\xff"), "must be valid UTF-8 (byte 0xFF at byte 1 is not)");
}

TEST(LabelText, TerminalSafeEscapesControlsAndIllFormedBytes) {
  EXPECT_EQ(terminalSafe("run\x1b[31mRED\nline2"), "run\\x1B[31mRED\\x0Aline2");
  EXPECT_EQ(terminalSafe("bad\xffname"), "bad\\xFFname");
  EXPECT_EQ(terminalSafe("caf\xC3\xA9 \xC2\x9B"), "caf\xC3\xA9 \\u009B");
  EXPECT_EQ(terminalSafe("a\nb\tc\rd", "\n\t"), "a\nb\tc\\x0Dd");
  EXPECT_EQ(terminalSafe("cut\xE2\x82"), "cut\\xE2\\x82");
}

}  // namespace
}  // namespace plumbline::util
