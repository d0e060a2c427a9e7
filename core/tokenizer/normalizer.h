#pragma once
#include <string>
#include <string_view>

namespace plumbline::tokenizer {

class JsonSource;  // core/tokenizer/json_source.h

/// The `normalizer` of a tokenizer.json: none, or Unicode NFC (Qwen's), done with ICU.
class Normalizer {
 public:
  enum class Form { None, Nfc };

  /// Throws TokenizerError for a normalizer other than null or NFC.
  static Normalizer fromJson(const JsonSource& source);
  explicit Normalizer(Form form = Form::None) : m_form(form) {}

  /// `text` (valid UTF-8) normalized; returns `text` itself when already normal, else a view
  /// of `buffer`.
  std::string_view apply(std::string_view text, std::string& buffer) const;
  Form form() const { return m_form; }

 private:
  Form m_form;
};

}  // namespace plumbline::tokenizer
