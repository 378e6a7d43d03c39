#pragma once
// The set of profiles a daemon knows: the shipped ones plus any user
// directory, loaded once per directory list and shared (profiles are
// immutable). A user adds a profile by dropping a YAML file in a directory;
// nothing is recompiled.
//
// Thread-safe: load() serialises on a mutex; a loaded catalog is read-only.

#include <memory>
#include <string>
#include <vector>

#include "drivers/result.hpp"
#include "drivers/snmp/profile.hpp"

namespace opticsd::snmp {

class ProfileCatalog {
 public:
  // Loads every *.yaml / *.yml in `dirs` (later directories override earlier
  // profiles of the same name). Missing directories are skipped; a broken
  // file fails the whole load with its location.
  static Result<std::shared_ptr<const ProfileCatalog>> load(const std::vector<std::string>& dirs);
  // The shipped directory: $OPTICSD_SNMP_PROFILE_DIR, else the installed
  // path, else the source tree's schemas/snmp-profiles.
  static std::vector<std::string> defaultDirs();

  void add(std::shared_ptr<const Profile> profile);
  std::shared_ptr<const Profile> byName(std::string_view name) const;
  // The profile with the longest sys_object_id prefix of `sys_object_id`
  // among those whose `sys_descr` (if any) matches `sys_descr`; on equal
  // length, one with a matching sys_descr wins over one without.
  std::shared_ptr<const Profile> bySysObjectId(const Oid& sys_object_id, const std::string& sys_descr = {}) const;
  const std::vector<std::shared_ptr<const Profile>>& profiles() const { return profiles_; }

 private:
  Result<void> resolveExtends();  // every `extends:` replaced by the merged profile
  std::vector<std::shared_ptr<const Profile>> profiles_;
};

}  // namespace opticsd::snmp
