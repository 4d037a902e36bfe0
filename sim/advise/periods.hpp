/* Checkpoint periods from the analytic models (issue 33; docs/MODEL.md will say how `ckptsim
 * advise` uses them): Young's and Daly's period for one level of checkpoints, Daly's complete
 * model of the expected makespan, and the first-order plan of Benoit, Cavelan, Le Fevre, Robert
 * and Sun for several levels ("Towards optimal multi-level checkpointing", IEEE TC 66(7), 2017).
 * Pure functions of durations in seconds and rates per second; no simulation. */
#pragma once

#include <vector>

namespace ckptsim::advise {

/** @brief Young (1974): sqrt(2 C M), the period (computation between two checkpoints) that
 *  minimises the first-order waste for a checkpoint cost @p cost and an MTBF @p mtbf. */
double young_period(double cost, double mtbf);

/** @brief Daly (2006, FGCS 22(3)): sqrt(2 C M) [1 + sqrt(C / 2M) / 3 + (C / 2M) / 9] - C when
 *  C < 2M, else M: the higher-order optimum of the complete model below. */
double daly_period(double cost, double mtbf);

/** @brief Daly's complete model of the expected wall time of @p work seconds of computation
 *  checkpointed every @p period seconds of computation at cost @p cost, with a restart (or
 *  recovery) cost @p restart and exponential failures of mean @p mtbf:
 *  M e^(R/M) (e^((tau + C)/M) - 1) Ts / tau. */
double daly_makespan(double work, double period, double cost, double restart, double mtbf);

/** @brief One level of a multi-level plan: what a checkpoint of it costs, and the rate of the
 *  failures it is the cheapest level to recover from (failures per second). */
struct Level {
  double cost = 0;
  double rate = 0;
};

/** @brief The first-order plan: each level's period (computation between two checkpoints of
 *  that level or a deeper one) sqrt(2 C_l / lambda_l), how many checkpoints of the level above
 *  make one of this level (every[l] = round(period[l] / period[l - 1]), at least 1; every[0] = 1),
 *  the periods the rounded plan gives, and the expected overhead sum_l sqrt(2 lambda_l C_l) (a
 *  fraction of the computation). Two levels: every[1] = sqrt(C_2 lambda_1 / (C_1 lambda_2)). A
 *  level with no failure of its own (rate 0) is never needed: its period is infinite. */
struct LevelPlan {
  std::vector<double> periods;  // unrounded first-order optimum, per level
  std::vector<int> every;       // level l on every every[l]-th checkpoint of level l - 1
  std::vector<double> schedule; // the periods of the rounded plan: periods[0] times the products
  double overhead = 0;
};
LevelPlan first_order_plan(const std::vector<Level>& levels);

} // namespace ckptsim::advise
