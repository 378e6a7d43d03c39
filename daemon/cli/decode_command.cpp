#include "daemon/cli/decode_command.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "daemon/output/sample_json.hpp"
#include "daemon/output/sample_text.hpp"
#include "drivers/eeprom/cmis.hpp"
#include "drivers/eeprom/cmis_vdm.hpp"
#include "drivers/eeprom/decoder.hpp"
#include "drivers/eeprom/dump_file.hpp"

namespace opticsd::cli {
namespace {

// Exit codes: 0 decoded (issues are printed), 1 unreadable or malformed
// file, 2 the module type is not one opticsd decodes.
constexpr int kExitBadFile = 1;
constexpr int kExitUnsupported = 2;

constexpr const char* kDecodeHelp =
    "Decode a module EEPROM dump (ethtool -m hex/raw output or an opticsd page dump) like ethtool -m, with CMIS VDM.\n"
    "Exit status: 0 decoded, 1 unreadable or malformed file, 2 unsupported module type.";

struct DecodeOptions {
  std::string path;
  bool json = false;
};

int runDecode(const DecodeOptions& options) {
  std::ifstream in(options.path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "opticsd decode: cannot open %s\n", options.path.c_str());
    return kExitBadFile;
  }
  const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  auto dump = eeprom::parseDumpFileDetailed(bytes);
  if (!dump) {
    std::fprintf(stderr, "opticsd decode: %s: %s\n", options.path.c_str(), dump.error().message.c_str());
    return kExitBadFile;
  }
  Sample sample;
  sample.port = options.path;
  eeprom::decodeModule(dump->memory, sample);

  if (options.json) {
    nlohmann::json j = sampleToJson(sample);
    if (j.contains("identity") && j["identity"].contains("applications")) {
      for (auto& a : j["identity"]["applications"]) {
        a["host_interface"] = hostInterfaceName(a["host_interface_id"].get<std::uint8_t>());
        a["media_interface"] = mediaInterfaceName(sample.identity(), a["media_interface_id"].get<std::uint8_t>());
      }
    }
    nlohmann::json vdm = nlohmann::json::array();
    eeprom::forEachVdmObservable(
        dump->memory, eeprom::cmisBankCount(dump->memory), [&](const eeprom::VdmObservable& obs) {
          nlohmann::json o{{"type_id", obs.type_id}, {"name", obs.info->name}, {"lane", obs.lane},
                           {"bank", obs.bank},       {"group", obs.group + 1}, {"slot", obs.slot}};
          if (!obs.info->unit.empty()) o["unit"] = obs.info->unit;
          if (obs.value && std::isfinite(*obs.value)) o["value"] = *obs.value;
          if (obs.thresholds) {
            o["thresholds"] = {{"high_alarm", *obs.thresholds->high_alarm},
                               {"low_alarm", *obs.thresholds->low_alarm},
                               {"high_warning", *obs.thresholds->high_warning},
                               {"low_warning", *obs.thresholds->low_warning}};
          }
          if (obs.flags) {
            o["flags"] = {{"high_alarm", obs.flags->high_alarm},
                          {"low_alarm", obs.flags->low_alarm},
                          {"high_warning", obs.flags->high_warning},
                          {"low_warning", obs.flags->low_warning}};
          }
          vdm.push_back(std::move(o));
        });
    if (!vdm.empty()) j["vdm_observables"] = std::move(vdm);
    j["dump"] = {{"format", dump->format}, {"notes", dump->notes}};
    std::cout << j.dump(2) << '\n';
  } else {
    std::cout << sampleToText(sample, dump->memory, *dump);
  }
  return sample.identity().family == ModuleFamily::kUnknown ? kExitUnsupported : 0;
}

}  // namespace

void addDecodeCommand(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<DecodeOptions>();
  CLI::App* cmd = app.add_subcommand("decode", kDecodeHelp);
  cmd->add_option("FILE", options->path, "dump file (format detected: schemas/module-dump.md)")->required();
  cmd->add_flag("--json", options->json, "print the decoded Sample as JSON");
  cmd->callback([options, &exit_code] { exit_code = runDecode(*options); });
}

}  // namespace opticsd::cli
