#include "core/workload/prompt_materials.h"

#include <vector>

#include "core/tokenizer/tokenizer_error.h"
#include "core/util/clock.h"
#include "core/workload/workload_error.h"

namespace plumbline::workload {
namespace {

std::vector<size_t> compositionCheckLengths() {
  std::vector<size_t> lengths;
  for (size_t n = 1; n <= 64; ++n) lengths.push_back(n);
  for (size_t n = 100; n <= 8192; n = n * 3 / 2) lengths.push_back(n);
  lengths.push_back(8192);
  return lengths;
}

}  // namespace

std::shared_ptr<PromptMaterials> loadPromptMaterials(const PromptSpec& spec, const std::string& path) {
  const int64_t start = util::monotonicNs();
  auto m = std::make_shared<PromptMaterials>();
  if (!spec.resolvedTokenizer.empty()) {
    try {
      m->tokenizer = std::make_unique<tokenizer::Tokenizer>(tokenizer::Tokenizer::fromFile(spec.resolvedTokenizer));
    } catch (const tokenizer::TokenizerError& e) {
      throw WorkloadError(path + ".tokenizer", e.what());
    }
    if (spec.source == "synthetic") {
      try {
        m->synthetic = std::make_unique<tokenizer::SyntheticPromptBuilder>(*m->tokenizer);
      } catch (const std::runtime_error& e) {
        throw WorkloadError(path + ".tokenizer", e.what());
      }
      const std::string miss = m->synthetic->checkComposition(compositionCheckLengths(), {1, 2});
      if (!miss.empty())
        throw WorkloadError(path + ".tokenizer", "synthetic prompts are not exact under " + spec.tokenizer +
                                                     " (" + miss + "): its pre-tokenizer does not split words");
    }
  }
  if (spec.sharegpt) {
    m->dataset = std::make_unique<ShareGptDataset>(ShareGptDataset::fromFile(spec.sharegpt->resolvedFile));
    PromptTokenCounter counter(m->tokenizer.get());
    m->sharegpt = std::make_unique<ShareGptPrompts>(*m->dataset, *spec.sharegpt, counter);
  }
  m->loadNs = util::monotonicNs() - start;
  return m;
}

}  // namespace plumbline::workload
