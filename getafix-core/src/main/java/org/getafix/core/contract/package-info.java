/**
 * The operator-facing contract of Getafix: every knob (name, default, valid range, what it does) and every metric
 * name, written once. Plain Java with no dependency on Druid, Jackson or any other getafix-core package, so that the
 * Druid extensions, getafix-core's algorithms and the simulator all read their defaults, ranges and messages from
 * here.
 */
package org.getafix.core.contract;
