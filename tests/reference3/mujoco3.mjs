// MuJoCo 3.3.8 (the official WebAssembly build, npm package mujoco-js 0.0.7)
// as a reference for Pliant's tests. Never used by the engine.
//
//   node mujoco3.mjs info MODEL.xml [--fields a,b,c]
//       one JSON object: the compiled fields named (MuJoCo's names; a field
//       MuJoCo does not have is null), or every numeric field when none are
//       named. Sizes (nq, nv, ...) are numbers, arrays are flat lists.
//   node mujoco3.mjs dump MODEL.xml [--steps N] [--key K] [--disable a,b]
//       one JSON line per step before stepping, with the keys of
//       `pliant dump`: step, time, qpos, qvel, qacc, sensordata, ncon,
//       contacts (geom1, geom2, dist, pos, frame), nefc, efc_type.
//   A model that does not load prints {"error": "..."} and exits 2.
//
// The model's folder (includes, meshes, textures) is copied into the
// module's in-memory file system, so relative paths resolve as on disk.

import fs from 'node:fs';
import path from 'node:path';
import loadMujoco from 'mujoco-js';

const [command, modelPath, ...rest] = process.argv.slice(2);
const option = (name, fallback) => {
  const i = rest.indexOf(name);
  return i >= 0 && i + 1 < rest.length ? rest[i + 1] : fallback;
};

function copyTree(mujoco, hostDir, memDir, depth) {
  if (depth > 8) return;
  for (const entry of fs.readdirSync(hostDir, {withFileTypes: true})) {
    const host = path.join(hostDir, entry.name);
    const mem = memDir + '/' + entry.name;
    if (entry.isDirectory()) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      mujoco.FS.mkdir(mem);
      copyTree(mujoco, host, mem, depth + 1);
    } else if (entry.isFile()) {
      mujoco.FS.writeFile(mem, fs.readFileSync(host));
    }
  }
}

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

function dump(mujoco, model) {
  const steps = Number(option('--steps', '100'));
  const key = Number(option('--key', '-1'));
  model.opt.disableflags = model.opt.disableflags | disableBits(mujoco, option('--disable', ''));
  const data = new mujoco.MjData(model);
  if (key >= 0) mujoco.mj_resetDataKeyframe(model, data, key);
  const lines = [];
  for (let step = 0; step < steps; ++step) {
    mujoco.mj_forward(model, data);
    const contacts = [];
    for (let c = 0; c < data.ncon; ++c) {
      const con = data.contact.get(c);
      contacts.push({geom1: con.geom1, geom2: con.geom2, dist: con.dist,
                     pos: toList(con.pos), frame: toList(con.frame)});
    }
    lines.push(JSON.stringify({
      step, time: data.time, qpos: toList(data.qpos), qvel: toList(data.qvel),
      qacc: toList(data.qacc), sensordata: toList(data.sensordata), ncon: data.ncon, contacts,
      nefc: data.nefc, efc_type: toList(data.efc_type).slice(0, data.nefc),
    }));
    mujoco.mj_step(model, data);
  }
  data.delete();
  return lines;
}

const mujoco = await loadMujoco();
const absolute = path.resolve(modelPath);
mujoco.FS.mkdir('/model');
copyTree(mujoco, path.dirname(absolute), '/model', 0);
let model;
try {
  model = mujoco.MjModel.loadFromXML('/model/' + path.basename(absolute));
} catch (e) {
  const message = typeof e === 'number' ? mujoco.getExceptionMessage?.(e) ?? String(e) : String(e);
  console.log(JSON.stringify({error: String(message)}));
  process.exit(2);
}
if (!model) {
  console.log(JSON.stringify({error: 'MuJoCo 3.3.8 could not load the model'}));
  process.exit(2);
}
if (command === 'info') {
  console.log(JSON.stringify(info(mujoco, model)));
} else if (command === 'dump') {
  for (const line of dump(mujoco, model)) console.log(line);
} else {
  console.error('usage: node mujoco3.mjs info|dump MODEL.xml [options]');
  process.exit(2);
}
model.delete();
