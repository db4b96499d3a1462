package org.getafix.localcluster.workload;

/**
 * The native query types the workload sends.
 */
public enum QueryKind
{
  TIMESERIES,
  TOPN,
  GROUP_BY
}
