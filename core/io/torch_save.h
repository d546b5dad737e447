#pragma once
// Nested torch.save archives (format guide, section 4): a ZIP with <root>/data.pkl and one
// <root>/data/<key> record per storage. Found as legacy serialized_*.pt|.json, 2.8 data/weights/<m>.pt,
// every data/sample_inputs/<m>.pt and use_pickle payloads. Storages are viewed in place whenever the
// record (and the archive holding it) is stored uncompressed.

#include "core/io/unpickler.h"
#include "core/io/zip_archive.h"
#include "core/ir/program.h"
#include "core/ir/status.h"

#include <map>
#include <memory>
#include <string>

namespace irlens::core {

/// `bytes` itself when its data is aligned for any element type (16 bytes), else an aligned copy.
/// PyTorchFileWriter aligns records on 64 bytes, so only legacy and re-zipped files pay for the copy;
/// kernels may then read any dtype through a typed pointer.
std::shared_ptr<const Storage> ensureAligned(std::shared_ptr<const Storage> bytes);

/// Unpickles the torch.save archive held in `bytes`. `recordName` (the outer record) prefixes errors:
/// "serialized_state_dict.pt: data.pkl: unsupported global 'os.system' at byte 57".
/// `limits` come from the archive holding the record, so nested archives share its inflate budget.
Result<PyRef> loadTorchSave(std::shared_ptr<const Storage> bytes, const std::string& recordName, const ZipLimits& limits = {});

/// A state dict (dict or OrderedDict name -> tensor/Parameter) as tensors by FQN.
Result<std::map<std::string, TensorData>> tensorsFromStateDict(const PyObject& dict, const std::string& recordName);

/// A constants dict (name -> tensor or object) as Values; what is not a tensor or scalar is refused.
Result<std::map<std::string, Value>> valuesFromDict(const PyObject& dict, const std::string& recordName);

/// A leaf (tensor, int, float, bool, str, None) as a Value; nullopt for containers and other objects.
std::optional<Value> leafValue(const PyObject& o);

/// Sample inputs `(args, kwargs)`: args flattened depth-first into `args` (tuples, lists, dict values in
/// order), kwargs by key (nested containers flattened as "key[0]", "key['k']"). A plain list/tuple that
/// is not that pair is taken as a flat list of positional inputs.
Status flattenSampleInputs(const PyObject& pair, std::vector<Value>& args, std::map<std::string, Value>& kwargs,
                           const std::string& recordName);

} // namespace irlens::core
