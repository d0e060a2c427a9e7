#pragma once
#include <string>

#include "ui/designer/json_path.h"

namespace plumbline::ui::designer {

/// The session object after choosing `shape` in the form: the new shape's required keys with
/// starting values, other shapes' keys removed, keys the form does not know kept.
OrderedJson sessionForShape(const OrderedJson& current, const std::string& shape);

/// The load object after choosing `arrival`: "trace" replaces the stages with a trace block
/// (the contract forbids both), "gamma" adds its cv, the others drop what only those use.
OrderedJson loadForArrival(const OrderedJson& current, const std::string& arrival);

}  // namespace plumbline::ui::designer
