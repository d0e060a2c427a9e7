#include "core/tokenizer/normalizer.h"

#include "core/tokenizer/json_source.h"

#include <unicode/bytestream.h>
#include <unicode/normalizer2.h>
#include <unicode/stringpiece.h>

#include <algorithm>
#include <stdexcept>

namespace plumbline::tokenizer {

Normalizer Normalizer::fromJson(const JsonSource& source) {
  if (source.isNull()) return Normalizer(Form::None);
  const JsonSource type = source.child("type");
  if (type.string() != "NFC")
    type.fail("unsupported normalizer \"" + type.string() + "\" (supported: NFC)");
  return Normalizer(Form::Nfc);
}

std::string_view Normalizer::apply(std::string_view text, std::string& buffer) const {
  if (m_form == Form::None) return text;
  const bool ascii = std::all_of(text.begin(), text.end(), [](char c) { return (c & 0x80) == 0; });
  if (ascii) return text;
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* nfc = icu::Normalizer2::getNFCInstance(status);
  if (U_FAILURE(status))
    throw std::runtime_error(std::string("ICU NFC unavailable: ") + u_errorName(status));
  const icu::StringPiece piece(text.data(), static_cast<int32_t>(text.size()));
  if (nfc->isNormalizedUTF8(piece, status) && U_SUCCESS(status)) return text;
  buffer.clear();
  status = U_ZERO_ERROR;
  icu::StringByteSink<std::string> sink(&buffer, static_cast<int32_t>(text.size()));
  nfc->normalizeUTF8(0, piece, sink, nullptr, status);
  if (U_FAILURE(status))
    throw std::runtime_error(std::string("ICU NFC failed: ") + u_errorName(status));
  return buffer;
}

}  // namespace plumbline::tokenizer
