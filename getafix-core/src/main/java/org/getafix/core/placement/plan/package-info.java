/**
 * What a plan is made from and of: {@link org.getafix.core.placement.plan.PlacementInput} (segments with their load
 * and size, nodes with their capacity and memory, {@link org.getafix.core.placement.plan.PlacementConstraints}, the
 * current holders and shares) and {@link org.getafix.core.placement.plan.PlacementPlan} with its
 * {@link org.getafix.core.placement.plan.UnplacedSegment}s. Immutable values; it reads no other placement package.
 * {@code PlanShares}, {@code PlacementInput.CurrentHolders} and {@code Validation} are public only because the other
 * placement packages read them.
 */
package org.getafix.core.placement.plan;
