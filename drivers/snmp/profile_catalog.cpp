#include "drivers/snmp/profile_catalog.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>

namespace opticsd::snmp {

std::vector<std::string> ProfileCatalog::defaultDirs() {
  if (const char* env = std::getenv("OPTICSD_SNMP_PROFILE_DIR"); env && *env) return {env};
  std::vector<std::string> dirs;
#ifdef OPTICSD_SNMP_INSTALLED_PROFILE_DIR
  if (std::filesystem::is_directory(OPTICSD_SNMP_INSTALLED_PROFILE_DIR))
    dirs.push_back(OPTICSD_SNMP_INSTALLED_PROFILE_DIR);
#endif
#ifdef OPTICSD_SNMP_SOURCE_PROFILE_DIR
  if (dirs.empty()) dirs.push_back(OPTICSD_SNMP_SOURCE_PROFILE_DIR);
#endif
  return dirs;
}

Result<std::shared_ptr<const ProfileCatalog>> ProfileCatalog::load(const std::vector<std::string>& dirs) {
  static std::mutex mutex;
  static std::map<std::vector<std::string>, std::shared_ptr<const ProfileCatalog>> cache;
  std::lock_guard lock(mutex);
  if (auto it = cache.find(dirs); it != cache.end()) return it->second;

  auto catalog = std::make_shared<ProfileCatalog>();
  for (const auto& dir : dirs) {
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) continue;
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
      auto ext = entry.path().extension().string();
      if (entry.is_regular_file() && (ext == ".yaml" || ext == ".yml")) files.push_back(entry.path().string());
    }
    if (ec) return fail(dir + ": " + ec.message());
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
      auto profile = loadProfileFile(file);
      if (!profile) return tl::unexpected(profile.error());
      for (const auto& warning : profile->warnings) spdlog::warn("SNMP profile {}", warning);
      catalog->add(std::make_shared<const Profile>(std::move(*profile)));
    }
  }
  auto resolved = catalog->resolveExtends();
  if (!resolved) return tl::unexpected(resolved.error());
  cache.emplace(dirs, catalog);
  return std::shared_ptr<const ProfileCatalog>(catalog);
}

Result<void> ProfileCatalog::resolveExtends() {
  constexpr int kMaxDepth = 8;
  for (int round = 0; round <= kMaxDepth; ++round) {
    bool pending = false;
    for (auto& profile : profiles_) {
      if (profile->extends.empty()) continue;
      auto base = byName(profile->extends);
      if (!base) return fail(profile->source + ": extends '" + profile->extends + "', which no loaded profile is");
      if (!base->extends.empty()) {  // its base first
        pending = true;
        continue;
      }
      profile = std::make_shared<const Profile>(extendProfile(*base, *profile));
    }
    if (!pending) return {};
  }
  for (const auto& profile : profiles_) {
    if (!profile->extends.empty()) {
      return fail(profile->source + ": extends '" + profile->extends + "': a loop, or more than 8 levels");
    }
  }
  return {};
}

void ProfileCatalog::add(std::shared_ptr<const Profile> profile) {
  for (auto& existing : profiles_) {
    if (existing->name == profile->name) {
      existing = std::move(profile);
      return;
    }
  }
  profiles_.push_back(std::move(profile));
}

std::shared_ptr<const Profile> ProfileCatalog::byName(std::string_view name) const {
  for (const auto& p : profiles_) {
    if (p->name == name) return p;
  }
  return nullptr;
}

std::shared_ptr<const Profile> ProfileCatalog::bySysObjectId(const Oid& sys_object_id,
                                                             const std::string& sys_descr) const {
  std::shared_ptr<const Profile> best;
  std::size_t best_rank = 0;  // 2 x prefix length, +1 for a sys_descr that matched
  for (const auto& p : profiles_) {
    if (p->sys_descr && !std::regex_search(sys_descr, *p->sys_descr)) continue;
    for (const auto& prefix : p->sys_object_ids) {
      const std::size_t rank = 2 * prefix.size() + (p->sys_descr ? 1 : 0);
      if (sys_object_id.startsWith(prefix) && rank > best_rank) {
        best = p;
        best_rank = rank;
      }
    }
  }
  return best;
}

}  // namespace opticsd::snmp
