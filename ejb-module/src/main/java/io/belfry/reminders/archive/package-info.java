/**
 * The node's archive, shared by every deployment on the node.
 *
 * <p>The audit archive and the sink configuration live in the audit module ({@code
 * belfry-persistence}), which {@code belfry.war} bundles and an application WAR built from the user
 * guide does not. So that an application's namespaces are still archived and forwarded, the
 * deployment that has the audit module publishes it to the whole node as a platform MBean, {@value
 * NodeArchive#OBJECT_NAME}, and a deployment without one sends its activity there.
 *
 * <p>Why an MBean: deployments have separate class loaders, so no Belfry type can cross between
 * them; an MBean is called by name with JDK types only ({@link ActivityCodec}), needs no server
 * module and no extra line in the application's manifest, and the platform MBean server is there in
 * every JVM. Why not feed the archive from the replicated cache's changes instead: fires that fail,
 * skips and deliveries never reach the cache, and every node would see every change.
 */
package io.belfry.reminders.archive;
