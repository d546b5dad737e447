"""python3 -m irlens FILE [OPTIONS]: what `irlens FILE [OPTIONS]` does (the process becomes irlens)."""

import os
import sys

from irlens.programs import find_executable


def main():
    try:
        gui = find_executable("irlens", "IRLENS_GUI")
    except FileNotFoundError as e:
        sys.exit(f"python3 -m irlens: {e}")
    os.execv(gui, [gui, *sys.argv[1:]])


if __name__ == "__main__":
    main()
