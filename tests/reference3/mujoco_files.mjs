// The model files MuJoCo 3.3.8's WebAssembly build reads: a model's folder
// and the folders its XML names, copied into the module's in-memory file
// system at their own absolute paths (shared by mujoco3.mjs and
// mujoco_scripts.mjs).

import fs from 'node:fs';
import path from 'node:path';

// Copies a host folder, recursively, to the same absolute path in the
// module's in-memory file system, unless it or a folder above it was copied.
function copyTree(mujoco, hostDir, copied) {
  if ([...copied].some((d) => hostDir === d || hostDir.startsWith(d + path.sep))) return;
  copied.add(hostDir);
  const copyFolder = (folder) => {
    mujoco.FS.mkdirTree(folder);
    for (const entry of fs.readdirSync(folder, {withFileTypes: true})) {
      const host = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) copyFolder(host);
      } else if (entry.isFile()) {
        mujoco.FS.writeFile(host, fs.readFileSync(host));
      }
    }
  };
  copyFolder(hostDir);
}

// The model's folder, then every folder its XML files name (includes,
// meshdir, texturedir, asset files), relative to the model's folder as
// MuJoCo resolves them.
export function copyModel(mujoco, modelFile) {
  const root = path.dirname(modelFile);
  const copied = new Set();
  copyTree(mujoco, root, copied);
  const scanned = new Set();
  for (let changed = true; changed;) {
    changed = false;
    for (const dir of [...copied]) {
      const stack = [dir];
      while (stack.length) {
        const current = stack.pop();
        for (const entry of fs.readdirSync(current, {withFileTypes: true})) {
          const host = path.join(current, entry.name);
          if (entry.isDirectory() && entry.name !== 'node_modules' && !entry.name.startsWith('.')) {
            stack.push(host);
          } else if (entry.isFile() && entry.name.endsWith('.xml') && !scanned.has(host)) {
            scanned.add(host);
            const text = fs.readFileSync(host, 'utf8');
            for (const m of text.matchAll(/\b(file|meshdir|texturedir|assetdir)="([^"]+)"/g)) {
              const target = path.resolve(root, m[2]);
              const folder = m[1] === 'file' ? path.dirname(target) : target;
              if (fs.existsSync(folder) && fs.statSync(folder).isDirectory()) {
                const before = copied.size;
                copyTree(mujoco, folder, copied);
                changed = changed || copied.size !== before;
              }
            }
          }
        }
      }
    }
  }
}

