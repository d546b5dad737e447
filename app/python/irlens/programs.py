"""What show, svg and html accept, and where the irlens executables are."""

import atexit
import os
import shutil
import tempfile

_ACCEPTED = "an ExportedProgram (torch.export) or the path of a .pt2 file"
_saved_dir = None


def _is_exported_program(obj):
    cls = type(obj)
    return cls.__name__ == "ExportedProgram" and cls.__module__.startswith("torch.")


def _scratch_dir():
    """One folder for the programs saved in this Python process, removed at exit."""
    global _saved_dir
    if _saved_dir is None:
        _saved_dir = tempfile.mkdtemp(prefix="irlens-")
        atexit.register(shutil.rmtree, _saved_dir, True)
    return _saved_dir


def program_path(obj, what="irlens"):
    """The .pt2 file of `obj`: a path is checked and returned; an ExportedProgram is saved with
    torch.export.save to a temporary file (removed when Python exits). Anything else is refused."""
    if isinstance(obj, (str, os.PathLike)):
        path = os.fspath(obj)
        if not os.path.isfile(path):
            raise FileNotFoundError(f"{what}: no file '{path}' (it takes {_ACCEPTED})")
        return os.path.abspath(path)
    if _is_exported_program(obj):
        import torch

        fd, path = tempfile.mkstemp(suffix=".pt2", dir=_scratch_dir())
        os.close(fd)
        torch.export.save(obj, path)
        return path
    raise TypeError(f"{what} takes {_ACCEPTED}, not {type(obj).__module__}.{type(obj).__name__}")


def find_executable(name, env):
    """`name` ("irlens" or "irlens-cli"): the environment variable `env` if set, else PATH, else the
    bin/ folder of the tree this package is installed in (PREFIX/lib/python3/dist-packages/irlens ->
    PREFIX/bin), else a build/ folder of the checkout it lives in (app/python/irlens -> build/app)."""
    chosen = os.environ.get(env)
    if chosen:
        if not (os.path.isfile(chosen) and os.access(chosen, os.X_OK)):
            raise FileNotFoundError(f"{env}={chosen} is not an executable file")
        return chosen
    found = shutil.which(name)
    if found:
        return found
    here = os.path.dirname(os.path.abspath(__file__))
    candidates = [os.path.join(here, "..", "..", "..", "..", "bin", name),
                  os.path.join(here, "..", "..", "..", "build", "app", name)]
    for c in candidates:
        if os.path.isfile(c) and os.access(c, os.X_OK):
            return os.path.normpath(c)
    raise FileNotFoundError(f"cannot find '{name}': not on PATH, not in {', '.join(os.path.normpath(c) for c in candidates)}; "
                            f"install irlens or set {env} to the executable")
