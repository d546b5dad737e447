#!/usr/bin/env python3
"""Writes the hand-made hostile inputs of tests/fuzz/regressions/<target>/handmade-* (committed).

    make_handmade.py [REGRESSIONS_DIR]     (default: the regressions folder next to this script)

They are not fuzzer findings: they make the replay test (tests/fuzz_replay) meaningful before the
fuzzers find anything, one per kind of attack each reader must refuse (bombs, huge counts and indices,
deep nesting, unsafe names, unsafe pickle globals), plus one valid input per target as a positive
control. Everything is built from scratch here (no fixture is copied). Their expected outcomes are in
regressions/expected.txt.
"""
import io
import json
import os
import struct
import sys
import zipfile
import zlib

META = {"dtype": 7, "sizes": [{"as_int": 2}, {"as_int": 3}], "requires_grad": False, "device": {"type": "cpu"},
        "strides": [{"as_int": 3}, {"as_int": 1}], "storage_offset": {"as_int": 0}, "layout": 7}


def program(meta=META, name="relu"):
    graph = {
        "inputs": [{"as_tensor": {"name": "x"}}],
        "outputs": [{"as_tensor": {"name": name}}],
        "nodes": [{"target": "torch.ops.aten.relu.default", "inputs": [{"name": "self", "arg": {"as_tensor": {"name": "x"}}, "kind": 1}],
                   "outputs": [{"as_tensor": {"name": name}}], "metadata": {}}],
        "tensor_values": {"x": META, name: meta},
        "sym_int_values": {}, "sym_bool_values": {}, "is_single_tensor_return": False, "custom_obj_values": {},
    }
    signature = {"input_specs": [{"user_input": {"arg": {"as_tensor": {"name": "x"}}}}],
                 "output_specs": [{"user_output": {"arg": {"as_tensor": {"name": name}}}}]}
    return {"graph_module": {"graph": graph, "signature": signature, "module_call_graph": []},
            "opset_version": {"aten": 10}, "range_constraints": {}, "schema_version": {"major": 8, "minor": 12},
            "verifiers": [], "torch_version": "2.9.0"}


def dumps(v):
    return json.dumps(v, separators=(",", ":")).encode()


def zip_bytes(records, compress=zipfile.ZIP_STORED):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compress) as z:
        for name, data in records:
            z.writestr(zipfile.ZipInfo(name), data, compress_type=compress)
    return buf.getvalue()


def pt2(model_json, weights_config=b'{"config": {}}', extra=(), json_compress=zipfile.ZIP_STORED):
    root = "archive/"
    records = [(root + "archive_format", b"pt2"), (root + "archive_version", b"0"),
               (root + "byteorder", b"little"), (root + "models/model.json", model_json),
               (root + "data/weights/model_weights_config.json", weights_config),
               (root + "data/constants/model_constants_config.json", b'{"config": {}}')] + list(extra)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data in records:
            method = json_compress if name.endswith("models/model.json") else zipfile.ZIP_STORED
            z.writestr(zipfile.ZipInfo(name), data, compress_type=method)
    return buf.getvalue()


def shared_tuples(levels):
    """t = 1; t = (t, t) `levels` times through one memo entry: tiny, but 2^levels leaves as a tree."""
    return b"\x80\x02K\x01q\x000" + b"h\x00h\x00\x86q\x000" * levels + b"h\x00."


def patch_sizes(data, uncompressed):
    """Sets the uncompressed size of the (only) record in its local header and central directory."""
    b = bytearray(data)
    b[22:26] = struct.pack("<I", uncompressed)
    cd = b.rfind(b"PK\x01\x02")
    b[cd + 24:cd + 28] = struct.pack("<I", uncompressed)
    return bytes(b)


def inputs():
    ok = dumps(program())
    yield "json", "handmade-valid-program", ok
    yield "json", "handmade-nesting-100000", b"[" * 100000
    rank100 = dict(META, sizes=[{"as_int": 1}] * 100, strides=[{"as_int": 1}] * 100)
    yield "json", "handmade-rank-100", dumps(program(rank100))
    yield "json", "handmade-size-2pow64", dumps(program(dict(META, sizes=[{"as_int": 2}, {"as_int": 0}]))).replace(
        b'{"as_int":0}]', b'{"as_int":18446744073709551616}]', 1)
    yield "json", "handmade-lone-surrogate", ok.replace(b'"name":"relu"', b'"name":"\\ud800"')
    yield "json", "handmade-invalid-utf8", ok.replace(b'"name":"relu"', b'"name":"\xff\xfe"')

    yield "zip", "handmade-valid-archive", zip_bytes([("a/data.pkl", b"\x80\x02K\x01."), ("a/version", b"3\n")])
    yield "zip", "handmade-eocd-claims-65535-records", b"PK\x05\x06" + struct.pack("<HHHHIIH", 0, 0, 65535, 65535,
                                                                                   0xFFFFFFF0, 0, 0)
    zeros = zip_bytes([("a/bomb", b"\0" * (1 << 20))], zipfile.ZIP_DEFLATED)
    yield "zip", "handmade-deflate-declares-1gib", patch_sizes(zeros, 1 << 30)
    yield "zip", "handmade-deflate-inflates-past-declared", patch_sizes(zeros, 1000)
    yield "zip", "handmade-traversal-name", zip_bytes([("../../etc/passwd", b"x")])
    yield "zip", "handmade-truncated-in-central-directory", zip_bytes([("a/x", b"x" * 100)])[:-30]
    # zipfile cuts names at NUL, so the byte goes in after writing (local header and central directory)
    yield "zip", "handmade-nul-in-name", zip_bytes([("a/evil_name", b"x")]).replace(b"evil_name", b"evil\0name")
    two = bytearray(zip_bytes([("a/x", b"x"), ("a/y", b"y")]))
    end = two.rfind(b"PK\x05\x06")
    two[end + 8:end + 12] = struct.pack("<HH", 1, 1)  # the end record counts one record of two
    yield "zip", "handmade-count-one-less", bytes(two)

    yield "pickle", "handmade-valid-int", b"\x80\x02K\x07."
    yield "pickle", "handmade-global-os-system", b"\x80\x02cos\nsystem\nX\x04\x00\x00\x00echo\x85R."
    yield "pickle", "handmade-memo-get-4g", b"\x80\x02j\xff\xff\xff\xff."
    yield "pickle", "handmade-marks-300", b"\x80\x02" + b"(" * 300 + b"."
    yield "pickle", "handmade-string-claims-2gib", b"\x80\x02X\xff\xff\xff\x7fabc"
    yield "pickle", "handmade-unknown-storage-key", (b"\x80\x02(X\x07\x00\x00\x00storagectorch\nFloatStorage\n"
                                                       b"X\x01\x00\x00\x009X\x03\x00\x00\x00cpuK\x04tQ.")

    yield "load", "handmade-valid-pt2", pt2(ok)
    yield "load", "handmade-empty", b""
    yield "load", "handmade-json-nesting-100000", pt2(b"[" * 100000)
    missing = {"config": {"w": {"path_name": "weight_9", "is_param": True, "use_pickle": False, "tensor_meta": META}}}
    yield "load", "handmade-missing-weight-record", pt2(ok, dumps(missing))
    save = zip_bytes([("archive/data.pkl", shared_tuples(48)), ("archive/byteorder", b"little"), ("archive/version", b"3\n")])
    yield "load", "handmade-sample-inputs-shared-tuples-48", pt2(ok, extra=[("archive/data/sample_inputs/model.pt", save)])
    yield "load", "handmade-json-deflate-bomb-300mib", pt2(b"\0" * (300 << 20), json_compress=zipfile.ZIP_DEFLATED)
    yield "load", "handmade-pt2-inside-pt2", zip_bytes([("outer/archive_format", b"pt2"),
                                                         ("outer/models/model.json", pt2(ok))])


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "regressions")
    for target, name, data in inputs():
        os.makedirs(os.path.join(out, target), exist_ok=True)
        with open(os.path.join(out, target, name), "wb") as f:
            f.write(data)
        print(f"{target}/{name}: {len(data)} bytes")


if __name__ == "__main__":
    main()
