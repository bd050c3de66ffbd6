"""Shared fixtures: where the models and the `pliant` command line are.

ctest sets PYTHONPATH to the build's python folder, PLIANT_CLI to the
command line and PLIANT_TEST_MODELS to third_party/models.
"""
import os

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


@pytest.fixture
def models_dir():
    return os.environ.get("PLIANT_TEST_MODELS", os.path.join(ROOT, "third_party", "models"))


@pytest.fixture
def humanoid_path(models_dir):
    return os.path.join(models_dir, "dm_control", "humanoid.xml")


@pytest.fixture
def cli():
    path = os.environ.get("PLIANT_CLI")
    if not path:
        pytest.skip("PLIANT_CLI is not set (ctest sets it)")
    return path
