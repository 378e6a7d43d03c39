#include "drivers/replay/replay_directory.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <sstream>

#include "drivers/eeprom/dump_file.hpp"
#include "drivers/module/module_read_session.hpp"

namespace opticsd::replay {
namespace {

namespace fs = std::filesystem;

constexpr std::uintmax_t kMaxFileBytes = 4 << 20;  // a dump is a few KiB; refuse anything absurd

Result<std::string> readFile(const fs::path& path) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec) return fail(path.string() + ": " + ec.message());
  if (size > kMaxFileBytes) return fail(path.string() + ": file too large for a capture");
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(path.string() + ": cannot open");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return text;
}

// "module.dump" → step 0; "module@12.dump" → 12; anything else → nullopt.
std::optional<std::size_t> moduleStep(const std::string& stem) {
  if (stem == "module") return 0;
  if (stem.rfind("module@", 0) != 0 || stem.size() == 7 || stem.size() > 16) return std::nullopt;
  std::size_t step = 0;
  for (char c : stem.substr(7)) {
    if (c < '0' || c > '9') return std::nullopt;
    step = step * 10 + static_cast<std::size_t>(c - '0');
  }
  return step;
}

Result<ReplayPort> loadPort(const fs::path& dir) {
  ReplayPort port;
  port.name = dir.filename().string();
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const auto file = entry.path();
    const auto name = file.filename().string();
    const auto extension = file.extension().string();
    if (name == "fec.seq") {
      auto text = readFile(file);
      if (!text) return tl::unexpected(text.error());
      auto steps = parseFecSequence(*text);
      if (!steps) return fail(file.string() + ": " + steps.error().message);
      port.fec = std::move(*steps);
      continue;
    }
    const auto step = moduleStep(file.stem().string());
    if (!step || (extension != ".dump" && extension != ".absent")) continue;  // notes, READMEs
    ReplayPort::ModuleFrom from;
    from.step = *step;
    if (extension == ".dump") {
      auto text = readFile(file);
      if (!text) return tl::unexpected(text.error());
      auto parsed =
          eeprom::parseDumpFileDetailed(std::span(reinterpret_cast<const std::uint8_t*>(text->data()), text->size()));
      if (!parsed) return fail(file.string() + ": " + parsed.error().message);
      from.memory = std::move(parsed->memory);
      from.notes = std::move(parsed->notes);
    }
    port.modules.push_back(std::move(from));
  }
  if (ec) return fail(dir.string() + ": " + ec.message());
  std::sort(port.modules.begin(), port.modules.end(), [](const auto& a, const auto& b) { return a.step < b.step; });
  for (std::size_t i = 1; i < port.modules.size(); ++i) {
    if (port.modules[i].step == port.modules[i - 1].step) {
      return fail(dir.string() + ": two module files for step " + std::to_string(port.modules[i].step));
    }
  }
  return port;
}

}  // namespace

Result<ReplayDirectory> loadReplayDirectory(const std::filesystem::path& directory) {
  std::error_code ec;
  if (!fs::is_directory(directory, ec)) return fail(directory.string() + ": not a directory");
  ReplayDirectory replay;
  for (const auto& entry : fs::directory_iterator(directory, ec)) {
    if (!entry.is_directory()) continue;
    auto port = loadPort(entry.path());
    if (!port) return tl::unexpected(port.error());
    if (port->modules.empty() && port->fec.empty()) continue;  // not a port folder
    replay.ports.push_back(std::move(*port));
  }
  if (ec) return fail(directory.string() + ": " + ec.message());
  if (replay.ports.empty()) return fail(directory.string() + ": no port folders with module.dump or fec.seq");
  std::sort(replay.ports.begin(), replay.ports.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return replay;
}

module::PortReading readingAt(const ReplayPort& port, std::size_t step) {
  module::PortReading reading;
  reading.port = port.name;
  const ReplayPort::ModuleFrom* module = nullptr;
  for (const auto& from : port.modules) {
    if (from.step <= step) module = &from;
  }
  if (module && module->memory) {
    const auto& dump = *module->memory;
    // The dump answers page reads the way the kernel would: a page it lacks
    // is refused, a page cut short gives the bytes up to the first gap.
    module::ModuleReadSession session;
    module::readModule(session, [&dump](const eeprom::PageRequest& request) -> Result<std::vector<std::uint8_t>> {
      const bool upper = request.offset >= eeprom::kPageSize;
      const std::bitset<eeprom::kPageSize>* valid = nullptr;
      const auto* page = dump.find(eeprom::PageKey{request.i2c_address, request.bank, request.page, upper}, &valid);
      if (page == nullptr) return fail("page not in the capture (Invalid argument)");
      const std::size_t start = request.offset % eeprom::kPageSize;
      const std::size_t stop = std::min<std::size_t>(start + request.length, eeprom::kPageSize);
      std::size_t end = start;
      while (end < stop && valid->test(end)) ++end;
      return std::vector<std::uint8_t>(page->begin() + start, page->begin() + end);
    });
    reading.module_present = true;
    reading.memory = std::move(session.memory());
    reading.issues = std::move(session.issues());
  }
  if (!port.fec.empty()) {
    const auto& fec = port.fec[std::min(step, port.fec.size() - 1)];
    reading.fec = fec.fec;
    reading.link = fec.link;
    if (fec.busy) {
      // As the kernel answers a module being flashed: no pages, not an error.
      reading.module_present = true;
      reading.memory = {};
      reading.issues.clear();
      reading.maintenance = Maintenance{"firmware_flashing"};
    }
  }
  return reading;
}

std::optional<std::int64_t> captureTimeMs(const ReplayDirectory& directory, std::size_t step) {
  for (const auto& port : directory.ports) {
    if (port.fec.empty() || !port.fec.back().time_ms) continue;
    const std::size_t last = port.fec.size() - 1;
    if (step <= last) {
      if (port.fec[step].time_ms) return port.fec[step].time_ms;
      continue;
    }
    const std::int64_t interval =
        last > 0 && port.fec[last - 1].time_ms ? *port.fec[last].time_ms - *port.fec[last - 1].time_ms : 0;
    return *port.fec[last].time_ms + static_cast<std::int64_t>(step - last) * interval;
  }
  return std::nullopt;
}

Result<void> writeCapturePort(const std::filesystem::path& directory, const module::PortReading& first,
                              const std::vector<FecStep>& steps) {
  std::error_code ec;
  const auto dir = directory / first.port;
  fs::create_directories(dir, ec);
  if (ec) return fail(dir.string() + ": " + ec.message());
  auto write = [](const fs::path& path, const std::string& text) -> Result<void> {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) return fail(path.string() + ": write failed");
    return {};
  };
  if (first.module_present && !first.memory.empty()) {
    if (auto ok = write(dir / "module.dump", eeprom::writePageDump(first.memory)); !ok) return ok;
  }
  std::string sequence;
  for (const auto& step : steps) {
    const auto line = formatFecStep(step.fec, step.link, step.busy);
    if (!line.empty()) sequence += line + "\n";
  }
  if (!sequence.empty()) {
    if (auto ok = write(dir / "fec.seq", std::string(kFecSequenceMagic) + "\n" + sequence); !ok) return ok;
  }
  return {};
}

}  // namespace opticsd::replay
