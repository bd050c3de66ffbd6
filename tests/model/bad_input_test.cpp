#include <gtest/gtest.h>

#include "model/loader.h"

namespace pliant {
namespace {

TEST(BadInput, UnknownAttributeNamesTheAcceptedOnes) {
  try {
    load_model_from_string("<mujoco>\n<worldbody>\n<geom size=\"1\" colour=\"red\"/>\n"
                           "</worldbody></mujoco>");
    FAIL() << "expected LoadError";
  } catch (const LoadError& e) {
    EXPECT_EQ(e.line(), 3);
    EXPECT_NE(e.message().find("unknown attribute 'colour'"), std::string::npos) << e.what();
    EXPECT_NE(e.message().find("accepted:"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace pliant
