/**
 * Which queries get a mature re-execution (sampling) and when it runs (Ubora's expiration window and idle rule).
 */
package org.getafix.core.quality.sampling;
