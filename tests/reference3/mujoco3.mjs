// MuJoCo 3.3.8 (the official WebAssembly build, npm package mujoco-js 0.0.7)
// as a reference for Pliant's tests. Never used by the engine.
//
//   node mujoco3.mjs info MODEL.xml [--fields a,b,c]
//                                   [--edit NAME:INDEX:VALUE ...] [--set-const]
//       one JSON object: the compiled fields named (MuJoCo's names; a field
//       MuJoCo does not have is null), or every numeric field when none are
//       named. Sizes (nq, nv, ...) are numbers, arrays are flat lists.
//   node mujoco3.mjs dump MODEL.xml [--steps N] [--key K] [--disable a,b]
//                                   [--integrator euler|rk4|implicit|implicitfast]
//                                   [--state FILE (qpos, qvel, act, ctrl, qacc_warmstart;
//                                    ctrl held)]
//                                   [--tol T (solver tolerance)]
//                                   [--each-key]
//       one JSON line per step before stepping, with the keys of
//       `pliant dump`: step, time, qpos, qvel, act, qacc, sensordata, ncon,
//       contacts (geom1, geom2, dist, pos, frame), nefc, efc_type. With
//       --each-key, one line per keyframe at its state (step = keyframe),
//       without stepping. The toolbox at each printed step, with the keys
//       of `pliant dump`: --jacobian site:NAME|body:NAME|geom:NAME
//       (repeatable; mj_jacSite/Body/Geom), --inverse (mj_inverse:
//       qfrc_inverse, efc_force_inverse), --derivatives [--centred]
//       [--eps E] (mjd_transitionFD: A, B, C, D row-major).
//   node mujoco3.mjs jac MODEL.xml [--state FILE]
//       one JSON object: at the state of FILE (JSON with qpos and qvel;
//       qpos0 and zero qvel without it), after mj_forward, the Jacobians
//       of every body (mj_jacBody, mj_jacBodyCom, mj_jacSubtreeCom and
//       mj_jacDot at the body origin), geom (mj_jacGeom) and site
//       (mj_jacSite), each a flat row-major 3 x nv list.
//   info and dump take --edit NAME:INDEX:VALUE (repeatable: value INDEX of
//   a model field or option written before anything else) and --set-const
//   (mj_setConst after the edits), as `pliant info` and `pliant dump` do.
//   A model that does not load prints {"error": "..."} and exits 2.
//
// The model's folder and the folders its files name (includes, meshes,
// textures) are copied into the module's in-memory file system at their own
// absolute paths, so relative paths resolve as on disk.

import fs from 'node:fs';
import path from 'node:path';
import loadMujoco from 'mujoco-js';

import {copyModel} from './mujoco_files.mjs';

const [command, modelPath, ...rest] = process.argv.slice(2);
const option = (name, fallback) => {
  const i = rest.indexOf(name);
  return i >= 0 && i + 1 < rest.length ? rest[i + 1] : fallback;
};

function toList(value) {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number' || typeof value === 'bigint') return Number(value);
  if (ArrayBuffer.isView(value)) return Array.from(value, Number);
  return null;
}

function fieldNames(object) {
  const names = new Set();
  for (let p = Object.getPrototypeOf(object); p && p !== Object.prototype;
       p = Object.getPrototypeOf(p)) {
    for (const name of Object.getOwnPropertyNames(p)) names.add(name);
  }
  return [...names].filter((n) => !n.startsWith('_') && n !== 'constructor');
}

function applyEdits(mujoco, model) {
  for (const edit of options('--edit')) {
    const [name, index, value] = edit.split(':');
    const option = name.startsWith('opt_') ? name.slice(4) : null;
    const target = option ? model.opt[option] : model[name];
    if (option && typeof target === 'number') {
      model.opt[option] = Number(value);
    } else if (target && ArrayBuffer.isView(target)) {
      target[Number(index)] = Number(value);
    } else {
      throw new Error(`--edit ${edit}: no writable field ${name}`);
    }
  }
  if (rest.includes('--set-const')) {
    const data = new mujoco.MjData(model);
    mujoco.mj_setConst(model, data);
    data.delete();
  }
}

function info(mujoco, model) {
  const requested = option('--fields', '');
  const names = requested ? requested.split(',') : fieldNames(model);
  const out = {};
  for (const name of names) {
    if (name.startsWith('opt_') || name.startsWith('stat_')) {
      const struct = name.startsWith('opt_') ? model.opt : model.stat;
      out[name] = toList(struct[name.slice(name.indexOf('_') + 1)]);
      continue;
    }
    let value;
    try {
      value = model[name];
    } catch (e) {
      value = undefined;
    }
    const list = toList(value);
    if (list !== null || requested) out[name] = list;
  }
  return out;
}

function disableBits(mujoco, names) {
  let bits = 0;
  for (const name of names.split(',').filter((n) => n)) {
    const key = 'mjDSBL_' + name.toUpperCase();
    const bit = mujoco.mjtDisableBit[key];
    if (bit === undefined) throw new Error(`unknown disable flag '${name}'`);
    bits |= bit.value;
  }
  return bits;
}

// Every value given to a repeatable option.
function options(name) {
  const values = [];
  for (let i = 0; i < rest.length - 1; ++i) if (rest[i] === name) values.push(rest[i + 1]);
  return values;
}

function toolbox(mujoco, model, data, out) {
  const nv = model.nv;
  const jacobians = options('--jacobian');
  if (jacobians.length) {
    out.jacobian = {};
    const jacp = new mujoco.DoubleBuffer(3 * nv), jacr = new mujoco.DoubleBuffer(3 * nv);
    for (const spec of jacobians) {
      const [kind, name] = spec.split(':');
      const type = {site: 'mjOBJ_SITE', body: 'mjOBJ_BODY', geom: 'mjOBJ_GEOM'}[kind];
      const id = mujoco.mj_name2id(model, mujoco.mjtObj[type].value, name);
      if (id < 0) throw new Error(`no ${kind} named ${name}`);
      const call = {site: 'mj_jacSite', body: 'mj_jacBody', geom: 'mj_jacGeom'}[kind];
      mujoco[call](model, data, jacp, jacr, id);
      out.jacobian[spec] = [Array.from(jacp.GetView()), Array.from(jacr.GetView())];
    }
    jacp.delete();
    jacr.delete();
  }
  if (rest.includes('--inverse')) {
    mujoco.mj_inverse(model, data);
    out.qfrc_inverse = toList(data.qfrc_inverse);
    out.efc_force_inverse = toList(data.efc_force).slice(0, data.nefc);
  }
  if (rest.includes('--derivatives')) {
    const nx = 2 * nv + model.na, nu = model.nu, ns = model.nsensordata;
    const a = new mujoco.DoubleBuffer(nx * nx), b = new mujoco.DoubleBuffer(nx * nu);
    const c = new mujoco.DoubleBuffer(ns * nx), d = new mujoco.DoubleBuffer(ns * nu);
    mujoco.mjd_transitionFD(model, data, Number(option('--eps', '1e-6')),
                            rest.includes('--centred') ? 1 : 0, a, b, c, d);
    out.A = Array.from(a.GetView());
    out.B = Array.from(b.GetView());
    out.C = Array.from(c.GetView());
    out.D = Array.from(d.GetView());
    for (const buffer of [a, b, c, d]) buffer.delete();
  }
}

function dump(mujoco, model) {
  const steps = Number(option('--steps', '100'));
  const key = Number(option('--key', '-1'));
  model.opt.disableflags = model.opt.disableflags | disableBits(mujoco, option('--disable', ''));
  const tolerance = option('--tol', '');
  if (tolerance) model.opt.tolerance = Number(tolerance);
  const integrator = option('--integrator', '');
  if (integrator) model.opt.integrator = mujoco.mjtIntegrator['mjINT_' + integrator.toUpperCase()].value;
  const data = new mujoco.MjData(model);
  if (key >= 0) mujoco.mj_resetDataKeyframe(model, data, key);
  const stateFile = option('--state', '');
  if (stateFile) {
    const state = JSON.parse(fs.readFileSync(stateFile, 'utf8'));
    for (const name of ['qpos', 'qvel', 'act', 'ctrl', 'qacc_warmstart']) {
      if (state[name]) data[name].set(state[name]);
    }
  }
  const eachKey = rest.includes('--each-key');
  const lines = [];
  const count = eachKey ? model.nkey : steps;
  for (let step = 0; step < count; ++step) {
    if (eachKey) mujoco.mj_resetDataKeyframe(model, data, step);
    mujoco.mj_forward(model, data);
    const contacts = [];
    for (let c = 0; c < data.ncon; ++c) {
      const con = data.contact.get(c);
      contacts.push({geom1: con.geom1, geom2: con.geom2, dist: con.dist,
                     pos: toList(con.pos), frame: toList(con.frame)});
    }
    const out = {
      step, time: data.time, qpos: toList(data.qpos), qvel: toList(data.qvel),
      act: toList(data.act), qacc: toList(data.qacc), sensordata: toList(data.sensordata), ncon: data.ncon, contacts,
      nefc: data.nefc, efc_type: toList(data.efc_type).slice(0, data.nefc),
      efc_force: toList(data.efc_force).slice(0, data.nefc),
      efc_aref: toList(data.efc_aref).slice(0, data.nefc),
      solver_niter: toList(data.solver_niter)?.[0] ?? null,
    };
    toolbox(mujoco, model, data, out);
    lines.push(JSON.stringify(out));
    if (!eachKey) mujoco.mj_step(model, data);
  }
  data.delete();
  return lines;
}

function jacobians(mujoco, model) {
  const data = new mujoco.MjData(model);
  const stateFile = option('--state', '');
  if (stateFile) {
    const state = JSON.parse(fs.readFileSync(stateFile, 'utf8'));
    data.qpos.set(state.qpos);
    data.qvel.set(state.qvel);
  }
  mujoco.mj_forward(model, data);
  const n = 3 * model.nv;
  const jacp = new mujoco.DoubleBuffer(n), jacr = new mujoco.DoubleBuffer(n);
  const read = () => [Array.from(jacp.GetView()), Array.from(jacr.GetView())];
  const out = {body: [], body_com: [], subtree_com: [], body_dot: [], geom: [], site: []};
  for (let b = 0; b < model.nbody; ++b) {
    mujoco.mj_jacBody(model, data, jacp, jacr, b);
    out.body.push(read());
    mujoco.mj_jacBodyCom(model, data, jacp, jacr, b);
    out.body_com.push(read());
    mujoco.mj_jacSubtreeCom(model, data, jacp, b);
    out.subtree_com.push(read()[0]);
    const xpos = Array.from(data.xpos.slice(3 * b, 3 * b + 3));
    mujoco.mj_jacDot(model, data, jacp, jacr, xpos, b);
    out.body_dot.push(read());
  }
  for (let g = 0; g < model.ngeom; ++g) {
    mujoco.mj_jacGeom(model, data, jacp, jacr, g);
    out.geom.push(read());
  }
  for (let s = 0; s < model.nsite; ++s) {
    mujoco.mj_jacSite(model, data, jacp, jacr, s);
    out.site.push(read());
  }
  jacp.delete();
  jacr.delete();
  data.delete();
  return out;
}

// MuJoCo's load errors are C++ exceptions whose object starts with the
// message: the module's memory, kept here as it is instantiated, gives the
// text at the exception's address (getExceptionMessage names only the type).
let wasmMemory = null;
const instantiate = WebAssembly.instantiate;
WebAssembly.instantiate = async function (...args) {
  const result = await instantiate.apply(this, args);
  const instance = result.instance ?? result;
  if (instance.exports?.memory) wasmMemory = instance.exports.memory;
  return result;
};
function exceptionText(e) {
  const name = e?.name ?? (typeof e === 'number' ? 'exception' : String(e));
  if (!wasmMemory || !e?.excPtr) return String(name);
  const bytes = new Uint8Array(wasmMemory.buffer);
  let text = '';
  for (let i = e.excPtr; i < e.excPtr + 2000 && bytes[i]; ++i) text += String.fromCharCode(bytes[i]);
  return `${name}: ${text.trim()}`;
}

const mujoco = await loadMujoco();
const absolute = path.resolve(modelPath);
copyModel(mujoco, absolute);
let model;
try {
  model = mujoco.MjModel.loadFromXML(absolute);
} catch (e) {
  console.log(JSON.stringify({error: exceptionText(e)}));
  process.exit(2);
}
if (!model) {
  console.log(JSON.stringify({error: 'MuJoCo 3.3.8 could not load the model'}));
  process.exit(2);
}
applyEdits(mujoco, model);
if (command === 'info') {
  console.log(JSON.stringify(info(mujoco, model)));
} else if (command === 'jac') {
  console.log(JSON.stringify(jacobians(mujoco, model)));
} else if (command === 'dump') {
  for (const line of dump(mujoco, model)) console.log(line);
} else {
  console.error('usage: node mujoco3.mjs info|dump|jac MODEL.xml [options]');
  process.exit(2);
}
model.delete();
