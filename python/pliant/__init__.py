"""Pliant: rigid-body physics with MuJoCo-style soft constraints.

    import pliant
    model = pliant.Model.from_xml_path("humanoid.xml")
    data = pliant.Data(model)
    data.qpos[2] += 0.1               # numpy views of the engine's state
    pliant.step(model, data, nstep=100)
    print(data.time, data.xpos[1], data.sensordata)

Every array of Model and Data is an attribute under its MuJoCo name
(`model.body_mass`, `data.cvel`, ...); `pliant.model_fields()` and
`pliant.data_fields()` list them with their shapes, units and docs. Model
parameters are writable (`model.geom_friction[:, 0] = 0.5`, then
`pliant.set_const(model)`); `data.contact` lists the contacts.

The toolbox: Jacobians (`jac_site`, ...), `inverse`, `transition_fd`,
`inverse_fd`, `get_state`/`set_state`, `copy_data`, `contact_force`,
`save_xml`.

`pliant.Renderer` draws pictures headless (RGB, depth, segmentation) and
`pliant.viewer.launch_passive` shows a Data the script steps in the viewer.

`pliant.rollout` steps batches of trajectories on threads, and
`pliant.distributed.rollout` spreads them over a Dask cluster.
"""
import sys


def _find_numpy():
    # The extension uses the numpy it was built with. An interpreter of the
    # same Python version without numpy (a pyenv or venv python3 ahead of the
    # system's on the PATH) is pointed at that numpy's site folder.
    try:
        import numpy  # noqa: F401
        return
    except ImportError:
        pass
    from . import _build_info
    if "%d.%d" % sys.version_info[:2] != _build_info.PYTHON_VERSION:
        raise ImportError("pliant was built for Python %s with numpy %s; this is Python %d.%d "
                          "without numpy" % (_build_info.PYTHON_VERSION, _build_info.NUMPY_VERSION,
                                             *sys.version_info[:2]))
    sys.path.append(_build_info.NUMPY_SITE)
    import numpy  # noqa: F401,F811


_find_numpy()

from ._pliant import (Data, LoadError, Model, ObjectRef, State, contact_force,  # noqa: E402,F401
                      copy_data, data_fields, energy, data_sizes, forward, get_state, inverse, inverse_fd,
                      jac, jac_body, jac_body_com, jac_dot, jac_geom, jac_site, jac_subtree_com,
                      model_fields, model_options, model_sizes, ray, reset, save_xml,
                      set_const, set_state, state_size, step, to_xml, transition_fd)
from . import _model  # noqa: E402
from ._contacts import Contacts  # noqa: E402
from . import _solver  # noqa: E402
from ._render import Renderer  # noqa: E402
from ._rollout import Rollout, state_rollout as _state_rollout  # noqa: E402


def rollout(model, *args, threads=1, **options):
    """Batched rollouts on threads, in two forms:

    rollout(model, data, initial_state, control=None, *, control_spec, nstep,
            initial_warmstart, state, sensordata, threads, pool) -> (state, sensordata):
        from full physics states [B, nstate], as mujoco.rollout (see
        pliant._rollout); `pool` is a Rollout's pool kept across calls.
    rollout(model, qpos0, qvel0, ctrl, threads=1) -> (qpos, qvel):
        from qpos0 [B, nq] and qvel0 [B, nv] with ctrl [B, T, nu]; the
        positions and velocities after each step.
    """
    if (args and (args[0] is None or isinstance(args[0], Data))) or "initial_state" in options:
        options.pop("data", None)
        if isinstance(options.get("pool"), Rollout):
            options["pool"] = options["pool"]._pool
        return _state_rollout(model, *args[1:], threads=threads, **options)
    if len(args) >= 4:  # threads given by position
        return _pliant._rollout(model, *args, **options)
    return _pliant._rollout(model, *args, threads=threads, **options)

from . import viewer  # noqa: E402

_model.install(Model, model_fields(), model_options())
Data.contact = property(lambda data: Contacts(data),
                        doc="The last step's contacts, as MuJoCo's data.contact")
_solver.install(Data)
# Named access, model.geom("floor").friction and data.body("torso").xpos,
# is installed by the MuJoCo face (pliant.mujoco).
from . import mujoco as _mujoco_face  # noqa: E402,F401

__all__ = ["Data", "LoadError", "Model", "ObjectRef", "State", "contact_force", "copy_data",
           "data_fields", "energy", "data_sizes", "forward", "get_state", "inverse", "inverse_fd", "jac",
           "jac_body", "jac_body_com", "jac_dot", "jac_geom", "jac_site", "jac_subtree_com",
           "model_fields", "model_options", "model_sizes", "ray", "reset", "rollout", "save_xml",
           "set_const", "set_state", "state_size", "step", "to_xml", "transition_fd",
           "Renderer", "Rollout", "viewer", "distributed"]


def __getattr__(name):
    # `pliant.distributed` is imported when it is first used.
    if name == "distributed":
        import importlib
        return importlib.import_module(".distributed", __name__)
    raise AttributeError("module 'pliant' has no attribute '%s'" % name)
