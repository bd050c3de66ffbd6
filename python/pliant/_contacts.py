"""data.contact: the last step's contacts with MuJoCo's field names.

`data.contact` is a snapshot taken when read: `len(data.contact)`,
`data.contact[i]` (one contact: geom1, geom2, geom, dist, pos, frame, dim,
friction, solref, solreffriction, solimp, includemargin, mu, efc_address) and, as in
MuJoCo, arrays over all contacts (`data.contact.dist`, `data.contact.geom1`,
`data.contact.frame`, ...). Distances in m, the frame's first row the
normal from geom1 to geom2.
"""
from . import _pliant


class Contact:
    """One contact, as MuJoCo's MjContact."""

    def __init__(self, arrays, i):
        self.geom = arrays["geom"][i]
        self.geom1, self.geom2 = int(self.geom[0]), int(self.geom[1])
        self.dist = float(arrays["dist"][i])
        self.pos = arrays["pos"][i]
        self.frame = arrays["frame"][i]
        self.dim = int(arrays["dim"][i])
        self.friction = arrays["friction"][i]
        self.solref = arrays["solref"][i]
        self.solreffriction = arrays["solreffriction"][i]
        self.solimp = arrays["solimp"][i]
        self.includemargin = float(arrays["includemargin"][i])
        self.mu = float(arrays["mu"][i])
        self.efc_address = int(arrays["efc_address"][i])

    def __repr__(self):
        return "<contact geoms %d-%d dist %.6g>" % (self.geom1, self.geom2, self.dist)


class Contacts:
    """The contacts of the last step: a sequence, and arrays by field."""

    def __init__(self, data):
        self._arrays = _pliant._contacts(data)

    def __len__(self):
        return len(self._arrays["dist"])

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("contact %d does not exist; the step has %d" % (i, n))
        return Contact(self._arrays, i)

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def __getattr__(self, name):
        arrays = self.__dict__.get("_arrays", {})
        if name == "geom1":
            return arrays["geom"][:, 0]
        if name == "geom2":
            return arrays["geom"][:, 1]
        if name in arrays:
            return arrays[name]
        raise AttributeError("data.contact has no field '%s'" % name)
