#pragma once

// The field table of Model: every size, option and array, one line each.
//
// A line of an array table is
//   X(name, member, rows, columns, unit, doc)
// name     MuJoCo's mjModel name where MuJoCo has the field with the same
//          layout (the tables' first argument, X); a Pliant name otherwise
//          (the second, OWN: a field MuJoCo does not have, or lays out
//          otherwise)
// member   where the values live in Model
// rows     a size of the model (nbody, nv, ...) or a number
// columns  values per row: a number, or a size (key_qpos has nq)
// unit     SI unit of the values ("" for ids, counts, codes and flags)
// doc      one line
// Values are read row by row in MuJoCo's layout: quaternions (w, x, y, z),
// 3x3 matrices row by row, enums as MuJoCo's integer codes, flags as 0 or 1.
//
// From the table come the sizes check, `pliant info --json`, the Python
// properties, docs/fields.md and the tests that walk every field: adding a
// field to Model means adding its line here.

#include <span>
#include <string>
#include <vector>

#include "pliant/model.h"

// X(name, expression over `m`, doc); OWN for sizes MuJoCo does not have.
#define PLIANT_MODEL_SIZES(X, OWN)                                                         \
  X(nq, m.nq, "generalised coordinates (qpos)")                                            \
  X(nv, m.nv, "degrees of freedom (qvel)")                                                 \
  X(nu, m.nu, "actuators (ctrl)")                                                          \
  X(na, m.na, "activation states (act)")                                                   \
  X(nbody, m.bodies.count(), "bodies, the world body 0 included")                          \
  X(njnt, m.joints.count(), "joints")                                                      \
  X(ngeom, m.geoms.count(), "geoms")                                                       \
  X(nsite, m.sites.count(), "sites")                                                       \
  X(ncam, m.cameras.count(), "cameras")                                                    \
  X(nlight, m.lights.count(), "lights")                                                    \
  X(nmesh, m.meshes.count(), "meshes")                                                     \
  X(nmeshvert, static_cast<int>(m.meshes.vertices.size()), "mesh vertices, all meshes")    \
  X(nmeshface, static_cast<int>(m.meshes.faces.size()), "mesh faces, all meshes")          \
  OWN(nmeshhullvert, static_cast<int>(m.meshes.hull_vertices.size()),                      \
      "convex hull vertices, all meshes")                                                  \
  OWN(nmeshhullnbr, static_cast<int>(m.meshes.hull_neighbours.size()),                     \
      "hull vertex neighbours, all hulls")                                                 \
  X(nmeshpoly, static_cast<int>(m.meshes.poly_normal.size()), "mesh polygons, all meshes") \
  X(nmeshpolyvert, static_cast<int>(m.meshes.poly_vert.size()),                            \
    "mesh polygon corners, all meshes")                                                    \
  X(nmeshpolymap, static_cast<int>(m.meshes.polymap.size()),                               \
    "vertex-to-polygon entries, all meshes")                                               \
  X(nhfield, m.hfields.count(), "height fields")                                           \
  X(nhfielddata, static_cast<int>(m.hfields.data.size()), "height field elevations")       \
  X(ntex, m.textures.count(), "textures")                                                  \
  X(nmat, m.materials.count(), "materials")                                                \
  X(npair, m.pairs.count(), "explicit contact pairs")                                      \
  X(nexclude, m.excludes.count(), "excluded body pairs")                                   \
  X(neq, m.equalities.count(), "equality constraints")                                     \
  X(ntendon, m.tendons.count(), "tendons")                                                 \
  X(nwrap, static_cast<int>(m.tendons.wrap_type.size()), "tendon path elements")           \
  X(nsensor, m.sensors.count(), "sensors")                                                 \
  X(nsensordata, m.sensors.data_size, "sensor values (sensordata)")                        \
  X(nkey, m.keyframes.count(), "keyframes")                                                \
  X(nmocap, m.nmocap, "mocap bodies")                                                      \
  X(nuser_body, m.nuser_body, "user data values per body")                                 \
  X(nuser_jnt, m.nuser_jnt, "user data values per joint")                                  \
  X(nuser_geom, m.nuser_geom, "user data values per geom")                                 \
  X(nuser_site, m.nuser_site, "user data values per site")                                 \
  X(nuser_cam, m.nuser_cam, "user data values per camera")                                 \
  X(nuser_tendon, m.nuser_tendon, "user data values per tendon")                           \
  X(nuser_actuator, m.nuser_actuator, "user data values per actuator")                     \
  X(nuser_sensor, m.nuser_sensor, "user data values per sensor")                           \
  X(nM, ::pliant::mass_matrix_size(m), "entries of the sparse mass matrix qM")

// Options and statistics: X(name, member, rows, columns, unit, doc).
#define PLIANT_MODEL_OPTIONS(X, OWN)                                                            \
  X(opt_timestep, options.timestep, 1, 1, "s", "time step")                                     \
  X(opt_impratio, options.impratio, 1, 1, "", "frictional-to-normal impedance ratio")           \
  X(opt_tolerance, options.tolerance, 1, 1, "", "solver tolerance")                             \
  X(opt_ls_tolerance, options.ls_tolerance, 1, 1, "", "line search tolerance")                  \
  X(opt_noslip_tolerance, options.noslip_tolerance, 1, 1, "", "noslip solver tolerance")        \
  X(opt_gravity, options.gravity, 1, 3, "m/s^2", "gravitational acceleration")                  \
  X(opt_wind, options.wind, 1, 3, "m/s", "velocity of the medium")                              \
  X(opt_magnetic, options.magnetic, 1, 3, "T", "global magnetic flux")                          \
  X(opt_density, options.density, 1, 1, "kg/m^3", "density of the medium")                      \
  X(opt_viscosity, options.viscosity, 1, 1, "Pa s", "viscosity of the medium")                  \
  X(opt_o_margin, options.o_margin, 1, 1, "m", "contact margin with the override flag")         \
  X(opt_o_solref, options.o_solref, 1, 2, "", "solref with the override flag")                  \
  X(opt_o_solimp, options.o_solimp, 1, 5, "", "solimp with the override flag")                  \
  X(opt_integrator, options.integrator, 1, 1, "", "mjtIntegrator")                              \
  X(opt_cone, options.cone, 1, 1, "", "mjtCone")                                                \
  X(opt_jacobian, options.jacobian, 1, 1, "", "mjtJacobian")                                    \
  X(opt_solver, options.solver, 1, 1, "", "mjtSolver")                                          \
  X(opt_iterations, options.iterations, 1, 1, "", "solver iteration limit")                     \
  X(opt_ls_iterations, options.ls_iterations, 1, 1, "", "line search evaluation limit")         \
  X(opt_noslip_iterations, options.noslip_iterations, 1, 1, "", "noslip iteration limit")       \
  X(opt_disableactuator, options.disableactuator, 1, 1, "", "bit g: actuator group g disabled") \
  OWN(opt_o_friction, options.o_friction, 1, 5, "", "friction with the override flag")          \
  OWN(opt_mpr_tolerance, options.mpr_tolerance, 1, 1, "", "MPR tolerance")                      \
  OWN(opt_mpr_iterations, options.mpr_iterations, 1, 1, "",                                     \
      "convex collision iteration limit (ccd_iterations)")                                      \
  OWN(opt_hessian_factor, options.hessian_factor, 1, 1, "",                                     \
      "Newton's sparse factor: 0 auto, 1 envelope, 2 tree blocks")                              \
  X(stat_meaninertia, stat.meaninertia, 1, 1, "kg m^2", "mean diagonal of M at qpos0")          \
  OWN(stat_meanmass, stat.meanmass, 1, 1, "kg", "mean body mass (Pliant's own estimate)")       \
  OWN(stat_meansize, stat.meansize, 1, 1, "m", "mean body size (Pliant's own estimate)")        \
  OWN(stat_extent, stat.extent, 1, 1, "m", "spatial extent (Pliant's own estimate)")            \
  OWN(stat_center, stat.center, 1, 3, "m", "centre of the model (Pliant's own estimate)")

// The arrays, entity by entity.
#define PLIANT_MODEL_FIELDS(X, OWN)                                                              \
  X(qpos0, qpos0, nq, 1, "m or rad", "reference configuration")                                  \
  X(qpos_spring, qpos_spring, nq, 1, "m or rad", "spring rest configuration")                    \
  X(body_parentid, bodies.parent, nbody, 1, "", "parent body (world: 0)")                        \
  X(body_rootid, bodies.root, nbody, 1, "", "top-level ancestor below the world")                \
  X(body_weldid, bodies.weld, nbody, 1, "", "nearest ancestor (or self) with joints")            \
  X(body_mocapid, bodies.mocap, nbody, 1, "", "mocap id, -1 if not mocap")                       \
  X(body_jntnum, bodies.joint_count, nbody, 1, "", "joints of the body")                         \
  X(body_jntadr, bodies.joint_adr, nbody, 1, "", "first joint of the body")                      \
  X(body_dofnum, bodies.dof_count, nbody, 1, "", "dofs of the body")                             \
  X(body_dofadr, bodies.dof_adr, nbody, 1, "", "first dof of the body")                          \
  X(body_geomnum, bodies.geom_count, nbody, 1, "", "geoms of the body")                          \
  X(body_geomadr, bodies.geom_adr, nbody, 1, "", "first geom of the body")                       \
  X(body_simple, bodies.simple, nbody, 1, "", "0 general, 1 diagonal inertia, 2 also simple")    \
  X(body_pos, bodies.pos, nbody, 3, "m", "position in the parent frame")                         \
  X(body_quat, bodies.quat, nbody, 4, "", "orientation in the parent frame")                     \
  X(body_ipos, bodies.ipos, nbody, 3, "m", "centre of mass in the body frame")                   \
  X(body_iquat, bodies.iquat, nbody, 4, "", "principal inertia axes in the body frame")          \
  X(body_mass, bodies.mass, nbody, 1, "kg", "mass")                                              \
  X(body_subtreemass, bodies.subtree_mass, nbody, 1, "kg", "mass of the subtree")                \
  X(body_inertia, bodies.inertia, nbody, 3, "kg m^2", "principal moments of inertia")            \
  X(body_invweight0, bodies.invweight0, nbody, 2, "1/kg, 1/(kg m^2)",                            \
    "mean inverse inertia at qpos0 (translation, rotation)")                                     \
  X(body_gravcomp, bodies.gravcomp, nbody, 1, "", "share of the weight cancelled")               \
  X(jnt_type, joints.type, njnt, 1, "", "mjtJoint")                                              \
  X(jnt_qposadr, joints.qpos_adr, njnt, 1, "", "first coordinate in qpos")                       \
  X(jnt_dofadr, joints.dof_adr, njnt, 1, "", "first dof")                                        \
  X(jnt_bodyid, joints.body, njnt, 1, "", "body of the joint")                                   \
  X(jnt_group, joints.group, njnt, 1, "", "group, for visibility")                               \
  X(jnt_limited, joints.limited, njnt, 1, "", "has a range")                                     \
  X(jnt_actfrclimited, joints.actfrc_limited, njnt, 1, "", "actuator force is clamped")          \
  X(jnt_actgravcomp, joints.actgravcomp, njnt, 1, "", "gravity compensation is actuation")       \
  X(jnt_solref, joints.solref, njnt, 2, "", "limit solref")                                      \
  X(jnt_solimp, joints.solimp, njnt, 5, "", "limit solimp")                                      \
  X(jnt_pos, joints.pos, njnt, 3, "m", "anchor in the body frame")                               \
  X(jnt_axis, joints.axis, njnt, 3, "", "axis in the body frame")                                \
  X(jnt_stiffness, joints.stiffness, njnt, 1, "N/m or N m/rad", "spring stiffness")              \
  X(jnt_range, joints.range, njnt, 2, "m or rad", "limits")                                      \
  X(jnt_actfrcrange, joints.actfrc_range, njnt, 2, "N or N m", "actuator force range")           \
  X(jnt_margin, joints.margin, njnt, 1, "m or rad", "limit margin")                              \
  OWN(jnt_springdamper, joints.springdamper, njnt, 2, "s, -",                                    \
      "time constant and damping ratio that set stiffness and damping")                          \
  X(dof_bodyid, dofs.body, nv, 1, "", "body of the dof")                                         \
  X(dof_jntid, dofs.joint, nv, 1, "", "joint of the dof")                                        \
  X(dof_parentid, dofs.parent, nv, 1, "", "parent dof, -1 at a root")                            \
  X(dof_Madr, dofs.madr, nv, 1, "", "first entry of the dof's row in qM")                        \
  OWN(M_dof, dofs.mass_column, nM, 1, "", "dof of each entry of qM: its row, then ancestors")    \
  X(dof_simplenum, dofs.simplenum, nv, 1, "",                                                    \
    "simple dofs from this one on (diagonal block of M)")                                        \
  X(dof_solref, dofs.solref, nv, 2, "", "friction loss solref")                                  \
  X(dof_solimp, dofs.solimp, nv, 5, "", "friction loss solimp")                                  \
  X(dof_frictionloss, dofs.frictionloss, nv, 1, "N or N m", "dry friction")                      \
  X(dof_armature, dofs.armature, nv, 1, "kg or kg m^2", "rotor inertia")                         \
  X(dof_damping, dofs.damping, nv, 1, "N s/m or N m s/rad", "viscous damping")                   \
  X(dof_invweight0, dofs.invweight0, nv, 1, "1/kg or 1/(kg m^2)", "inverse inertia at qpos0")    \
  X(geom_type, geoms.type, ngeom, 1, "", "mjtGeom")                                              \
  X(geom_contype, geoms.contype, ngeom, 1, "", "contact type bits")                              \
  X(geom_conaffinity, geoms.conaffinity, ngeom, 1, "", "contact affinity bits")                  \
  X(geom_condim, geoms.condim, ngeom, 1, "", "contact dimension: 1, 3, 4 or 6")                  \
  X(geom_bodyid, geoms.body, ngeom, 1, "", "body of the geom")                                   \
  X(geom_dataid, geoms.data_id, ngeom, 1, "", "mesh or height field id, -1 if none")             \
  X(geom_matid, geoms.material, ngeom, 1, "", "material id, -1 if none")                         \
  X(geom_group, geoms.group, ngeom, 1, "", "group, for visibility")                              \
  X(geom_priority, geoms.priority, ngeom, 1, "", "contact parameter priority")                   \
  OWN(geom_samebodyframe, geoms.same_frame_as_body, ngeom, 1, "",                                \
      "the geom's frame is its body's")                                                          \
  X(geom_solmix, geoms.solmix, ngeom, 1, "", "solref and solimp mixing weight")                  \
  X(geom_solref, geoms.solref, ngeom, 2, "", "contact solref")                                   \
  X(geom_solimp, geoms.solimp, ngeom, 5, "", "contact solimp")                                   \
  X(geom_size, geoms.size, ngeom, 3, "m", "type-specific sizes")                                 \
  X(geom_rbound, geoms.rbound, ngeom, 1, "m", "bounding sphere radius")                          \
  X(geom_pos, geoms.pos, ngeom, 3, "m", "position in the body frame")                            \
  X(geom_quat, geoms.quat, ngeom, 4, "", "orientation in the body frame")                        \
  X(geom_friction, geoms.friction, ngeom, 3, "", "sliding, torsional, rolling friction")         \
  X(geom_margin, geoms.margin, ngeom, 1, "m", "contact detection margin")                        \
  X(geom_gap, geoms.gap, ngeom, 1, "m", "contact gap")                                           \
  X(geom_rgba, geoms.rgba, ngeom, 4, "", "colour")                                               \
  X(geom_fluid, geoms.fluid, ngeom, 12, "",                                                      \
    "ellipsoid fluid model: interaction, 5 coefficients, virtual mass, virtual inertia")         \
  X(site_type, sites.type, nsite, 1, "", "mjtGeom of its shape")                                 \
  X(site_bodyid, sites.body, nsite, 1, "", "body of the site")                                   \
  X(site_matid, sites.material, nsite, 1, "", "material id, -1 if none")                         \
  X(site_group, sites.group, nsite, 1, "", "group, for visibility")                              \
  X(site_size, sites.size, nsite, 3, "m", "shape sizes")                                         \
  X(site_pos, sites.pos, nsite, 3, "m", "position in the body frame")                            \
  X(site_quat, sites.quat, nsite, 4, "", "orientation in the body frame")                        \
  X(site_rgba, sites.rgba, nsite, 4, "", "colour")                                               \
  X(cam_mode, cameras.mode, ncam, 1, "", "mjtCamLight")                                          \
  X(cam_bodyid, cameras.body, ncam, 1, "", "body of the camera")                                 \
  X(cam_targetbodyid, cameras.target_body, ncam, 1, "", "target body, -1 if none")               \
  X(cam_pos, cameras.pos, ncam, 3, "m", "position in the body frame")                            \
  X(cam_quat, cameras.quat, ncam, 4, "", "orientation in the body frame")                        \
  X(cam_fovy, cameras.fovy, ncam, 1, "deg", "vertical field of view")                            \
  X(cam_ipd, cameras.ipd, ncam, 1, "m", "inter-pupillary distance")                              \
  X(cam_orthographic, cameras.orthographic, ncam, 1, "", "orthographic projection")              \
  X(cam_resolution, cameras.resolution, ncam, 2, "pixels", "resolution")                         \
  X(cam_sensorsize, cameras.sensorsize, ncam, 2, "m", "sensor size")                             \
  X(cam_intrinsic, cameras.intrinsic, ncam, 4, "m", "focal length x, y; principal point x, y")   \
  X(cam_pos0, cameras.pos0, ncam, 3, "m", "world offset from the body at qpos0")                 \
  X(cam_poscom0, cameras.poscom0, ncam, 3, "m", "world offset from the subtree com at qpos0")    \
  X(cam_mat0, cameras.mat0, ncam, 9, "", "world orientation at qpos0")                           \
  X(light_mode, lights.mode, nlight, 1, "", "mjtCamLight")                                       \
  X(light_bodyid, lights.body, nlight, 1, "", "body of the light")                               \
  X(light_targetbodyid, lights.target_body, nlight, 1, "", "target body, -1 if none")            \
  X(light_type, lights.type, nlight, 1, "", "mjtLightType: 0 spot, 1 directional, 2 point")      \
  OWN(light_directional, lights.directional, nlight, 1, "", "directional light (type 1)")        \
  X(light_texid, lights.texture, nlight, 1, "", "texture id, -1 if none")                        \
  X(light_castshadow, lights.castshadow, nlight, 1, "", "casts shadows")                         \
  X(light_active, lights.active, nlight, 1, "", "is on")                                         \
  X(light_pos, lights.pos, nlight, 3, "m", "position in the body frame")                         \
  X(light_dir, lights.dir, nlight, 3, "", "direction in the body frame")                         \
  X(light_pos0, lights.pos0, nlight, 3, "m", "world offset from the body at qpos0")              \
  X(light_poscom0, lights.poscom0, nlight, 3, "m", "world offset from the subtree com at qpos0") \
  X(light_dir0, lights.dir0, nlight, 3, "", "world direction at qpos0")                          \
  X(light_attenuation, lights.attenuation, nlight, 3, "", "constant, linear, quadratic")         \
  X(light_cutoff, lights.cutoff, nlight, 1, "deg", "spot light cutoff")                          \
  X(light_exponent, lights.exponent, nlight, 1, "", "spot light exponent")                       \
  X(light_ambient, lights.ambient, nlight, 3, "", "ambient colour")                              \
  X(light_diffuse, lights.diffuse, nlight, 3, "", "diffuse colour")                              \
  X(light_specular, lights.specular, nlight, 3, "", "specular colour")                           \
  X(light_intensity, lights.intensity, nlight, 1, "", "intensity (physically based)")            \
  X(light_range, lights.range, nlight, 1, "m", "range (physically based)")                       \
  X(light_bulbradius, lights.bulbradius, nlight, 1, "m", "bulb radius (physically based)")       \
  X(mesh_vertadr, meshes.vert_adr, nmesh, 1, "", "first vertex in mesh_vert")                    \
  X(mesh_vertnum, meshes.vert_count, nmesh, 1, "", "vertices of the mesh")                       \
  X(mesh_faceadr, meshes.face_adr, nmesh, 1, "", "first face in mesh_face")                      \
  X(mesh_facenum, meshes.face_count, nmesh, 1, "", "faces of the mesh")                          \
  X(mesh_vert, meshes.vertices, nmeshvert, 3, "m", "vertices in the mesh's inertial frame")      \
  X(mesh_face, meshes.faces, nmeshface, 3, "", "vertex indices, local to the mesh")              \
  OWN(mesh_volume, meshes.volume, nmesh, 1, "m^3", "volume (area for shells)")                   \
  OWN(mesh_maxhullvert, meshes.maxhullvert, nmesh, 1, "", "hull vertex limit, -1 for none")      \
  OWN(mesh_hullvertadr, meshes.hull_vert_adr, nmesh, 1, "", "first hull vertex")                 \
  OWN(mesh_hullvertnum, meshes.hull_vert_count, nmesh, 1, "", "hull vertices of the mesh")       \
  OWN(mesh_hullvert, meshes.hull_vertices, nmeshhullvert, 3, "m", "hull vertices")               \
  OWN(mesh_hullnbradr, meshes.hull_neighbour_adr, nmeshhullvert, 1, "",                          \
      "first neighbour of each hull vertex")                                                     \
  OWN(mesh_hullnbrnum, meshes.hull_neighbour_count, nmeshhullvert, 1, "",                        \
      "neighbours of each hull vertex")                                                          \
  OWN(mesh_hullnbr, meshes.hull_neighbours, nmeshhullnbr, 1, "",                                 \
      "hull vertex neighbours, local to the hull")                                               \
  OWN(mesh_hullvertid, meshes.hull_vertex_id, nmeshhullvert, 1, "",                              \
      "each hull vertex's vertex in the mesh, local")                                            \
  X(mesh_polynum, meshes.poly_num, nmesh, 1, "", "polygons of the mesh")                         \
  X(mesh_polyadr, meshes.poly_adr, nmesh, 1, "", "first polygon of the mesh")                    \
  X(mesh_polynormal, meshes.poly_normal, nmeshpoly, 3, "", "outward unit normal, mesh frame")    \
  X(mesh_polyvertadr, meshes.poly_vert_adr, nmeshpoly, 1, "", "first corner in mesh_polyvert")   \
  X(mesh_polyvertnum, meshes.poly_vert_num, nmeshpoly, 1, "", "corners of the polygon")          \
  X(mesh_polyvert, meshes.poly_vert, nmeshpolyvert, 1, "", "corner vertices, local to the mesh") \
  X(mesh_polymapadr, meshes.polymap_adr, nmeshvert, 1, "", "first entry in mesh_polymap")        \
  X(mesh_polymapnum, meshes.polymap_num, nmeshvert, 1, "", "polygons through the vertex")        \
  X(mesh_polymap, meshes.polymap, nmeshpolymap, 1, "", "polygons, local to the mesh")            \
  OWN(mesh_sourcevert, meshes.source_vertices, nmeshvert, 3, "",                                 \
      "vertices as read, before scale, refpos and refquat")                                      \
  OWN(mesh_scale, meshes.scale, nmesh, 3, "", "scale applied to the source vertices")            \
  OWN(mesh_refpos, meshes.refpos, nmesh, 3, "", "reference position of the source")              \
  OWN(mesh_refquat, meshes.refquat, nmesh, 4, "", "reference orientation of the source")         \
  OWN(mesh_inertia, meshes.inertia, nmesh, 1, "", "0 legacy, 1 convex, 2 exact, 3 shell")        \
  OWN(mesh_framepos, meshes.frame_pos, nmesh, 3, "m", "principal frame in the source frame")     \
  OWN(mesh_framequat, meshes.frame_quat, nmesh, 4, "", "principal axes in the source frame")     \
  X(tex_type, textures.type, ntex, 1, "", "0 2d, 1 cube, 2 skybox")                              \
  OWN(tex_width, textures.width, ntex, 1, "pixels", "width of a builtin texture")                \
  OWN(tex_height, textures.height, ntex, 1, "pixels", "height of a builtin texture")             \
  OWN(tex_rgb1, textures.rgb1, ntex, 3, "", "first colour of a builtin texture")                 \
  OWN(tex_rgb2, textures.rgb2, ntex, 3, "", "second colour of a builtin texture")                \
  OWN(mat_texture, materials.texture, nmat, 1, "", "texture id, -1 if none")                     \
  X(mat_texuniform, materials.texuniform, nmat, 1, "", "texture repeats per unit length")        \
  X(mat_texrepeat, materials.texrepeat, nmat, 2, "", "texture repetitions")                      \
  X(mat_emission, materials.emission, nmat, 1, "", "emission")                                   \
  X(mat_specular, materials.specular, nmat, 1, "", "specularity")                                \
  X(mat_shininess, materials.shininess, nmat, 1, "", "shininess")                                \
  X(mat_reflectance, materials.reflectance, nmat, 1, "", "reflectance")                          \
  X(mat_metallic, materials.metallic, nmat, 1, "", "metallic, -1 if unset (PBR)")                \
  X(mat_roughness, materials.roughness, nmat, 1, "", "roughness, -1 if unset (PBR)")             \
  X(mat_rgba, materials.rgba, nmat, 4, "", "colour")                                             \
  X(hfield_size, hfields.size, nhfield, 4, "m", "half x, half y, top z, bottom depth")           \
  X(hfield_nrow, hfields.nrow, nhfield, 1, "", "rows of the grid")                               \
  X(hfield_ncol, hfields.ncol, nhfield, 1, "", "columns of the grid")                            \
  X(hfield_adr, hfields.adr, nhfield, 1, "", "first value in hfield_data")                       \
  X(hfield_data, hfields.data, nhfielddata, 1, "", "elevations in [0, 1], row-major")            \
  X(pair_dim, pairs.condim, npair, 1, "", "contact dimension")                                   \
  X(pair_geom1, pairs.geom1, npair, 1, "", "first geom")                                         \
  X(pair_geom2, pairs.geom2, npair, 1, "", "second geom")                                        \
  X(pair_solref, pairs.solref, npair, 2, "", "solref")                                           \
  X(pair_solreffriction, pairs.solreffriction, npair, 2, "", "solref of elliptic friction rows") \
  X(pair_solimp, pairs.solimp, npair, 5, "", "solimp")                                           \
  X(pair_margin, pairs.margin, npair, 1, "m", "detection margin")                                \
  X(pair_gap, pairs.gap, npair, 1, "m", "gap")                                                   \
  X(pair_friction, pairs.friction, npair, 5, "", "tangent 1, tangent 2, spin, roll 1, roll 2")   \
  OWN(exclude_body1, excludes.body1, nexclude, 1, "", "first body")                              \
  OWN(exclude_body2, excludes.body2, nexclude, 1, "", "second body")                             \
  X(eq_type, equalities.type, neq, 1, "", "mjtEq")                                               \
  X(eq_objtype, equalities.obj_type, neq, 1, "", "mjtObj of obj1id and obj2id")                  \
  X(eq_obj1id, equalities.obj1, neq, 1, "", "first object")                                      \
  X(eq_obj2id, equalities.obj2, neq, 1, "", "second object, -1 if none")                         \
  X(eq_active0, equalities.active, neq, 1, "", "active at the start")                            \
  X(eq_solref, equalities.solref, neq, 2, "", "solref")                                          \
  X(eq_solimp, equalities.solimp, neq, 5, "", "solimp")                                          \
  X(eq_data, equalities.data, neq, 11, "", "anchors, relative pose, torque scale or polynomial") \
  X(tendon_adr, tendons.wrap_adr, ntendon, 1, "", "first path element")                          \
  X(tendon_num, tendons.wrap_count, ntendon, 1, "", "path elements")                             \
  X(tendon_limited, tendons.limited, ntendon, 1, "", "has a length range")                       \
  X(tendon_solref_lim, tendons.solref_limit, ntendon, 2, "", "limit solref")                     \
  X(tendon_solimp_lim, tendons.solimp_limit, ntendon, 5, "", "limit solimp")                     \
  X(tendon_solref_fri, tendons.solref_friction, ntendon, 2, "", "friction loss solref")          \
  X(tendon_solimp_fri, tendons.solimp_friction, ntendon, 5, "", "friction loss solimp")          \
  X(tendon_range, tendons.range, ntendon, 2, "m", "length limits")                               \
  X(tendon_actfrclimited, tendons.actfrc_limited, ntendon, 1, "", "actuator force is scaled")    \
  X(tendon_actfrcrange, tendons.actfrc_range, ntendon, 2, "N", "actuator force range")           \
  X(tendon_margin, tendons.margin, ntendon, 1, "m", "limit margin")                              \
  X(tendon_stiffness, tendons.stiffness, ntendon, 1, "N/m", "spring stiffness")                  \
  X(tendon_damping, tendons.damping, ntendon, 1, "N s/m", "damping")                             \
  X(tendon_frictionloss, tendons.frictionloss, ntendon, 1, "N", "dry friction")                  \
  X(tendon_armature, tendons.armature, ntendon, 1, "kg", "inertia of length changes")            \
  X(tendon_lengthspring, tendons.length_spring, ntendon, 2, "m", "spring rest dead band")        \
  X(tendon_length0, tendons.length0, ntendon, 1, "m", "length at qpos0")                         \
  X(tendon_invweight0, tendons.invweight0, ntendon, 1, "1/kg", "inverse weight at qpos0")        \
  X(tendon_width, tendons.width, ntendon, 1, "m", "drawn width")                                 \
  X(tendon_rgba, tendons.rgba, ntendon, 4, "", "colour")                                         \
  X(wrap_type, tendons.wrap_type, nwrap, 1, "", "mjtWrap")                                       \
  X(wrap_objid, tendons.wrap_obj, nwrap, 1, "", "joint, site or geom id; -1 for pulleys")        \
  X(wrap_prm, tendons.wrap_prm, nwrap, 1, "", "joint coefficient, pulley divisor or side site")  \
  X(actuator_trntype, actuators.trn_type, nu, 1, "", "mjtTrn")                                   \
  X(actuator_dyntype, actuators.dyn_type, nu, 1, "", "mjtDyn")                                   \
  X(actuator_gaintype, actuators.gain_type, nu, 1, "", "mjtGain")                                \
  X(actuator_biastype, actuators.bias_type, nu, 1, "", "mjtBias")                                \
  X(actuator_trnid, actuators.trn_id, nu, 2, "", "transmission target ids")                      \
  X(actuator_actadr, actuators.act_adr, nu, 1, "", "first activation in act, -1 if none")        \
  X(actuator_actnum, actuators.act_num, nu, 1, "", "activations")                                \
  X(actuator_group, actuators.group, nu, 1, "", "group, for visibility and disabling")           \
  X(actuator_ctrllimited, actuators.ctrl_limited, nu, 1, "", "ctrl is clamped")                  \
  X(actuator_forcelimited, actuators.force_limited, nu, 1, "", "force is clamped")               \
  X(actuator_actlimited, actuators.act_limited, nu, 1, "", "activation is clamped")              \
  X(actuator_actearly, actuators.actearly, nu, 1, "", "force uses the next activation")          \
  X(actuator_dynprm, actuators.dynprm, nu, 10, "", "dynamics parameters")                        \
  X(actuator_gainprm, actuators.gainprm, nu, 10, "", "gain parameters")                          \
  X(actuator_biasprm, actuators.biasprm, nu, 10, "", "bias parameters")                          \
  X(actuator_ctrlrange, actuators.ctrl_range, nu, 2, "", "ctrl range")                           \
  X(actuator_forcerange, actuators.force_range, nu, 2, "N or N m", "force range")                \
  X(actuator_actrange, actuators.act_range, nu, 2, "", "activation range")                       \
  X(actuator_gear, actuators.gear, nu, 6, "", "transmission gear")                               \
  X(actuator_cranklength, actuators.crank_length, nu, 1, "m", "slider-crank rod length")         \
  X(actuator_acc0, actuators.acc0, nu, 1, "1/kg or 1/(kg m^2)",                                  \
    "acceleration from a unit force at qpos0")                                                   \
  X(actuator_length0, actuators.length0, nu, 1, "m or rad", "length at qpos0")                   \
  X(actuator_lengthrange, actuators.length_range, nu, 2, "m or rad", "feasible length range")    \
  X(sensor_type, sensors.type, nsensor, 1, "", "mjtSensor")                                      \
  X(sensor_datatype, sensors.datatype, nsensor, 1, "", "mjtDataType")                            \
  X(sensor_needstage, sensors.stage, nsensor, 1, "", "mjtStage it needs")                        \
  X(sensor_objtype, sensors.obj_type, nsensor, 1, "", "mjtObj of the object")                    \
  X(sensor_objid, sensors.obj_id, nsensor, 1, "", "object id")                                   \
  X(sensor_reftype, sensors.ref_type, nsensor, 1, "", "mjtObj of the reference")                 \
  X(sensor_refid, sensors.ref_id, nsensor, 1, "", "reference id, -1 if none")                    \
  X(sensor_dim, sensors.dim, nsensor, 1, "", "values")                                           \
  X(sensor_adr, sensors.adr, nsensor, 1, "", "first value in sensordata")                        \
  X(sensor_intprm, sensors.intprm, nsensor, 3, "", "contact: data bits, reduction, slots")       \
  X(sensor_cutoff, sensors.cutoff, nsensor, 1, "", "clip bound, 0 for none")                     \
  X(sensor_noise, sensors.noise, nsensor, 1, "", "noise standard deviation (not applied)")       \
  X(key_time, keyframes.time, nkey, 1, "s", "time")                                              \
  X(key_qpos, keyframes.qpos, nkey, nq, "m or rad", "positions")                                 \
  X(key_qvel, keyframes.qvel, nkey, nv, "m/s or rad/s", "velocities")                            \
  X(key_act, keyframes.act, nkey, na, "", "activations")                                         \
  X(key_ctrl, keyframes.ctrl, nkey, nu, "", "controls")                                          \
  X(key_mpos, keyframes.mocap_pos, nkey, 3 * nmocap, "m", "mocap positions")                     \
  X(key_mquat, keyframes.mocap_quat, nkey, 4 * nmocap, "", "mocap orientations")                 \
  X(body_user, bodies.user, nbody, nuser_body, "", "user data")                                  \
  X(jnt_user, joints.user, njnt, nuser_jnt, "", "user data")                                     \
  X(geom_user, geoms.user, ngeom, nuser_geom, "", "user data")                                   \
  X(site_user, sites.user, nsite, nuser_site, "", "user data")                                   \
  X(cam_user, cameras.user, ncam, nuser_cam, "", "user data")                                    \
  X(tendon_user, tendons.user, ntendon, nuser_tendon, "", "user data")                           \
  X(actuator_user, actuators.user, nu, nuser_actuator, "", "user data")                          \
  X(sensor_user, sensors.user, nsensor, nuser_sensor, "", "user data")

namespace pliant {

// The sizes of a model (PLIANT_MODEL_SIZES). A Data remembers the sizes of
// the model it was made for; step() and forward() refuse another.
struct ModelSizes {
#define PLIANT_DECLARE_SIZE(name, expression, doc) int name = 0;
  PLIANT_MODEL_SIZES(PLIANT_DECLARE_SIZE, PLIANT_DECLARE_SIZE)
#undef PLIANT_DECLARE_SIZE
  ModelSizes() = default;
  explicit ModelSizes(const Model& model);
  bool operator==(const ModelSizes&) const = default;
  // The first size that differs from `other`'s, as "nv 12 against 13 (degrees
  // of freedom (qvel))"; "" if none.
  std::string difference(const ModelSizes& other) const;
};

// What the table says of one field.
struct FieldInfo {
  const char* name;
  const char* rows;     // the size expression, as written in the table
  const char* columns;  // the same
  const char* unit;
  const char* doc;
  bool integer;  // ids, counts, codes and flags
  bool mujoco;   // MuJoCo has the field under this name, with this layout
};

// The shape a field has in one model: rows x columns values.
struct FieldShape {
  int rows = 0, columns = 0;
  long count() const { return static_cast<long>(rows) * columns; }
};

// A size of the table and its value for a model.
struct SizeInfo {
  const char* name;
  const char* doc;
  bool mujoco;  // MuJoCo has this size
};
std::span<const SizeInfo> model_size_infos();
int model_size(const ModelSizes& sizes, int index);

// Options and statistics (PLIANT_MODEL_OPTIONS) and arrays (PLIANT_MODEL_FIELDS).
std::span<const FieldInfo> model_option_infos();
std::span<const FieldInfo> model_field_infos();

// Index of the named array (or option, with the second), -1 when none.
int find_model_field(const std::string& name);
int find_model_option(const std::string& name);

// Shape of array `index` as the table gives it for these sizes.
FieldShape model_field_shape(const ModelSizes& sizes, int index);
FieldShape model_option_shape(int index);

// The values of array `index`, row by row in MuJoCo's layout.
std::vector<double> read_model_field(const Model& model, int index);
std::vector<double> read_model_option(const Model& model, int index);
// Writes array `index` from `count` values in that layout. Throws
// std::invalid_argument, changing nothing, when count is not the field's
// rows x columns. Derived constants are not recomputed.
void write_model_field(Model& model, int index, const double* values, long count);
void write_model_option(Model& model, int index, const double* values, long count);

// Every array's length against its rows x columns: "" when all agree, else
// the first that does not, as "body_mass holds 3 values, the table says nbody
// x 1 = 4".
std::string check_model_field_sizes(const Model& model);

}  // namespace pliant
