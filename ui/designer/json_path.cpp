#include "ui/designer/json_path.h"

namespace plumbline::ui::designer {

JsonPath::JsonPath(const std::string& text) {
  std::string key;
  size_t i = 0;
  auto flushKey = [&] {
    if (!key.empty()) m_segments.emplace_back(key);
    key.clear();
  };
  while (i < text.size()) {
    const char c = text[i];
    if (c == '.') {
      flushKey();
      ++i;
    } else if (c == '[') {
      flushKey();
      const size_t close = text.find(']', i);
      if (close == std::string::npos) break;
      m_segments.emplace_back(static_cast<size_t>(std::stoull("0" + text.substr(i + 1, close - i - 1))));
      i = close + 1;
    } else {
      key += c;
      ++i;
    }
  }
  flushKey();
}

std::string JsonPath::parent(const std::string& text) {
  const size_t cut = text.find_last_of(".[");
  return cut == std::string::npos ? std::string() : text.substr(0, cut);
}

namespace {

/// Walks `segments` from `root`; Node is OrderedJson or const OrderedJson.
template <typename Node, typename Iterator>
Node* walk(Node& root, Iterator begin, Iterator end) {
  Node* node = &root;
  for (auto it = begin; it != end; ++it) {
    if (const auto* key = std::get_if<std::string>(&*it)) {
      if (!node->is_object()) return nullptr;
      const auto found = node->find(*key);
      if (found == node->end()) return nullptr;
      node = &*found;
    } else {
      const size_t index = std::get<size_t>(*it);
      if (!node->is_array() || index >= node->size()) return nullptr;
      node = &(*node)[index];
    }
  }
  return node;
}

}  // namespace

const OrderedJson* JsonPath::find(const OrderedJson& root) const {
  return walk(root, m_segments.begin(), m_segments.end());
}

bool JsonPath::set(OrderedJson& root, OrderedJson value) const {
  OrderedJson* node = &root;
  for (const Segment& segment : m_segments) {
    if (const auto* key = std::get_if<std::string>(&segment)) {
      if (node->is_null()) *node = OrderedJson::object();
      if (!node->is_object()) return false;
      node = &(*node)[*key];
    } else {
      const size_t index = std::get<size_t>(segment);
      if (!node->is_array() || index >= node->size()) return false;
      node = &(*node)[index];
    }
  }
  *node = std::move(value);
  return true;
}

bool JsonPath::erase(OrderedJson& root) const {
  if (m_segments.empty()) return false;
  OrderedJson* parentNode = walk(root, m_segments.begin(), m_segments.end() - 1);
  if (!parentNode) return false;
  const Segment& last = m_segments.back();
  if (const auto* key = std::get_if<std::string>(&last)) {
    return parentNode->is_object() && parentNode->erase(*key) > 0;
  }
  const size_t index = std::get<size_t>(last);
  if (!parentNode->is_array() || index >= parentNode->size()) return false;
  parentNode->erase(index);
  return true;
}

std::string stringAt(const OrderedJson& json, const char* path) {
  const OrderedJson* value = JsonPath(path).find(json);
  return value && value->is_string() ? value->get<std::string>() : std::string();
}

}  // namespace plumbline::ui::designer
