/**
 * Realising a plan: given where a segment's replicas are and where the plan wants them, how many replicas the
 * segment should have, which loads and drops to issue within a round's churn budget, and in what order. Plain Java
 * over server names; the extension's getafix rule and balancer strategy and the simulator's load queues call it.
 */
package org.getafix.core.realise;
