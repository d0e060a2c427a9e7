#include "core/tokenizer/tokenizer.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <simdjson.h>

#include "core/tokenizer/json_source.h"
#include "core/tokenizer/tokenizer_error.h"
#include "core/tokenizer/utf8.h"
#include "core/util/json_syntax_error.h"

namespace plumbline::tokenizer {

namespace {

void checkDecoder(const JsonSource& root) {
  if (!root.has("decoder")) return;
  const JsonSource type = root.child("decoder").child("type");
  if (type.string() != "ByteLevel")
    type.fail("unsupported decoder \"" + type.string() + "\" (supported: ByteLevel)");
}

}  // namespace

Tokenizer Tokenizer::fromParsed(const simdjson::padded_string& text, const std::string& file) {
  simdjson::dom::parser parser;  // owns the document fromRoot reads
  simdjson::dom::element document;
  const simdjson::error_code parsed = parser.parse(text).get(document);
  if (parsed != simdjson::SUCCESS) {
    // simdjson says what, not where: the slower parser places the error (line and column).
    const std::string_view view(text.data(), text.size());
    try {
      [[maybe_unused]] const nlohmann::json reparsed = nlohmann::json::parse(view);
    } catch (const nlohmann::json::exception& error) {  // parse_error, or out_of_range
      throw TokenizerError(file, "",
                           "not valid JSON: " + util::jsonSyntaxError(view, error).describe());
    }
    // What only simdjson refuses: nesting deeper than it reads, an integer past 64 bits.
    throw TokenizerError(file, "",
                         std::string("not valid JSON: ") + simdjson::error_message(parsed));
  }
  return fromRoot(JsonSource(document, file));
}

Tokenizer::Tokenizer(std::string file, Normalizer normalizer, PreTokenizer preTokenizer,
                     BpeModel model, AddedTokens added)
    : m_file(std::move(file)),
      m_normalizer(normalizer),
      m_preTokenizer(std::move(preTokenizer)),
      m_model(std::move(model)),
      m_added(std::move(added)) {
  buildDecodeTable();
}

Tokenizer Tokenizer::fromFile(const std::string& path) {
  const auto failed = [&path](const char* what) {
    return TokenizerError(path, "", std::string(what) + ": " + std::strerror(errno));
  };
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw failed("cannot open");
  struct FdCloser {
    int fd;
    ~FdCloser() { ::close(fd); }
  } closer{fd};
  struct stat info {};
  if (::fstat(fd, &info) != 0) throw failed("cannot read");
  if (!S_ISREG(info.st_mode)) throw TokenizerError(path, "", "cannot read: not a regular file");
  // Read once into simdjson's padded buffer: the file is ~11 MB and parsed in place.
  simdjson::padded_string text(static_cast<size_t>(info.st_size));
  if (text.data() == nullptr)  // simdjson allocates without throwing
    throw TokenizerError(path, "",
                         "cannot read: no memory for " + std::to_string(info.st_size) + " bytes");
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t got = ::read(fd, text.data() + done, text.size() - done);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw failed("cannot read");
    if (got == 0) throw TokenizerError(path, "", "cannot read: the file shrank while being read");
    done += static_cast<size_t>(got);
  }
  return fromParsed(text, path);
}

Tokenizer Tokenizer::fromJson(const nlohmann::json& json, const std::string& file) {
  return fromText(json.dump(), file);
}

Tokenizer Tokenizer::fromText(std::string_view text, const std::string& file) {
  return fromParsed(simdjson::padded_string(text), file);
}

Tokenizer Tokenizer::fromRoot(const JsonSource& root) {
  const std::string& file = root.file();
  root.object();
  checkDecoder(root);
  const auto normalizer =
      root.has("normalizer") ? Normalizer::fromJson(root.child("normalizer")) : Normalizer();
  auto preTokenizer = PreTokenizer::fromJson(root.child("pre_tokenizer"));
  auto model = BpeModel::fromJson(root.child("model"));
  auto added =
      root.has("added_tokens") ? AddedTokens::fromJson(root.child("added_tokens")) : AddedTokens();
  return Tokenizer(file, normalizer, std::move(preTokenizer), std::move(model), std::move(added));
}

void Tokenizer::buildDecodeTable() {
  size_t size = 0;
  for (const auto& [token, id] : m_model.vocab())
    size = std::max(size, static_cast<size_t>(id) + 1);
  for (const auto& token : m_added.tokens())
    size = std::max(size, static_cast<size_t>(token.id) + 1);
  m_idBytes.assign(size, {});
  m_idKnown.assign(size, false);
  for (const auto& [token, id] : m_model.vocab()) {
    auto bytes = m_model.alphabet().decode(token);
    m_idBytes[static_cast<size_t>(id)] = bytes ? std::move(*bytes) : std::string(token);
    m_idKnown[static_cast<size_t>(id)] = true;
  }
  for (const auto& token : m_added.tokens()) {
    m_idBytes[static_cast<size_t>(token.id)] = token.content;
    m_idKnown[static_cast<size_t>(token.id)] = true;
  }
}

std::vector<int32_t> Tokenizer::encode(std::string_view text) {
  std::vector<int32_t> ids;
  encodeInto(text, ids);
  return ids;
}

void Tokenizer::encodeInto(std::string_view text, std::vector<int32_t>& ids) {
  if (!isValidUtf8(text)) {
    m_repairBuffer = toValidUtf8(text);
    text = m_repairBuffer;
  }
  m_segments.clear();
  m_added.split(text, m_segments);
  for (const AddedTokens::Segment& segment : m_segments) {
    if (segment.id >= 0)
      ids.push_back(segment.id);
    else
      encodePlain(segment.text, ids);
  }
}

void Tokenizer::encodePlain(std::string_view text, std::vector<int32_t>& ids) {
  const std::string_view normal = m_normalizer.apply(text, m_normalBuffer);
  const std::string_view prepared = m_preTokenizer.withPrefixSpace(normal, m_prefixBuffer);
  m_pieces.clear();
  m_preTokenizer.split(prepared, m_pieces);
  for (const std::string_view piece : m_pieces) m_model.encodeWord(piece, ids);
}

size_t Tokenizer::countTokens(std::string_view text) {
  m_countScratch.clear();
  encodeInto(text, m_countScratch);
  return m_countScratch.size();
}

std::string Tokenizer::decode(std::span<const int32_t> ids) const {
  std::string bytes;
  for (const int32_t id : ids) {
    if (id < 0 || static_cast<size_t>(id) >= m_idBytes.size() ||
        !m_idKnown[static_cast<size_t>(id)])
      throw std::out_of_range("token id " + std::to_string(id) + " is not in the vocabulary of " +
                              m_file);
    bytes += m_idBytes[static_cast<size_t>(id)];
  }
  return isValidUtf8(bytes) ? bytes : toValidUtf8(bytes);
}

std::optional<int32_t> Tokenizer::tokenId(std::string_view token) const {
  for (const auto& added : m_added.tokens())
    if (added.content == token) return added.id;
  const auto found = m_model.vocab().find(token);
  if (found == m_model.vocab().end()) return std::nullopt;
  return found->second;
}

}  // namespace plumbline::tokenizer
