/**
 * The placement strategies and the algorithms they are made of: capacity-aware ModifiedBestFit, the replica floor, the
 * segment balancer, Scarlett's round-robin dealing. The algorithms work on a {@code PlacementProblem} (the input as int
 * indices and primitive arrays) and mutate an {@code Assignment} (the plan under construction), which never leave this
 * package. Public: {@link org.getafix.core.placement.packing.PlacementStrategy}, its implementations
 * {@link org.getafix.core.placement.packing.GetafixStrategy},
 * {@link org.getafix.core.placement.packing.ScarlettStrategy} and
 * {@link org.getafix.core.placement.packing.DruidDefaultStrategy}, and
 * {@link org.getafix.core.placement.packing.SplitPolicy}.
 */
package org.getafix.core.placement.packing;
