"""Pliant: rigid-body physics with MuJoCo-style soft constraints.

    import pliant
    model = pliant.Model.from_xml_path("humanoid.xml")
    data = pliant.Data(model)
    data.qpos[2] += 0.1               # numpy views of the engine's state
    pliant.step(model, data, nstep=100)
    print(data.time, data.xpos[1], data.sensordata)

`pliant.rollout` steps batches of trajectories on threads, and
`pliant.distributed.rollout` spreads them over a Dask cluster.
"""
from ._pliant import (Data, LoadError, Model, ObjectRef, forward, reset, rollout,  # noqa: F401
                      step)

__all__ = ["Data", "LoadError", "Model", "ObjectRef", "forward", "reset", "rollout", "step",
           "distributed"]


def __getattr__(name):
    # `pliant.distributed` imports Dask only when it is used.
    if name == "distributed":
        import importlib
        return importlib.import_module(".distributed", __name__)
    raise AttributeError("module 'pliant' has no attribute '%s'" % name)
