#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "core/workload/prompt_spec.h"

namespace plumbline::workload {

/// Parses `requests.prompt`; relative file paths are resolved against `baseDir` (the workload
/// file's directory; empty = the current directory). Loads nothing.
PromptSpec parsePrompt(const nlohmann::json& value, const std::string& path, const std::string& baseDir);

/// `file` relative to `baseDir` unless it is absolute or baseDir is empty.
std::string resolveRelative(const std::string& file, const std::string& baseDir);

}  // namespace plumbline::workload
