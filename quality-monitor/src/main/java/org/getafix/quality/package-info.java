/**
 * Budgeted partial answers on the Druid Broker: a query that sets {@code getafixBudgetMs} gets, at its deadline, the
 * results of the Historicals that answered in time, merged by the query's toolchest, and a coverage entry in its
 * response context ({@link org.getafix.quality.Coverage}). See docs/configuration.md, "Budgeted queries".
 */
package org.getafix.quality;
