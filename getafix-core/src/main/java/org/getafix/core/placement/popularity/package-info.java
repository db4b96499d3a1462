/**
 * Segment demand: a segment's measured round ({@link org.getafix.core.placement.popularity.SegmentSample}), its
 * popularity across rounds ({@link org.getafix.core.placement.popularity.PopularityTracker}), and the
 * {@link org.getafix.core.placement.popularity.LoadSignal} that makes a segment's load for a strategy.
 */
package org.getafix.core.placement.popularity;
