#!/usr/bin/env python3
"""Compares Pliant's compiled model with MuJoCo 3.3.8's, field by field.

    compare_fields.py PLIANT MODEL.xml [--skip f1,f2] [--only f1,f2] [--tight f1,f2]
                      [--exact f1,f2] [--refusals agree] [--saved yes]

PLIANT is the `pliant` executable: `pliant info --json` gives every compiled
field under MuJoCo's names; mujoco3.mjs (beside this file, run by node) gives
the same fields from MuJoCo 3.3.8. Reals must agree to 1e-9 relative (with an
absolute floor of 1e-9 for values near zero), mesh-derived mass and inertia to
1e-6; integers exactly. Fields named by --tight compare to 1e-12 relative to
their own magnitude, with no floor: for small values computed by one formula
in both engines (geom_fluid's virtual masses are 1e-5 m^3 and less). Fields
named by --exact must equal 3.3.8's to the bit: for what both compilers round
in the same order. Quaternions are compared up to sign; body inertia also
as the tensor in the body frame, which names a mass distribution that differs
even where principal axes could be chosen differently. Exits 0 when every field agrees, 1 listing the fields that do not,
2 when a model does not load in one of the engines. With `--refusals agree`
a model that neither engine loads (an incomplete asset, say) passes: Pliant
is to load what MuJoCo 3.3.8 loads, and both errors are printed. With
`--saved yes`, MuJoCo 3.3.8 loads what `pliant save` writes for the model
instead of the model itself: the MJCF Pliant writes must compile in MuJoCo
to the model Pliant compiled from the original.
"""
import json
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
RELATIVE = 1e-9
MESH_RELATIVE = 1e-6
TIGHT_RELATIVE = 1e-12
# MuJoCo keeps colours and material properties in single precision: those
# compare to float32 resolution.
FLOAT_RELATIVE = 2 ** -23
FLOAT_FIELDS = {"geom_rgba", "site_rgba", "tendon_rgba", "mat_rgba", "mat_emission",
                "mat_specular", "mat_shininess", "mat_reflectance", "mat_texrepeat",
                "light_attenuation", "light_ambient", "light_diffuse", "light_specular",
                "light_cutoff", "light_exponent", "cam_sensorsize", "cam_intrinsic",
                "hfield_data"}
# MuJoCo 3.3.8 divides the +x it gives a zero-area polygon by the polygon's
# zero size (inf and NaN, printed as null; a degenerate triangle of a mesh
# that does not collide); Pliant keeps +x there, which these fields accept.
NONFINITE_IN_MUJOCO = {"mesh_polynormal"}
QUAT_FIELDS = {"body_quat", "body_iquat", "geom_quat", "site_quat", "cam_quat", "key_mquat"}


# MuJoCo 3.x gives each material a texture per role (mjNTEXROLE = 10); the
# one MJCF's `texture` sets is the colour role, mjTEXROLE_RGB = 1.
DERIVED = {
    "mat_texid": (["mat_texture"],
                  lambda ours: [t if role == 1 else -1 for t in ours["mat_texture"]
                                for role in range(10)]),
}


def run_json(command):
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    if result.returncode != 0:
        text = (result.stdout + result.stderr).strip().splitlines()
        return None, text[-1] if text else "exit %d" % result.returncode
    return json.loads(result.stdout.splitlines()[-1]), None


def as_list(value):
    return value if isinstance(value, list) else [value]


def close(a, b, relative, floor=1.0):
    return abs(a - b) <= relative * max(abs(a), abs(b), floor)


def quat_rows(values):
    return [values[i:i + 4] for i in range(0, len(values), 4)]


def tensors(inertia, iquat):
    """Inertia tensors in the body frame: R diag(I) R^T per body."""
    out = []
    for i in range(len(inertia) // 3):
        w, x, y, z = iquat[4 * i:4 * i + 4]
        r = [[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
             [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
             [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]]
        d = inertia[3 * i:3 * i + 3]
        for a in range(3):
            for b in range(3):
                out.append(sum(r[a][k] * d[k] * r[b][k] for k in range(3)))
    return out


def compare(name, ours, theirs, mesh_model, tight=False, exact=False):
    ours, theirs = as_list(ours), as_list(theirs)
    if len(ours) != len(theirs):
        return "length %d, MuJoCo 3.3.8 %d" % (len(ours), len(theirs))
    relative = FLOAT_RELATIVE if name in FLOAT_FIELDS else RELATIVE
    floor = 1.0
    if tight:
        relative, floor = TIGHT_RELATIVE, 1e-300
    if exact:
        return compare_exact(name, ours, theirs)
    if mesh_model and name in ("body_mass", "body_subtreemass", "body_inertia", "body_ipos",
                               "body_iquat", "body_invweight0", "dof_invweight0",
                               "stat_meaninertia", "actuator_acc0", "tendon_invweight0",
                               "body_inertia (tensor)", "mesh_vert"):
        relative = MESH_RELATIVE
    worst, where = 0.0, -1
    if name in QUAT_FIELDS:
        pairs = list(zip(quat_rows(ours), quat_rows(theirs)))
        for i, (q, p) in enumerate(pairs):
            sign = -1.0 if sum(a * b for a, b in zip(q, p)) < 0 else 1.0
            for a, b in zip(q, p):
                if not close(a, sign * b, relative):
                    error = abs(a - sign * b)
                    if error > worst:
                        worst, where = error, i
        return None if where < 0 else "quaternion %d differs by %.3g" % (where, worst)
    for i, (a, b) in enumerate(zip(ours, theirs)):
        if b is None and a is not None and name in NONFINITE_IN_MUJOCO:
            row = ours[i - i % 3:i - i % 3 + 3]
            if row == [1, 0, 0]:
                continue
        if a is None or b is None or (isinstance(a, float) and math.isnan(a)):
            return "entry %d: %s against %s" % (i, a, b)
        if not close(a, b, relative, floor):
            error = abs(a - b) / max(abs(a), abs(b), floor)
            if error > worst:
                worst, where = error, i
    if where < 0:
        return None
    return "entry %d: %.17g against %.17g (relative %.3g)" % (where, ours[where], theirs[where],
                                                              worst)


def compare_exact(name, ours, theirs):
    """None when every entry equals 3.3.8's to the bit (quaternions up to
    sign), else how many differ and the first."""
    if name in QUAT_FIELDS:
        rows = list(zip(quat_rows(ours), quat_rows(theirs)))
        apart = [i for i, (q, p) in enumerate(rows) if q != p and q != [-v for v in p]]
        if not apart:
            return None
        i = apart[0]
        return "%d of %d quaternions not equal to the bit; first %d: %s against %s" % (
            len(apart), len(rows), i, rows[i][0], rows[i][1])
    apart = [i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b]
    if not apart:
        return None
    i = apart[0]
    return "%d of %d entries not equal to the bit; first %d: %.17g against %.17g" % (
        len(apart), len(ours), i, ours[i], theirs[i])


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    pliant, model = sys.argv[1], sys.argv[2]
    options = dict(zip(sys.argv[3::2], sys.argv[4::2]))
    # --edit NAME:INDEX:VALUE,... and --set-const yes: the same changes to
    # both engines' models before their fields are read.
    edits = []
    for edit in filter(None, options.get("--edit", "").split(",")):
        edits += ["--edit", edit]
    if options.get("--set-const") == "yes":
        edits.append("--set-const")
    skip = set(filter(None, options.get("--skip", "").split(",")))
    only = set(filter(None, options.get("--only", "").split(",")))
    tight = set(filter(None, options.get("--tight", "").split(",")))
    exact = set(filter(None, options.get("--exact", "").split(",")))
    ours, error = run_json([pliant, "info", model, "--json"] + edits)
    if ours is None:
        print("Pliant does not load %s: %s" % (model, error))
        if options.get("--refusals") == "agree":
            theirs, their_error = run_json(["node", os.path.join(HERE, "mujoco3.mjs"), "info",
                                            model, "--fields", "nq"])
            if theirs is None and their_error and '"error"' in their_error:
                print("MuJoCo 3.3.8 does not load it either: %s" % their_error)
                return 0
        return 2
    # Fields Pliant lays out its own way: MuJoCo's form is derived from them,
    # or, for Pliant's own fields, not compared.
    own = set(ours.pop("pliant_only_fields", []))
    for name, derive in DERIVED.items():
        if all(source in ours for source in derive[0]):
            ours[name] = derive[1](ours)
    names = [n for n in ours if n not in skip and n not in own and (not only or n in only)]
    if options.get("--saved") == "yes":
        forget_fitted_meshes(ours)
        return compare_saved(pliant, model, names, edits,
                             compare_with=lambda reference: compare_all(
                                 model, names, ours, reference, skip, tight, exact))
    theirs, error = run_json(["node", os.path.join(HERE, "mujoco3.mjs"), "info", model,
                              "--fields", ",".join(names + ["body_iquat", "body_inertia"])] +
                             edits)
    if theirs is None or "error" in theirs:
        print("MuJoCo 3.3.8 does not load %s: %s" % (model, error or theirs.get("error")))
        return 2
    return compare_all(model, names, ours, theirs, skip, tight, exact)


def compare_saved(pliant, model, names, edits, compare_with):
    """MuJoCo 3.3.8's fields from Pliant's saved MJCF of the model."""
    with tempfile.TemporaryDirectory() as folder:
        saved = os.path.join(folder, "saved.xml")
        result = subprocess.run([pliant, "save", model, saved], capture_output=True, text=True)
        if result.returncode != 0:
            print("pliant save failed on %s: %s" % (model, (result.stdout + result.stderr).strip()))
            return 2
        theirs, error = run_json(["node", os.path.join(HERE, "mujoco3.mjs"), "info", saved,
                                  "--fields", ",".join(names + ["body_iquat", "body_inertia"])] +
                                 edits)
        if theirs is None or "error" in theirs:
            print("MuJoCo 3.3.8 does not load what pliant save wrote for %s: %s" %
                  (model, error or theirs.get("error")))
            return 2
    print("MuJoCo 3.3.8 loads Pliant's saved MJCF of %s" % model)
    return compare_with(theirs)


# Geom types with data (MuJoCo's mjGEOM_HFIELD, mjGEOM_MESH, mjGEOM_SDF).
DATA_GEOM_TYPES = {1, 7, 8}


def forget_fitted_meshes(ours):
    """A primitive geom fitted to a mesh (fitaabb, or the mesh's inertia box)
    is saved as the primitive it became, without the mesh, which MuJoCo would
    fit again; geom_dataid, which only names the mesh it came from, is then
    -1 in what MuJoCo loads back."""
    if "geom_dataid" in ours and "geom_type" in ours:
        ours["geom_dataid"] = [d if t in DATA_GEOM_TYPES else -1
                               for d, t in zip(ours["geom_dataid"], ours["geom_type"])]


def compare_all(model, names, ours, theirs, skip, tight, exact):
    mesh_model = ours.get("nmesh", 0) > 0
    failures = []
    for name in names:
        if theirs.get(name) is None:
            failures.append((name, "MuJoCo 3.3.8 has no field of that name"))
            continue
        problem = compare(name, ours[name], theirs[name], mesh_model, name in tight,
                          name in exact)
        if problem:
            failures.append((name, problem))
    if "body_inertia" in names:
        problem = compare("body_inertia (tensor)",
                          tensors(ours["body_inertia"], ours["body_iquat"]),
                          tensors(theirs["body_inertia"], theirs["body_iquat"]), mesh_model)
        if problem:
            failures.append(("body_inertia (tensor)", problem))
    print("%s: %d fields compared with MuJoCo 3.3.8, %d differ" %
          (model, len(names), len(failures)))
    for name, problem in failures:
        print("  %-28s %s" % (name, problem))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
