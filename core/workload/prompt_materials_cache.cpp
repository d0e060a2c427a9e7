#include "core/workload/prompt_materials_cache.h"

#include <optional>

#include "core/util/file_version.h"
#include "core/util/last_built.h"

namespace plumbline::workload {

namespace {

/// What the materials were loaded from: the settings (as a worker is sent them), the JSON path
/// their messages name, and the versions of the files they read.
struct MaterialsKey {
  std::string settings;
  std::string path;
  std::optional<util::FileVersion> tokenizer;
  std::optional<util::FileVersion> dataset;

  bool operator==(const MaterialsKey&) const = default;
};

util::LastBuilt<MaterialsKey, std::shared_ptr<PromptMaterials>> g_materials;

/// Nullopt when a file the spec names cannot be examined: it is read, to say why.
std::optional<MaterialsKey> materialsKeyOf(const PromptSpec& spec, const std::string& path) {
  MaterialsKey key{spec.toWorkerJson().dump(), path, std::nullopt, std::nullopt};
  if (!spec.resolvedTokenizer.empty()) {
    key.tokenizer = util::fileVersion(spec.resolvedTokenizer);
    if (!key.tokenizer) return std::nullopt;
  }
  if (spec.sharegpt) {
    key.dataset = util::fileVersion(spec.sharegpt->resolvedFile);
    if (!key.dataset) return std::nullopt;
  }
  return key;
}

}  // namespace

std::shared_ptr<PromptMaterials> sharedPromptMaterials(const PromptSpec& spec,
                                                       const std::string& path) {
  return g_materials.get(materialsKeyOf(spec, path),
                         [&] { return loadPromptMaterials(spec, path); });
}

}  // namespace plumbline::workload
