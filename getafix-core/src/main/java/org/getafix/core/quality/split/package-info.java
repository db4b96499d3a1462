/**
 * How a budget is split among pending queries (budget-based-control §3.2): EqResv when demands are unknown,
 * MaxQuality water-filling over concave quality profiles when they are known, and the learner of those profiles.
 */
package org.getafix.core.quality.split;
