/**
 * The HTTP formats Getafix processes exchange, each defined once and shared by producer and consumer. getafix-core
 * is bundled into every Getafix extension, so these plain records are the contract; Druid's Jackson (2.12) reads and
 * writes records without annotations. Each format also validates what a peer of another version may send.
 */
package org.getafix.core.wire;
