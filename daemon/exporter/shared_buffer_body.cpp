#include "daemon/exporter/shared_buffer_body.hpp"

#include <algorithm>
#include <utility>

namespace opticsd {
namespace {

constexpr std::size_t kSliceBytes = 64 * 1024;

class SharedBufferBody : public HttpBodySource {
 public:
  explicit SharedBufferBody(std::vector<SharedText> buffers) : buffers_(std::move(buffers)) {
    std::erase_if(buffers_, [](const SharedText& b) { return !b || b->empty(); });
  }

  bool next(HttpBody& out) override {
    if (index_ >= buffers_.size()) return false;
    const std::string& buffer = *buffers_[index_];
    const std::size_t length = std::min(kSliceBytes, buffer.size() - offset_);
    out.emplace_back(buffer, offset_, length);
    offset_ += length;
    if (offset_ == buffer.size()) {
      buffers_[index_].reset();  // the last reader of an old poll's text frees it now
      ++index_;
      offset_ = 0;
    }
    return index_ < buffers_.size();
  }

 private:
  std::vector<SharedText> buffers_;
  std::size_t index_ = 0;
  std::size_t offset_ = 0;
};

}  // namespace

std::unique_ptr<HttpBodySource> sharedBufferBody(std::vector<SharedText> buffers) {
  return std::make_unique<SharedBufferBody>(std::move(buffers));
}

}  // namespace opticsd
