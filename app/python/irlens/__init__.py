"""irlens in Python: the irlens inspector of torch.export programs (.pt2) where Python users work.

    irlens.show(ep_or_path, run=True)    open the irlens window on a program (does not wait for it)
    irlens.svg(ep_or_path)               the graph as SVG; a notebook cell shows it
    irlens.html(ep_or_path, run=True)    the one-file HTML report; a notebook cell shows it
    irlens.capture(program, inputs, out) record every node's value in PyTorch, for irlens-cli run --reference
    python3 -m irlens FILE [OPTIONS]     what `irlens FILE [OPTIONS]` does

show, svg and html run the installed `irlens` and `irlens-cli` (found on PATH, beside this package in
an installed tree, or named by the IRLENS_GUI and IRLENS_CLI environment variables); this package has
no compiled part and imports PyTorch only to save an ExportedProgram or to capture values.
"""

from irlens.notebook import HtmlReport, SvgDrawing, html, svg
from irlens.programs import program_path
from irlens.window import show

__all__ = ["show", "svg", "html", "capture", "program_path", "SvgDrawing", "HtmlReport"]


def capture(program, inputs, output_path):
    """Runs `program` node by node on `inputs` in PyTorch and writes every node's value to
    `output_path` (safetensors) for `irlens-cli run --reference`; returns (values, bytes).
    See irlens.recording.capture for what each argument may be."""
    from irlens.recording import capture as run_and_record  # imports PyTorch

    return run_and_record(program, inputs, output_path)
