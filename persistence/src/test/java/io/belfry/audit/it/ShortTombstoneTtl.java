package io.belfry.audit.it;

import io.belfry.reminders.config.BelfrySettings;
import org.jboss.as.arquillian.api.ServerSetupTask;
import org.jboss.as.arquillian.container.ManagementClient;
import org.jboss.as.controller.client.helpers.Operations;
import org.jboss.dmr.ModelNode;

/**
 * Sets {@code belfry.tombstone-ttl} to {@link #TTL} on the server before the test deployment starts
 * (its engine reads the setting then) and removes it afterwards, through the management API.
 */
public class ShortTombstoneTtl implements ServerSetupTask {

  static final String TTL = "PT1S";

  private static final ModelNode PROPERTY =
      Operations.createAddress("system-property", BelfrySettings.TOMBSTONE_TTL);

  @Override
  public void setup(ManagementClient client, String containerId) throws Exception {
    ModelNode add = Operations.createAddOperation(PROPERTY);
    add.get("value").set(TTL);
    execute(client, add);
  }

  @Override
  public void tearDown(ManagementClient client, String containerId) throws Exception {
    execute(client, Operations.createRemoveOperation(PROPERTY));
  }

  private static void execute(ManagementClient client, ModelNode operation) throws Exception {
    ModelNode result = client.getControllerClient().execute(operation);
    if (!Operations.isSuccessfulOutcome(result)) {
      throw new IllegalStateException(Operations.getFailureDescription(result).asString());
    }
  }
}
