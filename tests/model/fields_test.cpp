// The field tables: every array of Model and Data has the size its table
// line gives, reads and writes in MuJoCo's layout, and refuses a wrong size.

#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "pliant/data_fields.h"
#include "pliant/forward.h"
#include "pliant/load.h"
#include "pliant/model_fields.h"
#include "pliant/step.h"

namespace pliant {
namespace {

std::vector<std::string> table_models() {
  std::vector<std::string> out;
  for (const char* folder : {PLIANT_SCENES, PLIANT_TEST_MODELS "/dm_control"}) {
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
      if (entry.path().extension() == ".xml") out.push_back(entry.path().string());
    }
  }
  out.push_back(PLIANT_TEST_MODELS "/menagerie/robotiq_2f85/scene.xml");
  return out;
}

TEST(ModelFields, EveryArrayHasItsTableSize) {
  int checked = 0;
  for (const std::string& path : table_models()) {
    Model m;
    try {
      m = load_model(path);
    } catch (const LoadError&) {
      continue;  // scenes that need the extended corpus
    }
    EXPECT_EQ(check_model_field_sizes(m), "") << path;
    ++checked;
  }
  EXPECT_GT(checked, 20);
}

TEST(ModelFields, SizeCheckNamesAnArrayOfTheWrongLength) {
  Model m = load_model(PLIANT_SCENES "/sensors.xml");
  m.bodies.mass.pop_back();
  EXPECT_NE(check_model_field_sizes(m).find("body_mass holds"), std::string::npos);
  Model k = load_model(PLIANT_TEST_DATA "/sensors/every_sensor.xml");
  ASSERT_GT(k.keyframes.count(), 0);
  k.keyframes.qvel[0].push_back(0);
  EXPECT_NE(check_model_field_sizes(k).find("key_qvel"), std::string::npos);
}

TEST(ModelFields, NamesAreUnique) {
  std::set<std::string> names;
  for (const SizeInfo& s : model_size_infos()) EXPECT_TRUE(names.insert(s.name).second) << s.name;
  for (const FieldInfo& f : model_option_infos())
    EXPECT_TRUE(names.insert(f.name).second) << f.name;
  for (const FieldInfo& f : model_field_infos()) EXPECT_TRUE(names.insert(f.name).second) << f.name;
  std::set<std::string> data_names;
  for (const SizeInfo& s : data_size_infos()) EXPECT_TRUE(data_names.insert(s.name).second);
  for (const FieldInfo& f : data_field_infos()) {
    EXPECT_TRUE(data_names.insert(f.name).second) << f.name;
  }
  EXPECT_GE(model_field_infos().size(), 200u);
  EXPECT_GE(data_field_infos().size(), 60u);
}

TEST(ModelFields, ReadsAndWritesInMuJoCosLayout) {
  Model m = load_model(PLIANT_TEST_MODELS "/dm_control/humanoid.xml");
  const int quat = find_model_field("body_quat");
  ASSERT_GE(quat, 0);
  m.bodies.quat[1] = Quaterniond(0.5, 0.1, 0.2, 0.3);
  const std::vector<double> values = read_model_field(m, quat);
  EXPECT_EQ(values[4], 0.5);  // w first
  EXPECT_EQ(values[7], 0.3);
  const int solimp = find_model_field("geom_solimp");
  std::vector<double> s = read_model_field(m, solimp);
  s[5 + 2] = 0.0125;  // geom 1's width
  write_model_field(m, solimp, s.data(), static_cast<long>(s.size()));
  EXPECT_EQ(m.geoms.solimp[1].width, 0.0125);
  const int type = find_model_field("jnt_type");
  std::vector<double> t = read_model_field(m, type);
  EXPECT_EQ(t[0], 0);  // the root is free: mjJNT_FREE
  // Every field reads back what it wrote.
  for (int f = 0; f < static_cast<int>(model_field_infos().size()); ++f) {
    const std::vector<double> before = read_model_field(m, f);
    write_model_field(m, f, before.data(), static_cast<long>(before.size()));
    EXPECT_EQ(read_model_field(m, f), before) << model_field_infos()[f].name;
  }
}

TEST(ModelFields, WrongSizeIsRefusedAndChangesNothing) {
  Model m = load_model(PLIANT_TEST_MODELS "/dm_control/cartpole.xml");
  const int mass = find_model_field("body_mass");
  const std::vector<double> before = read_model_field(m, mass);
  const std::vector<double> short_values(before.size() - 1, 7.0);
  try {
    write_model_field(m, mass, short_values.data(), static_cast<long>(short_values.size()));
    FAIL() << "a short write was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("body_mass takes"), std::string::npos) << e.what();
  }
  EXPECT_EQ(read_model_field(m, mass), before);
  EXPECT_EQ(find_model_field("body_masses"), -1);
  EXPECT_THROW(read_model_field(m, -1), std::out_of_range);
}

TEST(ModelFields, OptionsReadAndWrite) {
  Model m = load_model(PLIANT_TEST_MODELS "/dm_control/cartpole.xml");
  const int timestep = find_model_option("opt_timestep");
  ASSERT_GE(timestep, 0);
  EXPECT_EQ(read_model_option(m, timestep), std::vector<double>{m.options.timestep});
  const double gravity[3] = {0, 0, -1.62};
  write_model_option(m, find_model_option("opt_gravity"), gravity, 3);
  EXPECT_EQ(m.options.gravity.z(), -1.62);
  EXPECT_THROW(write_model_option(m, timestep, gravity, 3), std::invalid_argument);
}

// Every Data array holds rows x columns values, after construction and
// after steps that make contacts and constraint rows.
void expect_table_sizes(const Data& d, const char* when) {
  const auto infos = data_field_infos();
  for (int f = 0; f < static_cast<int>(infos.size()); ++f) {
    EXPECT_EQ(static_cast<long>(read_data_field(d, f).size()), data_field_shape(d, f).count())
        << infos[f].name << " " << when;
  }
}

TEST(DataFields, EveryArrayHasItsTableSize) {
  for (const char* path : {PLIANT_SCENES "/box_pyramid.xml", PLIANT_SCENES "/sensors.xml",
                           PLIANT_TEST_MODELS "/dm_control/humanoid.xml"}) {
    const Model m = load_model(path);
    Data d(m);
    expect_table_sizes(d, "after construction");
    for (int i = 0; i < 50; ++i) step(m, d);
    EXPECT_GT(d.efc.count(), 0) << path;
    expect_table_sizes(d, "after 50 steps");
  }
}

TEST(DataFields, ViewsHoldTheValuesAsRead) {
  const Model m = load_model(PLIANT_SCENES "/box_pyramid.xml");
  Data d(m);
  for (int i = 0; i < 20; ++i) step(m, d);
  const auto infos = data_field_infos();
  int views = 0;
  for (int f = 0; f < static_cast<int>(infos.size()); ++f) {
    const double* values = data_field_values(d, f);
    if (values == nullptr) continue;
    const std::vector<double> read = read_data_field(d, f);
    EXPECT_TRUE(std::equal(read.begin(), read.end(), values)) << infos[f].name;
    ++views;
  }
  EXPECT_GT(views, 30);
  // Quaternions and matrices are not stored in MuJoCo's layout: no view.
  EXPECT_EQ(data_field_values(d, find_data_field("xquat")), nullptr);
  EXPECT_EQ(data_field_values(d, find_data_field("xmat")), nullptr);
  const std::vector<double> xmat = read_data_field(d, find_data_field("xmat"));
  EXPECT_EQ(xmat[9 + 1], d.xmat[1](0, 1));  // row by row
  const std::vector<double> xquat = read_data_field(d, find_data_field("xquat"));
  EXPECT_EQ(xquat[4], d.xquat[1].w());
}

TEST(DataFields, WriteTakesEffectAndWrongSizeChangesNothing) {
  const Model m = load_model(PLIANT_TEST_MODELS "/dm_control/cartpole.xml");
  Data d(m);
  const int qvel = find_data_field("qvel");
  const std::vector<double> v(m.nv, 0.5);
  write_data_field(d, qvel, v.data(), m.nv);
  EXPECT_EQ(d.qvel[0], 0.5);
  EXPECT_THROW(write_data_field(d, qvel, v.data(), m.nv - 1), std::invalid_argument);
  EXPECT_EQ(d.qvel[m.nv - 1], 0.5);
  EXPECT_EQ(find_data_field("no_such_field"), -1);
}

}  // namespace
}  // namespace pliant
