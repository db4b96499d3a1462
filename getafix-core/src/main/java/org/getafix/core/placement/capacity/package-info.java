/**
 * Node capacity: a node's round ({@link org.getafix.core.placement.capacity.NodeSample}), the conversion of Druid's
 * counters into statistics ({@link org.getafix.core.placement.capacity.MeasuredRound},
 * {@link org.getafix.core.placement.capacity.NodeRoundStats}), and the estimators by name
 * ({@link org.getafix.core.placement.capacity.CapacityEstimators}).
 */
package org.getafix.core.placement.capacity;
