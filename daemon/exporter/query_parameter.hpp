#pragma once
// One parameter of a URL query string (`target=leaf-1&...`), percent-decoded
// ('+' is a space, as HTML forms and Prometheus's `params:` send it).

#include <optional>
#include <string>
#include <string_view>

#include "drivers/result.hpp"

namespace opticsd {

// The first `name=value` of `query`; absent when the name is not there; an
// Error for a broken escape (`%G1`, a `%` at the end).
Result<std::optional<std::string>> queryParameter(std::string_view query, std::string_view name);

}  // namespace opticsd
