import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True

import pytest  # noqa: E402

from harness import tiers  # noqa: E402


def pytest_configure(config):
    tiers.register(config)


@pytest.fixture(scope="session")
def client_binary(tmp_path_factory):
    """orient-client, built once per run (see compositor.build_client)."""
    from harness.compositor import build_client
    return build_client(str(tmp_path_factory.mktemp("client")))


@pytest.fixture(scope="session")
def flood_binary(tmp_path_factory):
    """flood-client: one client holding many wlr-orient objects."""
    from harness.compositor import build_client
    return build_client(str(tmp_path_factory.mktemp("client")), "flood-client")


@pytest.fixture(scope="session")
def ping_binary(tmp_path_factory):
    """ping-client: how long the compositor takes to answer a round trip."""
    from harness.compositor import build_client
    return build_client(str(tmp_path_factory.mktemp("client")), "ping-client")
