/**
 * Answer quality of budgeted (partial) Druid answers, with no Druid types: {@link org.getafix.core.quality.AnswerRow}
 * is the Druid-free row the Broker glue converts results to, and {@link org.getafix.core.quality.QueryType#measure}
 * compares an online answer with its mature re-execution (Ubora). Sub-packages: {@code control} (the budget
 * controller of the budget-based-control paper), {@code split} (EqResv, MaxQuality, learned quality profiles),
 * {@code admission} (quality- and timeout-guided admission control), {@code sampling} (which queries get a mature
 * run, and when it runs). docs/quality.md describes each metric and controller.
 */
package org.getafix.core.quality;
