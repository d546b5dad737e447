#!/usr/bin/python3
"""PyTorch's numbers for the test zoo (tests/support/zoo_programs.h).

Reads each zoo program as the project writes it (`irlens_write_zoo DIR`: DIR/<name>/model.pt2), runs its graph
node by node with PyTorch's own ATen kernels (torch.ops.aten, eager, float32 on the CPU), and writes
tests/zoo/references/<name>/: manifest.json, the inputs and reference outputs as raw little-endian arrays, the new
values of mutated buffers, and intermediates.safetensors (every node's value but unused tuple elements, keyed by
node name). The format is
the `model.expected/` sidecar the engine's tests read (core/exec/inputs.h).

Made once with Debian's python3-torch (1.13); the references are committed. Run it again when a zoo program
changes:

    cmake --build build --target irlens_write_zoo
    build/tests/zoo/irlens_write_zoo /tmp/zoo
    /usr/bin/python3 tests/zoo/make_references.py /tmp/zoo
"""

import io
import json
import pathlib
import struct
import sys
import zipfile

import torch

# export schema ScalarType codes
DTYPES = {1: torch.uint8, 2: torch.int8, 3: torch.int16, 4: torch.int32, 5: torch.int64, 6: torch.float16,
          7: torch.float32, 8: torch.float64, 12: torch.bool, 13: torch.bfloat16}
NAMES = {torch.uint8: "uint8", torch.int8: "int8", torch.int16: "int16", torch.int32: "int32", torch.int64: "int64",
         torch.float16: "float16", torch.float32: "float32", torch.float64: "float64", torch.bool: "bool"}
SAFETENSORS = {torch.uint8: "U8", torch.int8: "I8", torch.int16: "I16", torch.int32: "I32", torch.int64: "I64",
               torch.float16: "F16", torch.float32: "F32", torch.float64: "F64", torch.bool: "BOOL"}

# ops PyTorch 1.13 spells differently: what they compute there
def _bn_no_training(input, weight, bias, running_mean, running_var, momentum, eps):
    out = torch.ops.aten.native_batch_norm(input, weight, bias, running_mean, running_var, False, momentum, eps)[0]
    return out, torch.empty(0), torch.empty(0)


SPELLED_DIFFERENTLY = {"aten._native_batch_norm_legit_no_training.default": _bn_no_training}


def sym_int(value, symbols):
    if "as_int" in value:
        return value["as_int"]
    return symbols[value["as_name"]]


class Archive:
    def __init__(self, path):
        self.zip = zipfile.ZipFile(path)
        prefix = self.zip.namelist()[0].split("/")[0] + "/"
        self.prefix = prefix
        self.program = json.loads(self.zip.read(prefix + "models/model.json"))
        self.state = {}
        for kind in ("weights", "constants"):
            config_name = prefix + "data/%s/model_%s_config.json" % (kind, kind)
            if config_name not in self.zip.namelist():
                continue
            for fqn, entry in json.loads(self.zip.read(config_name))["config"].items():
                raw = self.zip.read(prefix + "data/%s/%s" % (kind, entry["path_name"]))
                self.state[fqn] = self.tensor_of(raw, entry["tensor_meta"])

    @staticmethod
    def tensor_of(raw, meta):
        dtype = DTYPES[meta["dtype"]]
        sizes = [s["as_int"] for s in meta["sizes"]]
        strides = [s["as_int"] for s in meta["strides"]]
        offset = meta["storage_offset"]["as_int"]
        flat = torch.frombuffer(bytearray(raw), dtype=dtype) if raw else torch.empty(0, dtype=dtype)
        return torch.as_strided(flat, sizes, strides, offset).clone()

    def sample_inputs(self):
        args, _kwargs = torch.load(io.BytesIO(self.zip.read(self.prefix + "data/sample_inputs/model.pt")))
        return list(args)


class Interpreter:
    """Runs a graph of the export schema with torch.ops.aten; records every node's value by name."""

    def __init__(self, archive):
        self.archive = archive
        self.values = {}
        self.order = []

    def argument(self, arg, env, symbols):
        (kind, value), = arg.items()
        if kind == "as_tensor":
            return env[value["name"]]
        if kind == "as_tensors":
            return [env[v["name"]] for v in value]
        if kind == "as_float" and isinstance(value, str):
            return float(value)  # "-Infinity", "NaN"
        if kind in ("as_int", "as_float", "as_bool", "as_string", "as_ints", "as_floats", "as_bools"):
            return value
        if kind == "as_none":
            return None
        if kind == "as_scalar_type":
            return DTYPES[value]
        if kind == "as_sym_int":
            return sym_int(value, symbols)
        if kind == "as_sym_ints":
            return [sym_int(v, symbols) for v in value]
        if kind == "as_memory_format":
            return {1: torch.contiguous_format, 2: torch.channels_last, 0: None}.get(value)
        if kind in ("as_device", "as_layout"):
            return None
        raise SystemExit("unsupported argument kind %s" % kind)

    def run_graph(self, graph, inputs, symbols, record):
        env = {}
        for spec, value in zip(graph["inputs"], inputs):
            env[spec["as_tensor"]["name"]] = value
        for node in graph["nodes"]:
            target = node["target"]
            if target == "torch.ops.higher_order.cond":
                pred, true_g, false_g, operands = (self.argument(i["arg"], env, symbols) if "as_graph" not in i["arg"]
                                                    else i["arg"]["as_graph"]["graph"] for i in node["inputs"])
                results = self.run_graph(true_g if bool(pred) else false_g, operands, symbols, record=False)
            elif target.startswith("_operator."):
                a, b = (self.argument(i["arg"], env, symbols) for i in node["inputs"])
                results = [{"mul": a * b, "add": a + b, "sub": a - b, "floordiv": a // b}[target.split(".")[1]]]
            else:
                op_name = target[len("torch.ops."):]
                args, kwargs = [], {}
                for i in node["inputs"]:
                    value = self.argument(i["arg"], env, symbols)
                    if i.get("kind") == 2:
                        kwargs[i["name"]] = value
                    else:
                        args.append(value)
                if op_name in SPELLED_DIFFERENTLY:
                    result = SPELLED_DIFFERENTLY[op_name](*args, **kwargs)
                else:
                    namespace, op, overload = op_name.split(".")
                    result = getattr(getattr(getattr(torch.ops, namespace), op), overload)(*args, **kwargs)
                results = list(result) if isinstance(result, (tuple, list)) else [result]
            self.bind(node, results, env, symbols, record)
        return [env[o["as_tensor"]["name"]] for o in graph["outputs"]]

    def bind(self, node, results, env, symbols, record):
        names = []
        for out in node["outputs"]:
            (kind, value), = out.items()
            if kind == "as_tensor":
                names.append(value["name"])
            elif kind == "as_tensors":
                names.extend(v["name"] for v in value)
            elif kind == "as_sym_int":
                names.append(value["as_name"])
            elif kind == "as_none":
                names.append(None)
        for name, result in zip(names, results):
            if name is None:
                continue
            if isinstance(result, int):
                symbols[name] = result
            env[name] = result
            # unused tuple elements (name_unused_k) are left out, as torch.export leaves them unnamed
            # a copy: an in-place op later (hardtanh_) must not change the value this node made
            if record and isinstance(result, torch.Tensor) and "_unused_" not in name:
                self.values[name] = result.clone()
                self.order.append(name)

    def run(self, user_inputs):
        program = self.archive.program
        graph = program["graph_module"]["graph"]
        specs = program["graph_module"]["signature"]["input_specs"]
        inputs, symbols, user = [], {}, iter(user_inputs)
        for spec in specs:
            (kind, value), = spec.items()
            if kind == "parameter":
                inputs.append(self.archive.state[value["parameter_name"]])
            elif kind == "buffer":
                inputs.append(self.archive.state[value["buffer_name"]])
            elif kind == "tensor_constant":
                inputs.append(self.archive.state[value["tensor_constant_name"]])
            else:
                inputs.append(next(user))
        # symbols take their values from the user inputs' recorded sizes
        for spec, value in zip(graph["inputs"], inputs):
            meta = graph["tensor_values"].get(spec.get("as_tensor", {}).get("name", ""))
            if meta is None:
                continue
            for size, actual in zip(meta["sizes"], value.shape):
                if "as_expr" in size:
                    symbols[size["as_expr"]["expr_str"]] = actual
        self.values, self.order = {}, []
        outputs = self.run_graph(graph, inputs, symbols, record=True)
        out_specs = program["graph_module"]["signature"]["output_specs"]
        return [(spec, value) for spec, value in zip(out_specs, outputs)]


def write_array(folder, file, tensor):
    (folder / file).write_bytes(tensor.contiguous().numpy().tobytes())


def entry(name, file, tensor, **extra):
    e = {"name": name, "dtype": NAMES[tensor.dtype], "shape": list(tensor.shape), "file": file, "nbytes": tensor.numel() * tensor.element_size()}
    e.update(extra)
    return e


def case(folder, prefix, interpreter, user_inputs, input_names):
    results = interpreter.run(user_inputs)
    inputs = []
    for k, (name, value) in enumerate(zip(input_names, user_inputs)):
        write_array(folder, "%sinput_%d.bin" % (prefix, k), value)
        inputs.append(entry(name, "%sinput_%d.bin" % (prefix, k), value, index=k))
    outputs, buffers = [], []
    for spec, value in results:
        (kind, body), = spec.items()
        if kind == "user_output":
            k = len(outputs)
            write_array(folder, "%soutput_%d.bin" % (prefix, k), value)
            outputs.append(entry(body["arg"]["as_tensor"]["name"], "%soutput_%d.bin" % (prefix, k), value, index=k))
        elif kind == "buffer_mutation":
            k = len(buffers)
            write_array(folder, "%sbuffer_%d.bin" % (prefix, k), value)
            b = entry(body["arg"]["name"], "%sbuffer_%d.bin" % (prefix, k), value)
            b["buffer"] = body["buffer_name"]
            buffers.append(b)
    return {"inputs": inputs, "outputs": outputs, "buffer_mutations": buffers}


def write_intermediates(folder, name, interpreter):
    header = {"__metadata__": {"format": "irlens-zoo-intermediates/1", "model": name,
                               "producer": "PyTorch %s, torch.ops.aten node by node, main case" % torch.__version__,
                               "nodes": json.dumps(interpreter.order)}}
    blobs, offset = [], 0
    for node in interpreter.order:
        t = interpreter.values[node].contiguous()
        raw = t.numpy().tobytes()
        header[node] = {"dtype": SAFETENSORS[t.dtype], "shape": list(t.shape), "data_offsets": [offset, offset + len(raw)]}
        blobs.append(raw)
        offset += len(raw)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    (folder / "intermediates.safetensors").write_bytes(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def alternative_inputs(name, interpreter, main_inputs):
    """A second case where the program's data decides something: the other cond branch, another batch."""
    if name == "cond_branch":
        interpreter.run(main_inputs)
        main_branch = interpreter.values["gt"].item()
        for scale in (-1.0, -2.0, -4.0, 4.0):
            alt = [main_inputs[0] * scale]
            interpreter.run(alt)
            if interpreter.values["gt"].item() != main_branch:
                return alt
        raise SystemExit("cond_branch: no scaled input takes the other branch")
    if name == "dynamic_mlp":
        generator = torch.Generator().manual_seed(7)
        return [torch.randn(7, main_inputs[0].shape[1], generator=generator)]
    return None


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    written = pathlib.Path(sys.argv[1])
    out_root = pathlib.Path(__file__).resolve().parent / "references"
    torch.set_num_threads(1)
    for model in sorted(p for p in written.iterdir() if (p / "model.pt2").exists()):
        name = model.name
        archive = Archive(model / "model.pt2")
        interpreter = Interpreter(archive)
        folder = out_root / name
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.iterdir():
            old.unlink()
        specs = archive.program["graph_module"]["signature"]["input_specs"]
        input_names = [s["user_input"]["arg"]["as_tensor"]["name"] for s in specs if "user_input" in s]
        with torch.no_grad():
            main_inputs = archive.sample_inputs()
            alt = alternative_inputs(name, interpreter, main_inputs)
            extra = [dict(name="alt", **case(folder, "alt_", interpreter, alt, input_names))] if alt else []
            manifest = {"format": "pt2gen-expected/1", "model": name,
                        "reference": "PyTorch %s, torch.ops.aten node by node on the CPU (torch.no_grad), weights and sample "
                                     "inputs of the archive irlens writes; raw little-endian C-contiguous arrays, bool as one byte"
                                     % torch.__version__,
                        "byteorder": "little"}
            manifest.update(case(folder, "", interpreter, main_inputs, input_names))
            write_intermediates(folder, name, interpreter)
        if extra:
            manifest["extra_cases"] = extra
        (folder / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
        print("%s: %d outputs, %d buffers, %d nodes%s" % (name, len(manifest["outputs"]), len(manifest["buffer_mutations"]),
                                                         len(interpreter.order), ", an extra case" if extra else ""))


if __name__ == "__main__":
    main()
