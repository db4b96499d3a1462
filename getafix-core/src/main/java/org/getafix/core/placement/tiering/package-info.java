/**
 * Tiers: HOT / WARM / COLD ({@link org.getafix.core.placement.tiering.Tier}), the grouping of nodes by load
 * ({@link org.getafix.core.placement.tiering.TierClassifier}) and its accuracy against the hardware
 * ({@link org.getafix.core.placement.tiering.TieringAccuracy}).
 */
package org.getafix.core.placement.tiering;
