package io.belfry.reminders.placement;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The reminders cache's cluster as one node sees it at one moment: for the REST API and the
 * console.
 *
 * @param node this node's name
 * @param coordinator the member that coordinates the cluster view
 * @param members every member, coordinator first
 * @param segmentOwners for each segment, in order, the name of its primary owner
 * @param pendingByNamespace live reminders per namespace, in namespace order
 */
public record ClusterSnapshot(
    String node,
    String coordinator,
    List<Member> members,
    List<String> segmentOwners,
    Map<String, Long> pendingByNamespace) {

  /**
   * One member.
   *
   * @param name the member's node name
   * @param primarySegments how many segments it is primary owner of
   * @param armedReminders how many live (not yet fired or cancelled) reminders fall in its
   *     segments: the ones it arms, whichever namespaces its deployments serve
   */
  public record Member(String name, int primarySegments, long armedReminders) {}

  public ClusterSnapshot {
    members = List.copyOf(members);
    segmentOwners = List.copyOf(segmentOwners);
    pendingByNamespace = Collections.unmodifiableMap(new TreeMap<>(pendingByNamespace));
  }

  public int totalSegments() {
    return segmentOwners.size();
  }
}
