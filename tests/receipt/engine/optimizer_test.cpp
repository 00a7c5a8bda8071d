// Optimizer update formulas against values worked by hand (all exactly representable).
#include <doctest/doctest.h>

#include <cmath>

#include "receipt/engine/optimizer.hpp"

using namespace receipt::engine;

TEST_CASE("optimizer: plain sgd adds lr * gradient") {
  const auto u = apply_optimizer(nullptr, 0.5, 1.0, 0.25, {});
  CHECK(u.update == 0.125);
  CHECK(u.weight_after == 1.125);
}

TEST_CASE("optimizer: sgd with coupled L2 folds -wd*w into the gradient") {
  OptimizerConfig c{.name = OptimizerName::sgd, .learning_rate = 0.5, .weight_decay = 0.25};
  const auto u = apply_optimizer(&c, 0.5, 2.0, 1.0, {});  // g' = 1 - 0.25*2 = 0.5
  CHECK(u.update == 0.25);
  CHECK(u.weight_after == 2.25);
}

TEST_CASE("optimizer: sgd momentum, dampening and nesterov") {
  OptimizerConfig c{.name = OptimizerName::sgd_momentum, .learning_rate = 0.5, .momentum = 0.5};
  OptimizerState s;
  s.buffer = 1.0;
  auto u = apply_optimizer(&c, 0.5, 0.0, 2.0, s);  // b = 0.5*1 + 2 = 2.5
  CHECK(u.state_after.buffer == 2.5);
  CHECK(u.update == 1.25);
  c.dampening = 0.75;  // b = 0.5*1 + 0.25*2 = 1
  u = apply_optimizer(&c, 0.5, 0.0, 2.0, s);
  CHECK(u.state_after.buffer == 1.0);
  CHECK(u.update == 0.5);
  c.dampening.reset();
  c.nesterov = true;  // b = 2.5; effective = 2 + 0.5*2.5 = 3.25
  u = apply_optimizer(&c, 0.5, 0.0, 2.0, s);
  CHECK(u.state_after.buffer == 2.5);
  CHECK(u.update == 1.625);
  c.weight_decay = 0.5;  // g' = 2 - 0.5*4 = 0; b = 0.5; effective = 0 + 0.25
  u = apply_optimizer(&c, 0.5, 4.0, 2.0, s);
  CHECK(u.state_after.buffer == 0.5);
  CHECK(u.weight_after == 4.125);
}

TEST_CASE("optimizer: adam and adamw at t = 1 and t = 2") {
  OptimizerConfig c{.name = OptimizerName::adam, .learning_rate = 0.5, .beta1 = 0.5, .beta2 = 0.75, .epsilon = 0.5, .t = 1};
  // m = 0.5*g = 1, v = 0.25*g^2 = 1; m_hat = 2, v_hat = 4; update = 0.5*2 / (2 + 0.5) = 0.4
  auto u = apply_optimizer(&c, 0.5, 1.0, 2.0, {});
  CHECK(u.state_after.m == 1.0);
  CHECK(u.state_after.v == 1.0);
  CHECK(u.update == doctest::Approx(0.4).epsilon(1e-15));
  CHECK(u.weight_after == doctest::Approx(1.4).epsilon(1e-15));
  c.t = 2;  // m_hat = 1/(1-0.25) = 4/3, v_hat = 1/(1-0.5625) = 16/7
  u = apply_optimizer(&c, 0.5, 1.0, 2.0, {});
  CHECK(u.update == doctest::Approx(0.5 * (4.0 / 3.0) / (std::sqrt(16.0 / 7.0) + 0.5)).epsilon(1e-15));
  c.name = OptimizerName::adamw;
  c.weight_decay = 0.5;
  c.t = 1;  // w' = (1 - 0.25) * 1 + 0.4
  u = apply_optimizer(&c, 0.5, 1.0, 2.0, {});
  CHECK(u.weight_after == doctest::Approx(1.15).epsilon(1e-15));
}

TEST_CASE("optimizer: configuration checks name the field") {
  OptimizerConfig c{.name = OptimizerName::sgd_momentum, .learning_rate = 0.5, .momentum = 1.0};
  auto s = check_optimizer_config(c, 0.5);
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().where().json_path == "/optimizer_config/momentum");
  c.momentum = 0.9;
  c.nesterov = true;
  c.dampening = 0.1;
  s = check_optimizer_config(c, 0.5);
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().where().json_path == "/optimizer_config/dampening");
  c.dampening.reset();
  CHECK(check_optimizer_config(c, 0.5).ok());
  CHECK_FALSE(check_optimizer_config(c, 0.25).ok());  // learning rates disagree
  OptimizerConfig a{.name = OptimizerName::adamw, .learning_rate = 0.1, .beta1 = 0.9, .beta2 = 0.999, .epsilon = 1e-8, .t = 1};
  s = check_optimizer_config(a, 0.1);
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().where().json_path == "/optimizer_config/weight_decay");
}

TEST_CASE("optimizer: adam's bias correction uses V8's pow") {
  // Node: Math.pow(0.94138404079675675, 3) = 0x1.ab23e4b5c6ba8p-1 (glibc differs by one ulp).
  const double b1 = 0.94138404079675675;
  OptimizerConfig c{.name = OptimizerName::adam, .learning_rate = 1.0, .beta1 = b1, .beta2 = 0.5, .epsilon = 1.0, .t = 3};
  const auto u = apply_optimizer(&c, 1.0, 0.0, 0.0, OptimizerState{.m = 1.0, .v = 0.0});
  CHECK(u.update == (b1 * 1.0 + (1.0 - b1) * 0.0) / (1.0 - 0x1.ab23e4b5c6ba8p-1) / (0.0 + 1.0));
}
