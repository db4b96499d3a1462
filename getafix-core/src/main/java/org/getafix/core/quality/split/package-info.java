/**
 * How a budget is split among pending queries (budget-based-control §3.2): EqResv when demands are unknown,
 * MaxQuality water-filling over concave quality profiles when they are known, the learner of those profiles, and
 * {@link org.getafix.core.quality.split.PendingQueriesSplit}, either split for a query that starts while others run.
 */
package org.getafix.core.quality.split;
