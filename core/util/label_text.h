#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace plumbline::util {

// What a person may give as a run's name, a workload's name, a tag or notes, and how a reader
// shows what an older database may hold anyway: names reach terminals (runs list, show) and
// JSON (export, compare), where a newline forges a row, an escape sequence runs, and ill-formed
// UTF-8 fails the JSON writer.

/// The longest name of a run or a workload, in characters.
inline constexpr size_t kMaxNameCharacters = 200;

/// Why `text` cannot be a label (a name, a tag), or "" when it can: "must not be empty",
/// "must be at most N characters (it has M)" counting code points, "must be valid UTF-8 (...)",
/// "must not contain control characters (U+001B at character 4)". C0, DEL and C1 are control.
std::string labelProblem(std::string_view text, size_t maxCharacters);

/// Why `text` cannot be a run's notes, or "": valid UTF-8, and no control character other than
/// newline and tab.
std::string notesProblem(std::string_view text);

/// `text` without the spaces, tabs and line ends around it: what a given name, tag or note is
/// taken as before its rules are checked (a name pasted with its newline is the name).
std::string trimmedLabel(std::string_view text);

/// The number of characters (code points) of valid UTF-8.
size_t characterCount(std::string_view text);

/// `text` safe to print on a terminal: every control character but those in `keep` becomes
/// \xNN (C0, DEL) or \u00NN (C1), every byte of ill-formed UTF-8 \xNN.
std::string terminalSafe(std::string_view text, std::string_view keep = {});

}  // namespace plumbline::util
