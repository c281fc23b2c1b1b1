import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Integration"))

from harness import tiers  # noqa: E402


def pytest_configure(config):
    tiers.register(config)
