#include "engine/parameter_warnings.h"

#include <gtest/gtest.h>

#include "pliant/forward.h"
#include "pliant/load.h"
#include "pliant/step.h"

namespace pliant {
namespace {

TEST(ParameterWarnings, NameTheObjectAndBothValuesOncePerModel) {
  const Model m = load_model_from_string(R"(
    <mujoco><option timestep="0.002"/><worldbody>
      <geom name="floor" type="plane" size="1 1 1" solref="0.001 1"/>
      <body name="b"><joint name="j" type="slide" limited="true" range="-1 1"
          solreflimit="-100 5" solimplimit="0.9 1.5 0.001 0.5 2"/>
        <geom name="ball" size="0.1"/></body>
    </worldbody></mujoco>)");
  ASSERT_EQ(m.parameter_warnings.size(), 3u);
  const ParameterWarning& refsafe = m.parameter_warnings[0];
  EXPECT_EQ(refsafe.kind, ParameterWarning::Kind::kRefsafeClamp);
  EXPECT_EQ(refsafe.object, ObjectType::kGeom);
  EXPECT_EQ(refsafe.given, "0.001 1");
  EXPECT_EQ(refsafe.used, "0.004 1");
  EXPECT_NE(refsafe.message.find("geom 'floor'"), std::string::npos) << refsafe.message;
  EXPECT_EQ(m.parameter_warnings[1].kind, ParameterWarning::Kind::kSolrefReplaced);
  EXPECT_NE(m.parameter_warnings[1].message.find("joint 'j'"), std::string::npos);
  EXPECT_EQ(m.parameter_warnings[1].used, "0.02 1");
  EXPECT_EQ(m.parameter_warnings[2].kind, ParameterWarning::Kind::kSolimpClamped);
  EXPECT_EQ(m.parameter_warnings[2].used, "0.9 0.9999 0.001 0.5 2");
  // Stepping does not repeat them.
  Data d(m);
  for (int i = 0; i < 10; ++i) step(m, d);
  EXPECT_EQ(m.parameter_warnings.size(), 3u);
}

TEST(ParameterWarnings, NoneWhenRefsafeIsOffOrValuesAreFine) {
  const Model off = load_model_from_string(R"(
    <mujoco><option><flag refsafe="disable"/></option><worldbody>
      <geom type="plane" size="1 1 1" solref="0.001 1"/>
    </worldbody></mujoco>)");
  EXPECT_TRUE(off.parameter_warnings.empty());
  const Model fine = load_model_from_string(R"(
    <mujoco><worldbody><geom type="plane" size="1 1 1"/></worldbody></mujoco>)");
  EXPECT_TRUE(fine.parameter_warnings.empty());
}

}  // namespace
}  // namespace pliant
