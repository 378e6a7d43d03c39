#include "daemon/exporter/gzip_body.hpp"

#include <zlib.h>

#include <stdexcept>
#include <utility>

namespace opticsd {
namespace {

constexpr int kGzipWindowBits = 15 + 16;  // 32 KiB window, gzip wrapper
constexpr int kMemLevel = 8;              // zlib's default

// One deflate stream; the zlib state is freed with it.
class Deflater {
 public:
  Deflater() {
    if (deflateInit2(&z_, Z_BEST_SPEED, Z_DEFLATED, kGzipWindowBits, kMemLevel, Z_DEFAULT_STRATEGY) != Z_OK) {
      throw std::runtime_error("gzip: deflateInit2 failed");
    }
  }
  ~Deflater() { deflateEnd(&z_); }
  Deflater(const Deflater&) = delete;
  Deflater& operator=(const Deflater&) = delete;

  // Compresses `in` (all of it) and appends what zlib gives out to `out`;
  // `finish` ends the stream.
  void add(std::string_view in, bool finish, std::string& out) {
    z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    z_.avail_in = static_cast<uInt>(in.size());
    const int flush = finish ? Z_FINISH : Z_NO_FLUSH;
    for (;;) {
      const std::size_t before = out.size();
      const std::size_t room = deflateBound(&z_, z_.avail_in) + 64;
      out.resize(before + room);
      z_.next_out = reinterpret_cast<Bytef*>(out.data() + before);
      z_.avail_out = static_cast<uInt>(room);
      const int rc = deflate(&z_, flush);
      out.resize(before + room - z_.avail_out);
      if (rc == Z_STREAM_ERROR) throw std::runtime_error("gzip: deflate failed");
      if (finish ? rc == Z_STREAM_END : z_.avail_in == 0) return;
    }
  }

 private:
  z_stream z_{};
};

// uInt is 32 bits: feed large parts in pieces.
void addAll(Deflater& deflater, std::string_view in, std::string& out) {
  constexpr std::size_t kPiece = std::size_t{1} << 30;
  while (in.size() > kPiece) {
    deflater.add(in.substr(0, kPiece), false, out);
    in.remove_prefix(kPiece);
  }
  deflater.add(in, false, out);
}

class GzipBody : public HttpBodySource {
 public:
  explicit GzipBody(std::unique_ptr<HttpBodySource> plain) : plain_(std::move(plain)) {}

  bool next(HttpBody& out) override {
    HttpBody parts;
    const bool more = plain_->next(parts);
    std::string compressed;
    for (const auto& part : parts) addAll(deflater_, part, compressed);
    if (!more) deflater_.add({}, true, compressed);
    out.push_back(std::move(compressed));
    return more;
  }

 private:
  std::unique_ptr<HttpBodySource> plain_;
  Deflater deflater_;
};

}  // namespace

std::unique_ptr<HttpBodySource> gzipBody(std::unique_ptr<HttpBodySource> plain) {
  return std::make_unique<GzipBody>(std::move(plain));
}

std::string gzipped(std::string_view plain) {
  Deflater deflater;
  std::string out;
  addAll(deflater, plain, out);
  deflater.add({}, true, out);
  // add() makes room for the worst case (about the plain size) and takes back
  // what zlib did not use only as size: a kept buffer (rendered_targets.hpp)
  // would hold the plain text's memory for a seventh of its bytes.
  out.shrink_to_fit();
  return out;
}

}  // namespace opticsd
