"""irlens.show: the irlens window on a program, started beside Python."""

import subprocess
import sys

from irlens.programs import find_executable, program_path

# The options of the irlens command line (irlens --help) as keyword arguments: name -> takes a value.
GUI_OPTIONS = {
    "select": True, "search": True, "run": False, "decompose": True, "run_to": True, "reference": True,
    "dock": True, "what_if": True, "source_root": True, "memory_overlay": False, "fx_placeholders": False,
    "no_fold": False, "expand_all": False, "fx": True, "compare": True, "tour": False,
}


def gui_arguments(options):
    """The irlens flags for show()'s keyword arguments: run=True -> --run, select="x" -> --select x,
    compare=ep_or_path -> --compare FILE; False and None leave a flag out."""
    args = []
    for key, value in options.items():
        if key not in GUI_OPTIONS:
            raise TypeError(f"irlens.show: no option '{key}'; it takes {', '.join(sorted(GUI_OPTIONS))}")
        if value is None or value is False:
            continue
        flag = "--" + key.replace("_", "-")
        if not GUI_OPTIONS[key]:
            if value is not True:
                raise TypeError(f"irlens.show: {key} is True or False, not {value!r}")
            args.append(flag)
            continue
        if key == "compare":
            value = program_path(value, "irlens.show(compare=...)")
        args += [flag, str(value)]
    return args


def show(obj, **options):
    """Opens irlens on `obj` (an ExportedProgram, saved to a temporary .pt2 first, or a .pt2 path) with
    the options the irlens command takes as keywords (select=, search=, run=True, compare=...). Returns
    at once with the started process (subprocess.Popen); prints where the program file is."""
    path = program_path(obj, "irlens.show")
    argv = [find_executable("irlens", "IRLENS_GUI"), *gui_arguments(options), path]
    process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, start_new_session=True)
    print(f"irlens: showing {path} (process {process.pid})", file=sys.stderr)
    return process
