/**
 * Getafix's placement, as the Coordinator extension and the simulator run it: {@link
 * org.getafix.core.placement.PlanningRound}, one planning round, which keeps what spans rounds (popularity, capacity
 * estimates), feeds the strategy its registry entry names, and returns the plan with its load shares and tiers. It
 * reads every subpackage and none reads it:
 * <ul>
 *   <li>{@code plan}: what a plan is made from and of (input, constraints, the plan, what it could not place);</li>
 *   <li>{@code popularity}: a segment's round, its popularity across rounds, and the load signals;</li>
 *   <li>{@code capacity}: a node's round, its measured statistics and the capacity estimators;</li>
 *   <li>{@code tiering}: HOT / WARM / COLD and how well they match the hardware;</li>
 *   <li>{@code packing}: the strategies and the algorithms they are made of, on working arrays that stay
 *   inside it;</li>
 *   <li>{@code strategy}: the strategies by name, each with its traits and settings.</li>
 * </ul>
 */
package org.getafix.core.placement;
