/**
 * The placement strategies by name ({@link org.getafix.core.placement.strategy.PlacementStrategies}): each declared
 * once, with what a planning round must feed it (load signal, estimated or uniform capacities) and how the extension
 * realises it.
 */
package org.getafix.core.placement.strategy;
