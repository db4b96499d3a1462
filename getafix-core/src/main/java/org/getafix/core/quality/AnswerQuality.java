package org.getafix.core.quality;

/**
 * How close an online (budgeted, possibly partial) answer came to the mature (complete) answer of the same query.
 * Every score is in [0, 1] and never NaN; 1 means the online answer was as good as the mature one.
 *
 * @param quality       the headline score for the query type (see {@link QueryType}); what admission control and
 *                      the quality profiles consume
 * @param rowRecall     true-positive rate: the fraction of mature rows (groups, top-N entries, buckets, scanned
 *                      rows) that the online answer also has. Both answers empty: 1. Mature empty but online not: 0
 * @param valueAccuracy 1 − the mean bounded relative error of the metric values (see
 *                      {@link AnswerQualityMetrics#boundedRelativeError}); 1 when there was no value to compare
 * @param onlineRows    rows in the online answer
 * @param matureRows    rows in the mature answer
 * @param matchedRows   mature rows matched by an online row with the same identity
 */
public record AnswerQuality(
    double quality,
    double rowRecall,
    double valueAccuracy,
    int onlineRows,
    int matureRows,
    int matchedRows
)
{
}
