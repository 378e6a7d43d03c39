#pragma once
// A body served from an immutable buffer shared by every scrape of it: each
// answer holds a reference to the buffer and copies out one slice at a time
// while it is sent, so N slow readers cost N slices, not N copies.

#include <memory>
#include <string>
#include <vector>

#include "daemon/exporter/http_server.hpp"

namespace opticsd {

using SharedText = std::shared_ptr<const std::string>;

// `buffers` in order (e.g. the rendered target, then series rendered at scrape time).
std::unique_ptr<HttpBodySource> sharedBufferBody(std::vector<SharedText> buffers);

}  // namespace opticsd
