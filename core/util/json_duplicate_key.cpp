#include "core/util/json_duplicate_key.h"

#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/util/shown_key.h"

namespace plumbline::util {
namespace {

using json = nlohmann::json;

/// SAX events only: the document is never built, keys are remembered per open object. A frame
/// holds its own key or index, not its path (copies of the path made a 100,000-deep array take
/// minutes and gigabytes): the path is built once, for the duplicate.
class DuplicateKeyFinder {
 public:
  std::optional<DuplicateKey> duplicate;

  bool null() { return value(); }
  bool boolean(bool) { return value(); }
  bool number_integer(json::number_integer_t) { return value(); }
  bool number_unsigned(json::number_unsigned_t) { return value(); }
  bool number_float(json::number_float_t, const json::string_t&) { return value(); }
  bool string(json::string_t&) { return value(); }
  bool binary(json::binary_t&) { return value(); }
  bool start_object(std::size_t) { return open(false); }
  bool start_array(std::size_t) { return open(true); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool key(json::string_t& name) {
    Frame& object = m_stack.back();
    if (!object.keys.insert(name).second) {
      object.key = name;
      duplicate = DuplicateKey{pathOfTop(), shownKey(name)};
      return false;  // stops the parse
    }
    object.key = name;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) {
    return false;
  }

 private:
  struct Frame {
    bool array = false;
    size_t index = 0;  ///< an array's element being read
    std::string key;   ///< an object's key whose value is being read
    std::unordered_set<std::string> keys;
  };

  /// "load.stages[1].rate": the path of the value the innermost frame is reading.
  std::string pathOfTop() const {
    std::string path;
    for (const Frame& frame : m_stack) {
      if (frame.array) {
        path += "[" + std::to_string(frame.index) + "]";
      } else {
        if (!path.empty()) path += '.';
        path += shownKey(frame.key);
      }
    }
    // A duplicate 10,000 levels down has a 50 KB path: its end says where.
    constexpr size_t kShownPath = 200;
    if (path.size() > kShownPath) path = "..." + path.substr(path.size() - kShownPath);
    return path;
  }

  bool open(bool array) {
    m_stack.emplace_back();
    m_stack.back().array = array;
    return true;
  }

  bool close() {
    m_stack.pop_back();
    return value();
  }

  bool value() {
    if (!m_stack.empty() && m_stack.back().array) ++m_stack.back().index;
    return true;
  }

  std::vector<Frame> m_stack;
};

}  // namespace

std::string DuplicateKey::reason() const {
  return "'" + key + "' is named twice in one object (JSON readers differ in which they keep: " +
         "name it once)";
}

std::optional<DuplicateKey> firstDuplicateKey(std::string_view text) {
  DuplicateKeyFinder finder;
  json::sax_parse(text.begin(), text.end(), &finder, json::input_format_t::json,
                  /*strict=*/true);
  return finder.duplicate;
}

}  // namespace plumbline::util
