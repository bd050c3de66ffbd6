#include "engine/sensors.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "engine/body_motion.h"
#include "engine/collision/collision.h"
#include "engine/constraint/solve.h"
#include "engine/contact_sensor.h"
#include "engine/site_volume.h"
#include "engine/spatial.h"
#include "pliant/energy.h"
#include "pliant/ray.h"
#include "pliant/sensor_types.h"

namespace pliant {
namespace {

void put(double* out, const Vector3d& v) {
  for (int i = 0; i < 3; ++i) out[i] = v[i];
}

void put(double* out, const Quaterniond& q) {
  out[0] = q.w();
  out[1] = q.x();
  out[2] = q.y();
  out[3] = q.z();
}

// A joint or tendon limit sensor's reading from the first limit row of its
// object: the violation (pos - margin), velocity or force; 0 when the limit
// is inactive (no row).
double limit_reading(const Data& d, SensorType type, int id) {
  const bool joint = type == SensorType::kJointLimitPos || type == SensorType::kJointLimitVel ||
                     type == SensorType::kJointLimitFrc;
  const ConstraintType row_type =
      joint ? ConstraintType::kLimitJoint : ConstraintType::kLimitTendon;
  const ConstraintRows& e = d.efc;
  for (int r = 0; r < e.count(); ++r) {
    if (e.type[r] != row_type || e.id[r] != id) continue;
    switch (type) {
      case SensorType::kJointLimitPos:
      case SensorType::kTendonLimitPos:
        return e.pos[r] - e.margin[r];
      case SensorType::kJointLimitVel:
      case SensorType::kTendonLimitVel:
        return e.vel[r];
      default:
        return e.force[r];
    }
  }
  return 0;
}

// Clips values by the sensor's cutoff: real values both ways, positive ones
// from above; axes and quaternions never, nor fromto. A distance (real) is
// at most its cutoff already, and a penetration deeper than it reads
// -cutoff, as in MuJoCo 3.3.8.
inline void apply_cutoff(const Model& m, Data& d, int s) {
  const Sensors& t = m.sensors;
  const double cutoff = t.cutoff[s];
  if (cutoff <= 0 || t.type[s] == SensorType::kGeomFromTo) return;
  const auto datatype = static_cast<SensorDataType>(t.datatype[s]);
  double* out = d.sensordata.data() + t.adr[s];
  for (int i = 0; i < t.dim[s]; ++i) {
    if (datatype == SensorDataType::kReal) {
      out[i] = std::clamp(out[i], -cutoff, cutoff);
    } else if (datatype == SensorDataType::kPositive) {
      out[i] = std::min(out[i], cutoff);
    }
  }
}

// Pixel coordinates (x right, y down, origin at the image corner) of a
// world point seen by a camera with its resolution and intrinsics.
void project(const Model& m, const Data& d, int camera, const Vector3d& point, double* out) {
  const Cameras& c = m.cameras;
  const ObjectFrame cam = object_frame(m, d, ObjectType::kCamera, camera);
  const Vector2d res = c.resolution[camera];
  const Vector2d size = c.sensorsize[camera];
  // The principal point is not used, as in MuJoCo 3.3.8: the image centre.
  double fx, fy;
  const double cx = res[0] / 2, cy = res[1] / 2;
  if (size[0] > 0 && size[1] > 0) {
    const Vector4d& in = c.intrinsic[camera];
    fx = in[0] / size[0] * res[0];
    fy = in[1] / size[1] * res[1];
  } else {
    fx = fy = 0.5 / std::tan(c.fovy[camera] * M_PI / 360) * res[1];
  }
  // The camera looks along its -z axis with y up; pixel y grows downwards.
  const Vector3d p = cam.mat.transpose() * (point - cam.pos);
  double depth = p.z();
  if (std::abs(depth) < kMinValue) depth = depth < 0 ? -kMinValue : kMinValue;
  out[0] = (-fx * p.x() + cx * p.z()) / depth;
  out[1] = (fy * p.y() + cy * p.z()) / depth;
}

// Distance sensors: the nearest pair between the geoms of the two sides
// (one geom, or every geom of a body), searched up to the cutoff.
void distance_sensor(const Model& m, const Data& d, int s, double* out) {
  const Sensors& t = m.sensors;
  auto geoms = [&](ObjectType type, int id) {
    return type == ObjectType::kBody
               ? std::pair{m.bodies.geom_adr[id], m.bodies.geom_adr[id] + m.bodies.geom_count[id]}
               : std::pair{id, id + 1};
  };
  const auto [first1, last1] = geoms(t.obj_type[s], t.obj_id[s]);
  const auto [first2, last2] = geoms(t.ref_type[s], t.ref_id[s]);
  double dist = t.cutoff[s];
  double fromto[6] = {0, 0, 0, 0, 0, 0}, candidate[6];
  for (int g1 = first1; g1 < last1; ++g1) {
    for (int g2 = first2; g2 < last2; ++g2) {
      if (g1 == g2) continue;
      const double gd = geom_distance(m, d, g1, g2, t.cutoff[s], candidate);
      if (gd < dist) {
        dist = gd;
        std::copy(candidate, candidate + 6, fromto);
      }
    }
  }
  switch (t.type[s]) {
    case SensorType::kGeomDist:
      out[0] = dist;
      break;
    case SensorType::kGeomNormal: {
      // From the first side's surface point to the second's: against the
      // contact normal when the geoms overlap; zero when none is in range.
      Vector3d normal(fromto[3] - fromto[0], fromto[4] - fromto[1], fromto[5] - fromto[2]);
      if (normal.norm() > kMinValue) normal.normalize();
      put(out, normal);
      break;
    }
    default:
      std::copy(fromto, fromto + 6, out);
  }
}

}  // namespace

void sensors_position(const Model& m, Data& d) {
  const Sensors& t = m.sensors;
  if (t.count() == 0 || !m.options.flags.sensor) return;
  ScopedStageTimer timer(d.timers, Stage::kSensors);
  bool energy_done = false;
  for (int s = 0; s < t.count(); ++s) {
    if (t.stage[s] != static_cast<int>(SensorStage::kPosition)) continue;
    double* out = d.sensordata.data() + t.adr[s];
    const int id = t.obj_id[s];
    const int ref = t.ref_id[s];
    switch (t.type[s]) {
      case SensorType::kMagnetometer:
        put(out, d.site_xmat[id].transpose() * m.options.magnetic);
        break;
      case SensorType::kRangefinder: {
        RayFilter filter;
        filter.exclude_body = m.sites.body[id];
        out[0] = cast_ray(m, d, d.site_xpos[id], d.site_xmat[id].col(2), filter).distance;
        break;
      }
      case SensorType::kCamProjection:
        project(m, d, ref, d.site_xpos[id], out);
        break;
      case SensorType::kJointPos:
        out[0] = d.qpos[m.joints.qpos_adr[id]];
        break;
      case SensorType::kTendonPos:
        out[0] = d.ten_length[id];
        break;
      case SensorType::kActuatorPos:
        out[0] = d.actuator_length[id];
        break;
      case SensorType::kBallQuat: {
        const int q = m.joints.qpos_adr[id];
        put(out, Quaterniond(d.qpos[q], d.qpos[q + 1], d.qpos[q + 2], d.qpos[q + 3]).normalized());
        break;
      }
      case SensorType::kJointLimitPos:
      case SensorType::kTendonLimitPos:
        out[0] = limit_reading(d, t.type[s], id);
        break;
      case SensorType::kInsideSite:
        // 1 when the object's position (a body's centre of mass, an xbody's
        // origin) lies in the site's volume.
        out[0] = inside_site(m, d, ref, object_frame(m, d, t.obj_type[s], id).pos) ? 1 : 0;
        break;
      case SensorType::kFramePos:
      case SensorType::kFrameQuat:
      case SensorType::kFrameXAxis:
      case SensorType::kFrameYAxis:
      case SensorType::kFrameZAxis: {
        const ObjectFrame f = object_frame(m, d, t.obj_type[s], id);
        ObjectFrame r{Vector3d::Zero(), Matrix3d::Identity(), 0};
        if (ref >= 0) r = object_frame(m, d, t.ref_type[s], ref);
        if (t.type[s] == SensorType::kFramePos) {
          put(out, r.mat.transpose() * (f.pos - r.pos));
        } else if (t.type[s] == SensorType::kFrameQuat) {
          const Quaterniond q = object_quat(m, d, t.obj_type[s], id);
          put(out, ref >= 0 ? object_quat(m, d, t.ref_type[s], ref).conjugate() * q : q);
        } else {
          const int axis = static_cast<int>(t.type[s]) - static_cast<int>(SensorType::kFrameXAxis);
          put(out, r.mat.transpose() * f.mat.col(axis));
        }
        break;
      }
      case SensorType::kSubtreeCom:
        put(out, d.subtree_com[id]);
        break;
      case SensorType::kGeomDist:
      case SensorType::kGeomNormal:
      case SensorType::kGeomFromTo:
        distance_sensor(m, d, s, out);
        break;
      case SensorType::kClock:
        out[0] = d.time;
        break;
      case SensorType::kEPotential:
      case SensorType::kEKinetic:
        if (!energy_done) compute_energy(m, d);
        energy_done = true;
        out[0] = t.type[s] == SensorType::kEPotential ? d.energy_potential : d.energy_kinetic;
        break;
      default:
        break;
    }
    apply_cutoff(m, d, s);
  }
}

void sensors_velocity(const Model& m, Data& d) {
  const Sensors& t = m.sensors;
  if (t.count() == 0 || !m.options.flags.sensor) return;
  ScopedStageTimer timer(d.timers, Stage::kSensors);
  bool subtree_done = false;
  for (int s = 0; s < t.count(); ++s) {
    if (t.stage[s] != static_cast<int>(SensorStage::kVelocity)) continue;
    double* out = d.sensordata.data() + t.adr[s];
    const int id = t.obj_id[s];
    const int ref = t.ref_id[s];
    switch (t.type[s]) {
      case SensorType::kVelocimeter:
        put(out, linear(object_velocity(m, d, ObjectType::kSite, id, true)));
        break;
      case SensorType::kGyro:
        put(out, angular(object_velocity(m, d, ObjectType::kSite, id, true)));
        break;
      case SensorType::kJointVel:
        out[0] = d.qvel[m.joints.dof_adr[id]];
        break;
      case SensorType::kTendonVel:
        out[0] = d.ten_velocity[id];
        break;
      case SensorType::kActuatorVel:
        out[0] = d.actuator_velocity[id];
        break;
      case SensorType::kBallAngVel:
        for (int i = 0; i < 3; ++i) out[i] = d.qvel[m.joints.dof_adr[id] + i];
        break;
      case SensorType::kJointLimitVel:
      case SensorType::kTendonLimitVel:
        out[0] = limit_reading(d, t.type[s], id);
        break;
      case SensorType::kFrameLinVel:
      case SensorType::kFrameAngVel: {
        const Vector6d v = object_velocity(m, d, t.obj_type[s], id, false);
        Vector3d result = t.type[s] == SensorType::kFrameLinVel ? linear(v) : angular(v);
        if (ref >= 0) {
          // Relative to the reference frame, in its axes; a linear velocity
          // also loses the part the reference's rotation sweeps.
          const Vector6d vr = object_velocity(m, d, t.ref_type[s], ref, false);
          const ObjectFrame f = object_frame(m, d, t.obj_type[s], id);
          const ObjectFrame r = object_frame(m, d, t.ref_type[s], ref);
          if (t.type[s] == SensorType::kFrameLinVel) {
            result = result - linear(vr) - angular(vr).cross(f.pos - r.pos);
          } else {
            result = result - angular(vr);
          }
          result = r.mat.transpose() * result;
        }
        put(out, result);
        break;
      }
      case SensorType::kSubtreeLinVel:
      case SensorType::kSubtreeAngMom:
        if (!subtree_done) subtree_velocities(m, d);
        subtree_done = true;
        put(out,
            t.type[s] == SensorType::kSubtreeLinVel ? d.subtree_linvel[id] : d.subtree_angmom[id]);
        break;
      default:
        break;
    }
    apply_cutoff(m, d, s);
  }
}

void sensors_acceleration(const Model& m, Data& d) {
  const Sensors& t = m.sensors;
  if (t.count() == 0 || !m.options.flags.sensor) return;
  ScopedStageTimer timer(d.timers, Stage::kSensors);
  bool forces_done = false;
  // Bodies of each contact that has constraint rows ((-1, -1) for the
  // others), gathered once for every touch sensor.
  static thread_local std::vector<std::pair<int, int>> contact_bodies;
  bool contact_bodies_done = false;
  for (int s = 0; s < t.count(); ++s) {
    const SensorType type = t.type[s];
    if (t.stage[s] != static_cast<int>(SensorStage::kAcceleration)) continue;
    double* out = d.sensordata.data() + t.adr[s];
    const int id = t.obj_id[s];
    const bool needs_body_forces = type == SensorType::kAccelerometer ||
                                   type == SensorType::kForce || type == SensorType::kTorque ||
                                   type == SensorType::kFrameLinAcc ||
                                   type == SensorType::kFrameAngAcc;
    if (needs_body_forces && !forces_done) {
      constraint_body_forces(m, d);
      forces_done = true;
    }
    switch (type) {
      case SensorType::kTouch: {
        // Normal forces of the contacts on the site's body whose line of
        // action, from the contact point along the force on the body,
        // crosses the site's volume.
        if (!contact_bodies_done) {
          contact_bodies.clear();
          for (const Contact& con : d.contacts) {
            contact_bodies.push_back(
                con.efc_address < 0 ? std::pair{-1, -1}
                                    : std::pair{m.geoms.body[con.geom1], m.geoms.body[con.geom2]});
          }
          contact_bodies_done = true;
        }
        const int body = m.sites.body[id];
        double force[6];
        out[0] = 0;
        for (int c = 0; c < static_cast<int>(contact_bodies.size()); ++c) {
          const auto [body1, body2] = contact_bodies[c];
          if (body != body1 && body != body2) continue;
          const Contact& con = d.contacts[c];
          contact_force(m, d, c, force);
          if (force[0] <= 0) continue;
          Vector3d ray = con.frame.row(0).transpose();
          if (body == body2) ray = -ray;
          if (ray_shape(m.sites.type[id], m.sites.size[id], d.site_xpos[id], d.site_xmat[id],
                        con.pos, ray) >= 0) {
            out[0] += force[0];
          }
        }
        break;
      }
      case SensorType::kAccelerometer:
        put(out, linear(object_acceleration(m, d, ObjectType::kSite, id, true)));
        break;
      case SensorType::kForce:
      case SensorType::kTorque: {
        // The wrench the parent exerts on the subtree, at the site, in its axes.
        const int body = m.sites.body[id];
        const Vector6d& w = d.cfrc_int[body];
        const Vector3d arm = d.site_xpos[id] - d.subtree_com[m.bodies.root[body]];
        const Matrix3d& mat = d.site_xmat[id];
        put(out, type == SensorType::kForce
                     ? Vector3d(mat.transpose() * linear(w))
                     : Vector3d(mat.transpose() * (angular(w) - arm.cross(linear(w)))));
        break;
      }
      case SensorType::kActuatorFrc:
        out[0] = d.actuator_force[id];
        break;
      case SensorType::kContact:
        contact_sensor(m, d, s, out);
        break;
      case SensorType::kJointActuatorFrc:
        out[0] = d.qfrc_actuator[m.joints.dof_adr[id]];
        break;
      case SensorType::kTendonActuatorFrc: {
        // Total force of the actuators that pull on this tendon.
        double total = 0;
        for (int a = 0; a < m.nu; ++a) {
          if (m.actuators.trn_type[a] == TransmissionType::kTendon &&
              m.actuators.trn_id[a][0] == id) {
            total += d.actuator_force[a];
          }
        }
        out[0] = total;
        break;
      }
      case SensorType::kJointLimitFrc:
      case SensorType::kTendonLimitFrc:
        out[0] = limit_reading(d, type, id);
        break;
      case SensorType::kFrameLinAcc:
      case SensorType::kFrameAngAcc: {
        const Vector6d a = object_acceleration(m, d, t.obj_type[s], id, false);
        put(out, type == SensorType::kFrameLinAcc ? linear(a) : angular(a));
        break;
      }
      default:
        break;
    }
    apply_cutoff(m, d, s);
  }
}

}  // namespace pliant
