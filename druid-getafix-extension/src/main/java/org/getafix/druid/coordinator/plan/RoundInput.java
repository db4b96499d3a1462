package org.getafix.druid.coordinator.plan;

import org.getafix.core.placement.capacity.NodeSample;
import org.getafix.core.placement.popularity.SegmentSample;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one round read from Druid, in getafix-core's terms.
 *
 * @param holders          segment id → the live Historicals of the tier serving it, for the segments Getafix governs
 * @param segments         those segments
 * @param nodes            the tier's live Historicals
 * @param statsMissing     Historical → why it gave no usable stats this round (it keeps its last estimate)
 * @param statsImplausible Historical → the field at fault, for those whose report was received but implausible
 * @param measured         whether some Historical's stats covered a round (a first report only sets a baseline)
 */
public record RoundInput(
    Map<String, Set<String>> holders,
    List<SegmentSample> segments,
    List<NodeSample> nodes,
    Map<String, String> statsMissing,
    Map<String, String> statsImplausible,
    boolean measured
)
{
}
