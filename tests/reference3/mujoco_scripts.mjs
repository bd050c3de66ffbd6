// The scripts of samples/python/mujoco_scripts, written against MuJoCo
// 3.3.8's WebAssembly build with the same calls, printing the same lines:
// what compare_scripts.py holds the Python scripts (run on Pliant through
// `import pliant.mujoco as mujoco`) to. Never used by the engine.
//
//   node mujoco_scripts.mjs cartpole_lqr|contact_logger|randomise_episodes|osc_controller|camera_capture|solver_monitor MODEL

import fs from 'node:fs';
import path from 'node:path';
import loadMujoco from 'mujoco-js';

import {copyModel} from './mujoco_files.mjs';

const [script, modelPath] = process.argv.slice(2);
const mujoco = await loadMujoco();
const fmt = (v) => {
  // Python's '%.17g'.
  if (Number.isInteger(v) && Math.abs(v) < 1e17) return String(v);
  const [mantissa, exponent] = Number(v).toExponential(16).split('e');
  const e = Number(exponent);
  if (e < -4 || e >= 17) {
    const m = mantissa.replace(/\.?0+$/, '');
    return `${m}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  return Number(v).toPrecision(17).replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
};
const join = (values) => Array.from(values, fmt).join(' ');

function load(file) {
  const absolute = path.resolve(file);
  copyModel(mujoco, absolute);
  return mujoco.MjModel.loadFromXML(absolute);
}

function cartpoleLqr() {
  const model = load(modelPath);
  model.opt.integrator = mujoco.mjtIntegrator.mjINT_EULER.value;
  const data = new mujoco.MjData(model);
  mujoco.mj_forward(model, data);
  const nx = 2 * model.nv + model.na, nu = model.nu;
  const a = new mujoco.DoubleBuffer(nx * nx), b = new mujoco.DoubleBuffer(nx * nu);
  const c = new mujoco.DoubleBuffer(0), d = new mujoco.DoubleBuffer(0);
  mujoco.mjd_transitionFD(model, data, 1e-6, 1, a, b, c, d);
  const A = Array.from(a.GetView()), B = Array.from(b.GetView());
  console.log('A ' + join(A));
  console.log('B ' + join(B));
  // Riccati iteration, as numpy does it in the Python script (nu = 1).
  const at = (M, cols, i, j) => M[i * cols + j];
  const matmul = (X, xr, xc, Y, yc) => {
    const out = new Array(xr * yc).fill(0);
    for (let i = 0; i < xr; ++i) for (let k = 0; k < xc; ++k) {
      const x = X[i * xc + k];
      for (let j = 0; j < yc; ++j) out[i * yc + j] += x * Y[k * yc + j];
    }
    return out;
  };
  const transpose = (X, r, cc) => {
    const out = new Array(r * cc);
    for (let i = 0; i < r; ++i) for (let j = 0; j < cc; ++j) out[j * r + i] = X[i * cc + j];
    return out;
  };
  if (nu !== 1) throw new Error('the twin solves for one control');
  let P = new Array(nx * nx).fill(0);
  for (let i = 0; i < nx; ++i) P[i * nx + i] = 1;
  let K = null;
  for (let it = 0; it < 5000; ++it) {
    const PB = matmul(P, nx, nx, B, nu);
    const BtPB = matmul(transpose(B, nx, nu), nu, nx, PB, nu)[0] + 0.1;
    const BtPA = matmul(transpose(B, nx, nu), nu, nx, matmul(P, nx, nx, A, nx), nx);
    K = BtPA.map((v) => v / BtPB);
    const BK = matmul(B, nx, nu, K, nx);
    const AmBK = A.map((v, i) => v - BK[i]);
    const next = matmul(transpose(A, nx, nx), nx, nx, matmul(P, nx, nx, AmBK, nx), nx);
    for (let i = 0; i < nx; ++i) next[i * nx + i] += 1;
    P = next;
  }
  console.log('K ' + join(K));
  data.qpos[1] = 0.1;
  for (let s = 0; s < 500; ++s) {
    const state = [...data.qpos, ...data.qvel];
    let u = 0;
    for (let i = 0; i < nx; ++i) u -= K[i] * state[i];
    data.ctrl[0] = u;
    mujoco.mj_step(model, data);
  }
  console.log('final ' + join([...data.qpos, ...data.qvel]));
}

function contactLogger() {
  const model = load(modelPath);
  const data = new mujoco.MjData(model);
  const force = new mujoco.DoubleBuffer(6);
  for (let step = 0; step <= 300; ++step) {
    mujoco.mj_forward(model, data);
    if (step % 50 === 0) {
      console.log(`step ${step} ncon ${data.ncon}`);
      for (let i = 0; i < data.ncon; ++i) {
        const con = data.contact.get(i);
        mujoco.mj_contactForce(model, data, i, force);
        console.log(`contact ${con.geom1} ${con.geom2} ${fmt(con.dist)} ` +
                    `${join(Array.from(con.frame).slice(0, 3))} ${join(force.GetView())}`);
      }
    }
    mujoco.mj_step(model, data);
  }
}

function randomiseEpisodes() {
  const model = load(modelPath);
  const data = new mujoco.MjData(model);
  const friction0 = [], mass0 = Array.from(model.body_mass), inertia0 = Array.from(model.body_inertia);
  for (let g = 0; g < model.ngeom; ++g) friction0.push(model.geom_friction[3 * g]);
  const scale = (episode, i) => 0.7 + 0.6 * ((episode * 7919 + i * 104729) % 1000) / 1000.0;
  const torso = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_BODY.value, 'torso');
  for (let episode = 0; episode < 4; ++episode) {
    for (let g = 0; g < model.ngeom; ++g) model.geom_friction[3 * g] = friction0[g] * scale(episode, g);
    for (let b = 1; b < model.nbody; ++b) {
      const s = scale(episode, 100 + b);
      model.body_mass[b] = mass0[b] * s;
      for (let k = 0; k < 3; ++k) model.body_inertia[3 * b + k] = inertia0[3 * b + k] * s;
    }
    mujoco.mj_setConst(model, data);
    mujoco.mj_resetData(model, data);
    let contacts = 0;
    for (let s = 0; s < 250; ++s) {
      mujoco.mj_step(model, data);
      contacts += data.ncon;
    }
    const xpos = Array.from(data.xpos).slice(3 * torso, 3 * torso + 3);
    console.log(`episode ${episode} subtreemass ${fmt(model.body_subtreemass[1])} torso ` +
                `${join(xpos)} contacts ${contacts}`);
  }
}

function oscController() {
  const source = fs.readFileSync(path.join(path.dirname(new URL(import.meta.url).pathname),
                                           '../../samples/python/mujoco_scripts/osc_controller.py'),
                                 'utf8');
  const xml = source.split('ARM = """')[1].split('"""')[0];
  mujoco.FS.writeFile('/osc_arm.xml', xml);
  const model = mujoco.MjModel.loadFromXML('/osc_arm.xml');
  const data = new mujoco.MjData(model);
  const nv = model.nv;
  const hand = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_SITE.value, 'hand');
  const target = [0.35, 0.0, 0.75];
  const jacp = new mujoco.DoubleBuffer(3 * nv), jacr = new mujoco.DoubleBuffer(3 * nv);
  for (let step = 0; step <= 1000; ++step) {
    mujoco.mj_forward(model, data);
    mujoco.mj_jacSite(model, data, jacp, jacr, hand);
    const J = Array.from(jacp.GetView());
    const x = Array.from(data.site_xpos).slice(3 * hand, 3 * hand + 3);
    const force = [0, 1, 2].map((r) => {
      let jv = 0;
      for (let k = 0; k < nv; ++k) jv += J[r * nv + k] * data.qvel[k];
      return 60.0 * (target[r] - x[r]) - 8.0 * jv;
    });
    const saved = Array.from(data.qacc);
    for (let k = 0; k < nv; ++k) data.qacc[k] = 0;
    mujoco.mj_inverse(model, data);
    const bias = Array.from(data.qfrc_inverse);
    for (let k = 0; k < nv; ++k) data.qacc[k] = saved[k];
    for (let k = 0; k < nv; ++k) {
      let t = 0;
      for (let r = 0; r < 3; ++r) t += J[r * nv + k] * force[r];
      data.ctrl[k] = t + bias[k];
    }
    if (step % 200 === 0) console.log(`step ${step} hand ${join(x)} ctrl ${join(data.ctrl)}`);
    mujoco.mj_step(model, data);
  }
}

// camera_capture.py's numbers (the pictures themselves are Pliant's: the
// WebAssembly build has no headless renderer, so the twin prints the names
// the script writes).
function cameraCapture() {
  const model = load(modelPath);
  const data = new mujoco.MjData(model);
  let camera = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_CAMERA.value, 'side');
  if (camera < 0) camera = model.ncam > 0 ? 0 : -1;
  for (let step = 0; step <= 300; ++step) {
    if (step % 100 === 0) {
      mujoco.mj_forward(model, data);
      const name = `frame_${String(step).padStart(3, '0')}.png`;
      const pose = camera < 0 ? 'free'
          : `${join(Array.from(data.cam_xpos).slice(3 * camera, 3 * camera + 3))} ` +
            `${join(Array.from(data.cam_xmat).slice(9 * camera, 9 * camera + 9))}`;
      console.log(`step ${step} camera ${pose} torso ${join(Array.from(data.xpos).slice(3, 6))}`);
      console.log(`wrote ${name} 640x480`);
    }
    mujoco.mj_step(model, data);
  }
}

function solverMonitor() {
  const model = load(modelPath);
  const data = new mujoco.MjData(model);
  for (let step = 0; step <= 300; ++step) {
    mujoco.mj_step(model, data);
    if (step % 25 === 0) {
      const niter = data.solver_niter[0];
      console.log(`step ${step} ncon ${data.ncon} niter ${niter}`);
      for (let i = 0; i < Math.min(niter, 200); ++i) {
        const s = data.solver.get(i);
        console.log(`iteration ${i} ${fmt(s.improvement)} ${fmt(s.gradient)} ` +
                    `${s.nactive} ${s.nchange} ${s.neval}`);
      }
    }
  }
}

const scripts = {cartpole_lqr: cartpoleLqr, contact_logger: contactLogger,
                 randomise_episodes: randomiseEpisodes, osc_controller: oscController,
                 camera_capture: cameraCapture, solver_monitor: solverMonitor};
if (!scripts[script]) {
  console.error('usage: node mujoco_scripts.mjs ' + Object.keys(scripts).join('|') + ' MODEL');
  process.exit(2);
}
scripts[script]();
