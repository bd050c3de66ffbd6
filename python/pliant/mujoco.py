"""MuJoCo's Python API on Pliant: `import pliant.mujoco as mujoco`.

A script written against `mujoco` runs by changing its import:

    import pliant.mujoco as mujoco
    model = mujoco.MjModel.from_xml_path("humanoid.xml")
    data = mujoco.MjData(model)
    mujoco.mj_step(model, data)
    torso = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_BODY, "torso")
    print(data.body("torso").xpos, model.geom("floor").friction)

Model and Data arrays have MuJoCo's names, shapes and conventions
(quaternions w, x, y, z; xfrc_applied force then torque), model parameters
are writable, and the calls below compute what MuJoCo 3.3.8 computes
(tests/python/test_mujoco_face.py and tests/reference3 compare them). One
difference, named: mjd_transitionFD's centred D is the derivative, where
MuJoCo 3.3.8's has the opposite sign in columns nudged both ways.

`Renderer` draws headless (EGL, or GLFW under Xvfb) and `viewer.launch_passive`
opens the viewer window on a Data the script steps (pliant/_render.py,
pliant/viewer.py).

What Pliant does not offer raises NotImplementedError naming the call
(it is also an AttributeError, so `hasattr` probes say no), never a wrong
answer.
"""
import enum
import operator
import types as _types

import numpy as np

from . import _pliant
from . import _render
from . import _rollout
from . import viewer as _viewer
from . import Data as _Data
from . import _solver
from . import Model as _Model


class NotOffered(NotImplementedError, AttributeError):
    """A MuJoCo call or attribute Pliant does not offer."""


def _not_offered(name):
    raise NotOffered("pliant.mujoco does not offer mujoco.%s" % name)


# ---------------------------------------------------------------- sizes
mjNISLAND = _solver.NISLAND  # entries of data.solver_niter
mjNSOLVER = _solver.NSOLVER  # iterations data.solver keeps per island


# ---------------------------------------------------------------- enums
class mjtObj(enum.IntEnum):  # noqa: N801 (MuJoCo's name)
    mjOBJ_UNKNOWN = 0
    mjOBJ_BODY = 1
    mjOBJ_XBODY = 2
    mjOBJ_JOINT = 3
    mjOBJ_DOF = 4
    mjOBJ_GEOM = 5
    mjOBJ_SITE = 6
    mjOBJ_CAMERA = 7
    mjOBJ_LIGHT = 8
    mjOBJ_FLEX = 9
    mjOBJ_MESH = 10
    mjOBJ_SKIN = 11
    mjOBJ_HFIELD = 12
    mjOBJ_TEXTURE = 13
    mjOBJ_MATERIAL = 14
    mjOBJ_PAIR = 15
    mjOBJ_EXCLUDE = 16
    mjOBJ_EQUALITY = 17
    mjOBJ_TENDON = 18
    mjOBJ_ACTUATOR = 19
    mjOBJ_SENSOR = 20
    mjOBJ_NUMERIC = 21
    mjOBJ_TEXT = 22
    mjOBJ_TUPLE = 23
    mjOBJ_KEY = 24
    mjOBJ_PLUGIN = 25


class mjtState(enum.IntFlag):  # noqa: N801
    mjSTATE_TIME = 1 << 0
    mjSTATE_QPOS = 1 << 1
    mjSTATE_QVEL = 1 << 2
    mjSTATE_ACT = 1 << 3
    mjSTATE_WARMSTART = 1 << 4
    mjSTATE_CTRL = 1 << 5
    mjSTATE_QFRC_APPLIED = 1 << 6
    mjSTATE_XFRC_APPLIED = 1 << 7
    mjSTATE_EQ_ACTIVE = 1 << 8
    mjSTATE_MOCAP_POS = 1 << 9
    mjSTATE_MOCAP_QUAT = 1 << 10
    mjSTATE_USERDATA = 1 << 11
    mjSTATE_PLUGIN = 1 << 12
    mjSTATE_PHYSICS = (1 << 1) | (1 << 2) | (1 << 3)
    mjSTATE_FULLPHYSICS = 1 | mjSTATE_PHYSICS | (1 << 12)
    mjSTATE_USER = ((1 << 5) | (1 << 6) | (1 << 7) | (1 << 8) | (1 << 9) | (1 << 10)
                    | (1 << 11))
    mjSTATE_INTEGRATION = mjSTATE_FULLPHYSICS | mjSTATE_USER | (1 << 4)


class mjtIntegrator(enum.IntEnum):  # noqa: N801
    mjINT_EULER = 0
    mjINT_RK4 = 1
    mjINT_IMPLICIT = 2
    mjINT_IMPLICITFAST = 3


class mjtDisableBit(enum.IntFlag):  # noqa: N801
    mjDSBL_CONSTRAINT = 1 << 0
    mjDSBL_EQUALITY = 1 << 1
    mjDSBL_FRICTIONLOSS = 1 << 2
    mjDSBL_LIMIT = 1 << 3
    mjDSBL_CONTACT = 1 << 4
    mjDSBL_SPRING = 1 << 5
    mjDSBL_DAMPER = 1 << 6
    mjDSBL_GRAVITY = 1 << 7
    mjDSBL_CLAMPCTRL = 1 << 8
    mjDSBL_WARMSTART = 1 << 9
    mjDSBL_FILTERPARENT = 1 << 10
    mjDSBL_ACTUATION = 1 << 11
    mjDSBL_REFSAFE = 1 << 12
    mjDSBL_SENSOR = 1 << 13
    mjDSBL_MIDPHASE = 1 << 14
    mjDSBL_EULERDAMP = 1 << 15
    mjDSBL_AUTORESET = 1 << 16
    mjDSBL_NATIVECCD = 1 << 17
    mjDSBL_ISLAND = 1 << 18


class mjtEnableBit(enum.IntFlag):  # noqa: N801
    mjENBL_OVERRIDE = 1 << 0
    mjENBL_ENERGY = 1 << 1
    mjENBL_FWDINV = 1 << 2
    mjENBL_INVDISCRETE = 1 << 3
    mjENBL_MULTICCD = 1 << 4


class mjtCone(enum.IntEnum):  # noqa: N801
    mjCONE_PYRAMIDAL = 0
    mjCONE_ELLIPTIC = 1


class mjtSolver(enum.IntEnum):  # noqa: N801
    mjSOL_PGS = 0
    mjSOL_CG = 1
    mjSOL_NEWTON = 2


# mjtObj code -> (Pliant's object type code, name prefix of its model arrays,
# the size that counts them).
_KINDS = {
    mjtObj.mjOBJ_BODY: (1, "body", "nbody"), mjtObj.mjOBJ_XBODY: (2, "body", "nbody"),
    mjtObj.mjOBJ_JOINT: (3, "jnt", "njnt"), mjtObj.mjOBJ_DOF: (4, "dof", "nv"),
    mjtObj.mjOBJ_GEOM: (5, "geom", "ngeom"), mjtObj.mjOBJ_SITE: (6, "site", "nsite"),
    mjtObj.mjOBJ_CAMERA: (7, "cam", "ncam"), mjtObj.mjOBJ_LIGHT: (8, "light", "nlight"),
    mjtObj.mjOBJ_MESH: (9, "mesh", "nmesh"), mjtObj.mjOBJ_HFIELD: (11, "hfield", "nhfield"),
    mjtObj.mjOBJ_TEXTURE: (12, "tex", "ntex"), mjtObj.mjOBJ_MATERIAL: (13, "mat", "nmat"),
    mjtObj.mjOBJ_PAIR: (14, "pair", "npair"), mjtObj.mjOBJ_EXCLUDE: (15, "exclude", "nexclude"),
    mjtObj.mjOBJ_EQUALITY: (16, "eq", "neq"), mjtObj.mjOBJ_TENDON: (17, "tendon", "ntendon"),
    mjtObj.mjOBJ_ACTUATOR: (18, "actuator", "nu"), mjtObj.mjOBJ_SENSOR: (19, "sensor", "nsensor"),
    mjtObj.mjOBJ_KEY: (23, "key", "nkey"),
}


def _kind(objtype):
    try:
        return _KINDS[mjtObj(int(objtype))]
    except (ValueError, KeyError):
        _not_offered("object type %r (Pliant has no such objects)" % (objtype,))


# ---------------------------------------------------------------- named access
class _Named:
    """model.geom("floor") / data.body("torso"): the arrays of one object."""

    def __init__(self, owner, objtype, id_, name, fields):
        object.__setattr__(self, "_owner", owner)
        object.__setattr__(self, "_fields", fields)
        object.__setattr__(self, "id", id_)
        object.__setattr__(self, "name", name or "")
        object.__setattr__(self, "_objtype", objtype)
        object.__setattr__(self, "kind", mjtObj(objtype).name[6:].lower())

    def _locate(self, attr):
        where = self._fields(attr, self.id)
        if where is None:
            raise AttributeError("%s has no field '%s'" % (self._describe(), attr))
        return where

    def _describe(self):
        return "%s %d '%s'" % (mjtObj(self._objtype).name[6:].lower(), self.id, self.name)

    def __getattr__(self, attr):
        field, index = self._locate(attr)
        return getattr(self._owner, field)[index]

    def __setattr__(self, attr, value):
        field, index = self._locate(attr)
        getattr(self._owner, field)[index] = value

    def __repr__(self):
        return "<%s>" % self._describe()


def _lookup(model, objtype, key):
    ptype, _, size = _kind(objtype)
    count = getattr(model, size)
    if isinstance(key, str):
        id_ = model._name2id(ptype, key)
        if id_ < 0:
            raise KeyError("the model has no %s named '%s'" %
                           (mjtObj(objtype).name[6:].lower(), key))
    else:
        try:
            id_ = operator.index(key)
        except TypeError:
            raise TypeError("a %s is named by a string or an integer id" %
                            mjtObj(objtype).name[6:].lower()) from None
        if not 0 <= id_ < count:
            raise IndexError("%s %d does not exist; the model has %d" %
                             (mjtObj(objtype).name[6:].lower(), id_, count))
    return id_, model._id2name(ptype, id_)


def _model_fields(model, objtype):
    _, prefix, _ = _kind(objtype)
    names = {f["name"] for f in _pliant.model_fields()}

    def locate(attr, id_):
        name = "%s_%s" % (prefix, attr)
        if name in names:
            return name, id_
        return None
    return locate


def _data_fields(data, objtype):
    model = data.model
    _, prefix, size = _kind(objtype)
    table = {f["name"]: f["rows"] for f in _pliant.data_fields()}
    special = {}
    if objtype == mjtObj.mjOBJ_JOINT:
        widths = {0: (7, 6), 1: (4, 3), 2: (1, 1), 3: (1, 1)}

        def qpos(id_):
            return slice(int(model.jnt_qposadr[id_]),
                         int(model.jnt_qposadr[id_]) + widths[int(model.jnt_type[id_])][0])

        def qvel(id_):
            return slice(int(model.jnt_dofadr[id_]),
                         int(model.jnt_dofadr[id_]) + widths[int(model.jnt_type[id_])][1])
        special = {"qpos": ("qpos", qpos), "qvel": ("qvel", qvel), "qacc": ("qacc", qvel),
                   "qfrc_applied": ("qfrc_applied", qvel), "qfrc_bias": ("qfrc_bias", qvel),
                   "qfrc_passive": ("qfrc_passive", qvel),
                   "qfrc_actuator": ("qfrc_actuator", qvel),
                   "qfrc_constraint": ("qfrc_constraint", qvel),
                   "qfrc_inverse": ("qfrc_inverse", qvel), "qacc_warmstart": ("qacc_warmstart",
                                                                              qvel),
                   "xanchor": ("xanchor", lambda i: i), "xaxis": ("xaxis", lambda i: i)}
    elif objtype == mjtObj.mjOBJ_SENSOR:
        special = {"data": ("sensordata", lambda i: slice(int(model.sensor_adr[i]),
                                                          int(model.sensor_adr[i]) +
                                                          int(model.sensor_dim[i])))}
    elif objtype == mjtObj.mjOBJ_ACTUATOR:
        def act(i):
            adr = int(model.actuator_actadr[i])
            return slice(adr, adr + int(model.actuator_actnum[i])) if adr >= 0 else slice(0, 0)
        special = {"ctrl": ("ctrl", lambda i: i), "act": ("act", act),
                   "force": ("actuator_force", lambda i: i),
                   "length": ("actuator_length", lambda i: i),
                   "velocity": ("actuator_velocity", lambda i: i),
                   "moment": ("actuator_moment", lambda i: i)}
    elif objtype in (mjtObj.mjOBJ_BODY, mjtObj.mjOBJ_XBODY):
        special = {"xfrc_applied": ("xfrc_applied", lambda i: i)}
    elif objtype == mjtObj.mjOBJ_TENDON:
        special = {"length": ("ten_length", lambda i: i), "velocity": ("ten_velocity",
                                                                       lambda i: i)}

    def locate(attr, id_):
        if attr in special:
            field, index = special[attr]
            return field, index(id_)
        for name in ("%s_%s" % (prefix, attr), attr):
            if table.get(name) == size:
                return name, id_
        return None
    return locate


def _named_accessor(objtype, for_data):
    def access(self, name=None):
        model = self.model if for_data else self
        if name is None:
            _not_offered("%s() without a name or id" % mjtObj(objtype).name[6:].lower())
        id_, found = _lookup(model, objtype, name)
        fields = _data_fields(self, objtype) if for_data else _model_fields(self, objtype)
        return _Named(self, objtype, id_, found, fields)
    return access


class MjModel(_Model):
    """pliant.Model under MuJoCo's name: MjModel.from_xml_path / from_xml_string."""

    def __new__(cls, *args, **kwargs):
        _not_offered("MjModel() (load with MjModel.from_xml_path or from_xml_string)")

    @staticmethod
    def from_xml_path(filename, assets=None):
        if assets:
            _not_offered("MjModel.from_xml_path(assets=...)")
        return _Model.from_xml_path(filename)

    @staticmethod
    def from_xml_string(xml, assets=None):
        if assets:
            _not_offered("MjModel.from_xml_string(assets=...)")
        return _Model.from_xml_string(xml)

    @staticmethod
    def from_binary_path(filename, assets=None):
        _not_offered("MjModel.from_binary_path (Pliant has no binary model format)")


MjData = _Data

_ACCESSORS = {"body": mjtObj.mjOBJ_BODY, "joint": mjtObj.mjOBJ_JOINT, "jnt": mjtObj.mjOBJ_JOINT,
              "geom": mjtObj.mjOBJ_GEOM, "site": mjtObj.mjOBJ_SITE,
              "camera": mjtObj.mjOBJ_CAMERA, "cam": mjtObj.mjOBJ_CAMERA,
              "light": mjtObj.mjOBJ_LIGHT, "tendon": mjtObj.mjOBJ_TENDON,
              "actuator": mjtObj.mjOBJ_ACTUATOR, "sensor": mjtObj.mjOBJ_SENSOR,
              "equality": mjtObj.mjOBJ_EQUALITY, "eq": mjtObj.mjOBJ_EQUALITY,
              "key": mjtObj.mjOBJ_KEY, "keyframe": mjtObj.mjOBJ_KEY,
              "mesh": mjtObj.mjOBJ_MESH, "hfield": mjtObj.mjOBJ_HFIELD,
              "material": mjtObj.mjOBJ_MATERIAL, "mat": mjtObj.mjOBJ_MATERIAL,
              "texture": mjtObj.mjOBJ_TEXTURE, "tex": mjtObj.mjOBJ_TEXTURE,
              "pair": mjtObj.mjOBJ_PAIR, "exclude": mjtObj.mjOBJ_EXCLUDE}
for _name, _type in _ACCESSORS.items():
    setattr(_Model, _name, _named_accessor(_type, False))
    if _name not in ("key", "keyframe", "mesh", "hfield", "material", "mat", "texture", "tex",
                     "pair", "exclude"):
        setattr(_Data, _name, _named_accessor(_type, True))


# ---------------------------------------------------------------- simulation
def mj_step(m, d, nstep=1):
    _pliant.step(m, d, nstep)


def mj_forward(m, d):
    _pliant.forward(m, d)


def mj_resetData(m, d):  # noqa: N802
    _pliant.reset(m, d)


def mj_resetDataKeyframe(m, d, key):  # noqa: N802
    _pliant.reset(m, d, int(key))


def mj_inverse(m, d):
    _pliant.inverse(m, d)


def mj_setConst(m, d):  # noqa: N802
    _pliant.set_const(m, d)


def mj_saveLastXML(filename, m, error=None):  # noqa: N802
    _pliant.save_xml(m, filename)


def mj_copyData(dest, m, src):  # noqa: N802
    _pliant.copy_data(m, dest, src)
    return dest


# ---------------------------------------------------------------- names
def mj_name2id(m, type, name):  # noqa: A002 (MuJoCo's argument name)
    ptype, _, _ = _kind(type)
    return m._name2id(ptype, name)


def mj_id2name(m, type, id):  # noqa: A002
    ptype, _, size = _kind(type)
    if not 0 <= int(id) < getattr(m, size):
        return None
    return m._id2name(ptype, int(id))


# ---------------------------------------------------------------- Jacobians
def mj_jac(m, d, jacp, jacr, point, body):
    _pliant.jac(m, d, jacp, jacr, np.asarray(point, dtype=np.float64), body)


def mj_jacBody(m, d, jacp, jacr, body):  # noqa: N802
    _pliant.jac_body(m, d, jacp, jacr, body)


def mj_jacBodyCom(m, d, jacp, jacr, body):  # noqa: N802
    _pliant.jac_body_com(m, d, jacp, jacr, body)


def mj_jacSubtreeCom(m, d, jacp, body):  # noqa: N802
    _pliant.jac_subtree_com(m, d, jacp, body)


def mj_jacGeom(m, d, jacp, jacr, geom):  # noqa: N802
    _pliant.jac_geom(m, d, jacp, jacr, geom)


def mj_jacSite(m, d, jacp, jacr, site):  # noqa: N802
    _pliant.jac_site(m, d, jacp, jacr, site)


def mj_jacDot(m, d, jacp, jacr, point, body):  # noqa: N802
    _pliant.jac_dot(m, d, jacp, jacr, np.asarray(point, dtype=np.float64), body)


# ---------------------------------------------------------------- derivatives
def _fill(target, value):
    if target is not None:
        target[...] = np.asarray(value).reshape(target.shape)


def mjd_transitionFD(m, d, eps, flg_centered, A, B, C, D):  # noqa: N802,N803
    a, b, c, dd = _pliant.transition_fd(m, d, float(eps), bool(flg_centered),
                                        C is not None or D is not None)
    _fill(A, a)
    _fill(B, b)
    _fill(C, c)
    _fill(D, dd)


def mjd_inverseFD(m, d, eps, flg_actuation, DfDq, DfDv, DfDa, DsDq, DsDv, DsDa,  # noqa: N802,N803
                  DmDq):  # noqa: N803
    r = _pliant.inverse_fd(m, d, float(eps), bool(flg_actuation),
                           DsDq is not None or DsDv is not None or DsDa is not None)
    # MuJoCo's are the transposes: a row per input.
    for target, key in ((DfDq, "DfDq"), (DfDv, "DfDv"), (DfDa, "DfDa"), (DsDq, "DsDq"),
                        (DsDv, "DsDv"), (DsDa, "DsDa"), (DmDq, "DmDq")):
        _fill(target, r[key].T)


# ---------------------------------------------------------------- state
def mj_stateSize(m, spec):  # noqa: N802
    return _pliant.state_size(m, int(spec))


def mj_getState(m, d, state, spec):  # noqa: N802
    _pliant.get_state(m, d, state, int(spec))


def mj_setState(m, d, state, spec):  # noqa: N802
    _pliant.set_state(m, d, state, int(spec))


# ---------------------------------------------------------------- energy
def mj_energyPos(m, d):  # noqa: N802
    """Potential energy into d.energy[0] (Pliant computes both terms at once)."""
    _pliant.energy(m, d)


def mj_energyVel(m, d):  # noqa: N802
    """Kinetic energy into d.energy[1] (Pliant computes both terms at once)."""
    _pliant.energy(m, d)


# ---------------------------------------------------------------- contacts, rays
def mj_contactForce(m, d, id, result):  # noqa: N802,A002
    result[...] = _pliant.contact_force(m, d, int(id))


def mj_ray(m, d, pnt, vec, geomgroup, flg_static, bodyexclude, geomid):
    distance, geom = _pliant.ray(m, d, np.asarray(pnt, dtype=np.float64),
                                 np.asarray(vec, dtype=np.float64), geomgroup,
                                 bool(flg_static), int(bodyexclude))
    geomid[...] = geom
    return distance


# ---------------------------------------------------------------- pictures, viewer
class mjtCamera(enum.IntEnum):  # noqa: N801
    mjCAMERA_FREE = 0
    mjCAMERA_TRACKING = 1
    mjCAMERA_FIXED = 2


MjvCamera = _render.FreeCamera
# mujoco.rollout: the function and the persistent pool.
rollout = _types.SimpleNamespace(rollout=_rollout.mujoco_rollout, Rollout=_rollout.Rollout)
Renderer = _render.Renderer
viewer = _viewer


class MjvOption:
    """The scene options Renderer.update_scene reads: geom and site groups."""

    def __init__(self):
        self.geomgroup = np.array([1, 1, 1, 0, 0, 0], dtype=np.uint8)
        self.sitegroup = np.array([1, 1, 1, 0, 0, 0], dtype=np.uint8)


def mjv_defaultFreeCamera(m, cam):  # noqa: N802
    _render.default_free_camera(m, cam)


def __getattr__(name):
    # Anything else of MuJoCo's API (mjv_*, mjr_*, ...) is not offered:
    # say so by name instead of failing later.
    if name.startswith("__"):
        raise AttributeError(name)
    _not_offered(name)
