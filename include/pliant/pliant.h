#pragma once

// Pliant's public API in one header:
//
//   #include <pliant/pliant.h>
//
//   const pliant::Model model = pliant::load_model("scene.xml");  // throws pliant::LoadError
//   pliant::Data data(model);                                      // one Data per thread
//   for (int i = 0; i < 1000; ++i) pliant::step(model, data);
//
// Model (model/model.h) is the compiled, immutable model; Data
// (engine/data.h) the state and every stage's results, sensordata included
// (model/sensor_types.h names each sensor type); forward.h the step; ray.h
// ray casting; tuning.h the contact design helpers behind `pliant tune`,
// impact.h the stepped impact prediction and design they use.

#include "pliant/data.h"
#include "pliant/forward.h"
#include "pliant/impact.h"
#include "pliant/load.h"
#include "pliant/load_error.h"
#include "pliant/model.h"
#include "pliant/ray.h"
#include "pliant/sensor_types.h"
#include "pliant/tuning.h"
#include "pliant/version.h"
