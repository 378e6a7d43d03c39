#pragma once
// Errors are values on every path the outside world can reach.

#include <string>
#include <tl/expected.hpp>
#include <utility>

namespace opticsd {

struct Error {
  std::string message;
};

template <typename T>
using Result = tl::expected<T, Error>;

inline tl::unexpected<Error> fail(std::string message) { return tl::unexpected<Error>(Error{std::move(message)}); }

}  // namespace opticsd
