#pragma once
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

namespace plumbline::ui::designer {

/// The designer's document: key order kept as written, so the JSON tab shows the file's order.
using OrderedJson = nlohmann::ordered_json;

/// A path in the loader's notation ("load.stages[1].rate") split into keys and indices.
class JsonPath {
 public:
  using Segment = std::variant<std::string, size_t>;
  explicit JsonPath(const std::string& text);

  const std::vector<Segment>& segments() const { return m_segments; }
  /// The path one level up ("load.stages[1]" for "load.stages[1].rate"); empty stays empty.
  static std::string parent(const std::string& text);

  /// The value at the path, or nullptr when any step is absent.
  const OrderedJson* find(const OrderedJson& root) const;
  /// Sets the value, creating missing objects on the way. False when a step is not an
  /// object (or an index is past the end of its array).
  bool set(OrderedJson& root, OrderedJson value) const;
  /// Removes the value; false when it was not there.
  bool erase(OrderedJson& root) const;

 private:
  std::vector<Segment> m_segments;
};

/// The string at `path` in `json`; "" when it is absent or not a string.
std::string stringAt(const OrderedJson& json, const char* path);

}  // namespace plumbline::ui::designer
