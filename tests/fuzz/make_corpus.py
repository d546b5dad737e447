#!/usr/bin/env python3
"""Builds the seed corpus for the fuzz targets from ../shared/fixtures (never written into the repo).

    make_corpus.py SHARED_FIXTURES_DIR OUT_DIR

OUT_DIR/zip     archives up to 64 KiB: whole small .pt2 files and every nested torch.save record (.pt)
OUT_DIR/json    program JSON records (models/*.json, serialized_exported_program.json) up to 16 KiB,
                and of every record, reduced copies (each list cut to a few elements of different
                shapes: one node per distinct op, one spec per kind) that keep every field kind
OUT_DIR/pickle  data.pkl of every nested torch.save archive, up to 64 KiB
OUT_DIR/load    whole .pt2 files up to 128 KiB (tiny_mlp in its three forms: archive, training IR, legacy zip)
Large inputs slow libFuzzer down without adding coverage (a 190 KiB program JSON costs as much as a
hundred small ones and mutates no new field), hence the size caps; fuzz.sh passes the same caps as
-max_len.
"""
import hashlib
import io
import os
import sys
import zipfile

import json

MAX_SEED = {"zip": 64 * 1024, "json": 16 * 1024, "pickle": 64 * 1024, "load": 128 * 1024}


def shape(v):
    """What makes two list elements different enough to keep both: keys, union tag, op target."""
    if isinstance(v, dict):
        return (tuple(sorted(v)), str(v.get("target", "")), str(v.get("kind", "")))
    return type(v).__name__


def reduce_json(v, keep):
    if isinstance(v, list) and len(v) > keep:
        picked, shapes = [], set()
        for e in v:
            if len(picked) >= keep:
                break
            if shape(e) not in shapes:
                shapes.add(shape(e))
                picked.append(e)
        for e in v:  # room left: fill up in order, so short lists stay whole
            if len(picked) >= keep:
                break
            if not any(e is p for p in picked):
                picked.append(e)
        return [reduce_json(e, keep) for e in picked]
    if isinstance(v, list):
        return [reduce_json(e, keep) for e in v]
    if isinstance(v, dict):
        return {k: reduce_json(e, keep) for k, e in v.items()}
    return v


def put_json(out, rec, seen):
    put(out, "json", rec, seen)
    try:
        doc = json.loads(rec)
    except ValueError:
        return
    for keep in (1, 3, 8):
        put(out, "json", json.dumps(reduce_json(doc, keep), separators=(",", ":")).encode(), seen)


def put(out, kind, data, seen):
    if not data or len(data) > MAX_SEED[kind]:
        return
    digest = hashlib.sha1(data).hexdigest()
    if (kind, digest) in seen:
        return
    seen.add((kind, digest))
    with open(os.path.join(out, kind, digest), "wb") as f:
        f.write(data)


def walk_archive(out, data, seen, depth=0):
    try:
        z = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        return
    for info in z.infolist():
        name = info.filename
        if info.file_size > 64 * 1024 * 1024:
            continue
        try:
            rec = z.read(info)
        except Exception:  # damaged record in a real fixture: skip it, the corpus is only seeds
            continue
        if name.endswith(".json") and (b'"graph_module"' in rec[:4096] or "models/" in name):
            put_json(out, rec, seen)
        elif name.endswith("data.pkl"):
            put(out, "pickle", rec, seen)
        elif rec[:4] == b"PK\x03\x04" and depth == 0:
            put(out, "zip", rec, seen)
            walk_archive(out, rec, seen, depth + 1)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    fixtures, out = sys.argv[1], sys.argv[2]
    for kind in ("zip", "json", "pickle", "load"):
        os.makedirs(os.path.join(out, kind), exist_ok=True)
    seen = set()
    for root, _dirs, files in os.walk(fixtures):
        for fn in sorted(files):
            if not (fn.endswith(".pt2") or fn.endswith(".ep") or fn.endswith(".pt")):
                continue
            with open(os.path.join(root, fn), "rb") as f:
                data = f.read()
            put(out, "load", data, seen)
            put(out, "zip", data, seen)
            walk_archive(out, data, seen)
    for kind in ("zip", "json", "pickle", "load"):
        print(f"{kind}: {len(os.listdir(os.path.join(out, kind)))} seeds")


if __name__ == "__main__":
    main()
