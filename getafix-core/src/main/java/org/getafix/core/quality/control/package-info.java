/**
 * The budget controller of the budget-based-control paper (§3.1): response-time estimators (EWMA mean, windowed
 * P90), integral, adaptive (RLS + LQ) and hybrid control of the budget, with bounds and anti-windup.
 */
package org.getafix.core.quality.control;
