"""irlens in Python: what runs where PyTorch runs, for the irlens inspector of torch.export
programs (.pt2).

    irlens.capture    record every node's value of an exported program (irlens-capture)
"""
