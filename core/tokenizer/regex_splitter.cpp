#include "core/tokenizer/regex_splitter.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <stdexcept>

namespace plumbline::tokenizer {

namespace {

// tokenizer.json patterns are written for Oniguruma, whose \s is Unicode White_Space; PCRE2's
// UCP \s misses some of it (U+1680, U+0085...), so spell the property out.
std::string toPcre2Pattern(const std::string& pattern) {
  std::string out;
  out.reserve(pattern.size() + 32);
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '\\' || i + 1 == pattern.size()) {
      out += pattern[i];
      continue;
    }
    const char escaped = pattern[++i];
    if (escaped == 's')
      out += "\\p{White_Space}";
    else if (escaped == 'S')
      out += "\\P{White_Space}";
    else
      out.append({'\\', escaped});
  }
  return out;
}

}  // namespace

struct RegexSplitter::Compiled {
  pcre2_code* code = nullptr;
  pcre2_match_data* matchData = nullptr;
  ~Compiled() {
    pcre2_match_data_free(matchData);
    pcre2_code_free(code);
  }
};

RegexSplitter::RegexSplitter(const std::string& source, Behavior behavior, bool literal)
    : m_compiled(std::make_unique<Compiled>()), m_behavior(behavior) {
  const std::string pattern = literal ? source : toPcre2Pattern(source);
  int errorCode = 0;
  PCRE2_SIZE errorOffset = 0;
  const uint32_t options = PCRE2_UTF | PCRE2_UCP | (literal ? PCRE2_LITERAL : 0u);
  m_compiled->code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                                   options, &errorCode, &errorOffset, nullptr);
  if (m_compiled->code == nullptr) {
    PCRE2_UCHAR message[256];
    pcre2_get_error_message(errorCode, message, sizeof message);
    throw std::invalid_argument("bad pattern at offset " + std::to_string(errorOffset) + ": " +
                                reinterpret_cast<const char*>(message));
  }
  // JIT is an optimisation only: without it (unsupported CPU, SELinux) the interpreter runs.
  m_jit = pcre2_jit_compile(m_compiled->code, PCRE2_JIT_COMPLETE) == 0;
  m_compiled->matchData = pcre2_match_data_create_from_pattern(m_compiled->code, nullptr);
  if (m_compiled->matchData == nullptr) throw std::bad_alloc();
}

RegexSplitter::~RegexSplitter() = default;
RegexSplitter::RegexSplitter(RegexSplitter&& other) noexcept = default;
RegexSplitter& RegexSplitter::operator=(RegexSplitter&& other) noexcept = default;

void RegexSplitter::split(std::string_view text, std::vector<std::string_view>& pieces) {
  const auto* subject = reinterpret_cast<PCRE2_SPTR>(text.data());
  PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(m_compiled->matchData);
  size_t offset = 0;
  size_t gapStart = 0;
  while (offset <= text.size()) {
    // The caller guarantees valid UTF-8 (Tokenizer repairs input once), so skip PCRE2's check.
    const int rc = pcre2_match(m_compiled->code, subject, text.size(), offset, PCRE2_NO_UTF_CHECK,
                               m_compiled->matchData, nullptr);
    if (rc == PCRE2_ERROR_NOMATCH) break;
    if (rc < 0) throw std::runtime_error("pcre2_match failed with code " + std::to_string(rc));
    const size_t start = ovector[0];
    const size_t end = ovector[1];
    if (end == start) {  // an empty match splits nothing; step over one code point
      offset = start + 1;
      while (offset < text.size() && (static_cast<unsigned char>(text[offset]) & 0xC0) == 0x80)
        ++offset;
      continue;
    }
    if (m_behavior == Behavior::Isolated && start > gapStart)
      pieces.push_back(text.substr(gapStart, start - gapStart));
    pieces.push_back(text.substr(start, end - start));
    gapStart = end;
    offset = end;
  }
  if (m_behavior == Behavior::Isolated && gapStart < text.size())
    pieces.push_back(text.substr(gapStart));
}

}  // namespace plumbline::tokenizer
