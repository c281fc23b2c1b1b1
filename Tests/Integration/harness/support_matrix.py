"""support-matrix.toml, read by scripts/support-matrix.py (the one reader the scripts use too)."""
import importlib.util
import os

from .fakeiio import ROOT

_spec = importlib.util.spec_from_file_location("support_matrix", os.path.join(ROOT, "scripts", "support-matrix.py"))
reader = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(reader)


def matrix():
    return reader.load()


def compositors(pkg_config):
    """The compositors' packages built with that wlroots (its pkg-config name), as the matrix lists them."""
    return [reader.package(c) for c in reader.wlroots(matrix(), pkg_config)["compositors"]]


def tested_in_roots():
    """The pkg-config names of the wlroots releases tested in a Debian root."""
    return [w["pkg-config"] for w in reader.wlroots_sorted(matrix()) if w["tested-in"] == "root"]
