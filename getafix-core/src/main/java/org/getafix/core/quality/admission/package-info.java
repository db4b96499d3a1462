/**
 * Admission control of low-priority queries guided by high-priority answer quality (Ubora §8), acting once per time
 * window, with the timeout-rate controller Ubora compares against as a baseline.
 */
package org.getafix.core.quality.admission;
