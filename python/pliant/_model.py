"""Writable Model arrays and options (installed on pliant.Model at import).

Every array of the model table is an attribute under its MuJoCo name. Reading
gives a numpy copy that writes through: `model.body_mass[3] = 2.0`,
`model.geom_friction[:, 0] *= 0.8` and `model.dof_damping = d` change the
model, and the next step sees them; `pliant.set_const(model)` then
recomputes what depends on them (inverse weights, acc0, ...). A write the
model refuses (a structural field such as body_parentid, a NaN, a negative
mass, a wrong shape) raises ValueError and changes nothing, in the model or
in the array. Views sliced from such an array (`v = model.body_mass[2:5]`)
are plain copies: write through the attribute itself.

`model.opt` gives the options by their short names (`model.opt.timestep`,
`model.opt.gravity[2] = -3`), as MuJoCo's `model.opt`.
"""
import numpy as np


class ModelArray(np.ndarray):
    """A copy of a model array whose item writes go to the model."""

    def __new__(cls, values, writer, shape):
        self = np.asarray(values).reshape(shape).view(cls)
        self._writer = writer
        return self

    def __array_finalize__(self, obj):
        # Slices, views and results of arithmetic are plain copies.
        self._writer = None

    def __setitem__(self, key, value):
        writer = getattr(self, "_writer", None)
        if writer is None:
            return super().__setitem__(key, value)
        before = np.array(self)
        super().__setitem__(key, value)
        try:
            writer(np.asarray(self, dtype=np.float64))
        except Exception:
            super().__setitem__(Ellipsis, before)
            raise

    def __repr__(self):
        return repr(np.asarray(self))


def _field_property(index, name, rows, columns, integer, doc):
    def shape_of(values):
        return values.shape[:1] if columns == "1" else values.shape

    def get(model):
        values = model._read_field(index)
        values = values.astype(np.int32) if integer else values
        return ModelArray(values, lambda v: model._write_field(index, v), shape_of(values))

    def set_(model, value):
        model._write_field(index, np.asarray(value, dtype=np.float64))

    return property(get, set_, doc="%s [%s x %s]" % (doc, rows, columns))


def _option_property(index, name, integer, doc):
    def get(model):
        values = model._read_option(index)
        if values.size == 1:
            return int(values[0]) if integer else float(values[0])
        return ModelArray(values, lambda v: model._write_option(index, v), values.shape)

    def set_(model, value):
        model._write_option(index, np.atleast_1d(np.asarray(value, dtype=np.float64)))

    return property(get, set_, doc=doc)


class Options:
    """model.opt: the options by their short names (timestep, gravity, ...)."""

    def __init__(self, model):
        object.__setattr__(self, "_model", model)

    def __getattr__(self, name):
        try:
            return getattr(self._model, "opt_" + name)
        except AttributeError:
            raise AttributeError("model.opt has no option '%s'" % name) from None

    def __setattr__(self, name, value):
        if not hasattr(type(self._model), "opt_" + name):
            raise AttributeError("model.opt has no option '%s'" % name)
        setattr(self._model, "opt_" + name, value)

    def __dir__(self):
        return [n[4:] for n in dir(type(self._model)) if n.startswith("opt_")]


def install(model_class, fields, options):
    for index, f in enumerate(fields):
        setattr(model_class, f["name"],
                _field_property(index, f["name"], f["rows"], f["columns"], f["integer"],
                                f["doc"]))
    for index, f in enumerate(options):
        if f["name"].startswith("stat_"):
            continue  # statistics stay read-only (set_const computes them)
        setattr(model_class, f["name"], _option_property(index, f["name"], f["integer"], f["doc"]))
    model_class.opt = property(lambda model: Options(model), doc="The options (MuJoCo's opt)")
