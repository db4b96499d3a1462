/**
 * Budgeted partial answers, mature re-execution and measured answer quality on the Druid Broker. The module is
 * part of the build so that its packaging and dependencies are settled; its issue fills it.
 */
package org.getafix.quality;
