#pragma once
// A module's identity and threshold table are the same poll after poll: a
// new poll's are pointed at the previous poll's objects of the same port
// where they are equal, so an unchanged module holds one of each however many
// polls are in flight. A changed one (a swapped module) stays its own.

#include <vector>

#include "drivers/sample.hpp"

namespace opticsd {

void shareUnchangedModules(std::vector<Sample>& fresh, const std::vector<Sample>& previous);

}  // namespace opticsd
