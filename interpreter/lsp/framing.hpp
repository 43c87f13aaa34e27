#pragma once
// The protocol's base layer: messages framed by a `Content-Length` header,
// read from a byte stream that may split a message or join several.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace napkin::lsp {

// Bytes in, whole message bodies out. A header block without a usable
// Content-Length is dropped (its bytes skipped to the blank line), never a
// reason to stop reading. Whatever a bad frame leaves behind (its body, the
// tail of a body longer than its length said) is skipped up to the next
// `Content-Length:`, so one bad frame costs only itself.
class Reader {
 public:
  void feed(std::string_view bytes) { buf_.append(bytes); }
  // The next whole body, or nullopt until more bytes arrive.
  std::optional<std::string> next();
  // Header blocks dropped so far, for the log.
  std::size_t dropped() const { return dropped_; }

 private:
  std::string buf_;
  std::size_t dropped_ = 0;
};

// One message framed for the wire.
std::string frame(std::string_view body);

// Bodies larger than this are refused (the header is dropped and the bytes
// skipped): the largest napkin file is 10 MB, and a JSON string of it at
// most six times that.
inline constexpr std::size_t kMaxBody = 64u << 20;

// Headers are short: this many bytes with no blank line are noise, dropped
// but for their last kHeaderTail bytes (the start of the next header may be
// among them).
inline constexpr std::size_t kMaxHeader = 64u << 10, kHeaderTail = 1u << 10;

}  // namespace napkin::lsp
