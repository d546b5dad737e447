#!/usr/bin/env python3
"""Builds the seed corpus for the fuzz targets from ../shared/fixtures (never written into the repo).

    make_corpus.py SHARED_FIXTURES_DIR OUT_DIR

OUT_DIR/zip     small archives: whole small .pt2 files and every nested torch.save record (.pt)
OUT_DIR/json    program JSON records (models/*.json, serialized_exported_program.json), up to 256 KiB
OUT_DIR/pickle  data.pkl of every nested torch.save archive
OUT_DIR/load    whole .pt2 files up to 256 KiB
Large inputs slow libFuzzer down without adding coverage, hence the size caps.
"""
import hashlib
import io
import os
import sys
import zipfile

MAX_SEED = 256 * 1024


def put(out, kind, data, seen):
    if not data or len(data) > MAX_SEED:
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
            put(out, "json", rec, seen)
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
