package io.belfry.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.web.console.Browser;
import java.net.URL;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console's cluster view, open on node 1 in headless Chromium while a test makes nodes leave
 * and join: it must follow them without a reload. Where Debian's chromium is not installed (.ci/run
 * installs it) the view is not opened, the test goes on without it and says so.
 */
final class ConsoleClusterView implements AutoCloseable {

  private final Browser browser;
  private final int size;

  private ConsoleClusterView(Browser browser, int size) {
    this.browser = browser;
    this.size = size;
  }

  /** Logs in as the admin, opens the cluster view and waits until it shows every node. */
  static ConsoleClusterView openIfPossible(ClusterNodes cluster) throws Exception {
    if (!Browser.available()) {
      System.out.println(
          "console checks skipped: needs Debian's chromium and chromium-driver; .ci/run installs"
              + " them");
      return new ConsoleClusterView(null, cluster.size());
    }
    Browser browser = new Browser(new URL(cluster.consoleUrl(1)));
    try {
      browser.login(ClusterNodes.ADMIN, ClusterNodes.ADMIN_PASSWORD);
      browser.open("cluster");
      ConsoleClusterView view = new ConsoleClusterView(browser, cluster.size());
      view.awaitWith("node" + cluster.size());
      browser.screenshot("cluster-all-nodes");
      return view;
    } catch (Exception | AssertionError e) {
      browser.close();
      throw e;
    }
  }

  /** Waits until the view counts one node fewer and no segment shows {@code node} as its owner. */
  void awaitWithout(String node) throws Exception {
    if (browser == null) {
      return;
    }
    browser.awaitText((size - 1) + " node(s)");
    new WebDriverWait(browser.driver, Browser.WAIT).until(d -> !ownersShown().contains(node));
    browser.screenshot("cluster-" + node + "-left");
  }

  /** Waits until the view counts every node and some segment shows {@code node} as its owner. */
  void awaitWith(String node) throws Exception {
    if (browser == null) {
      return;
    }
    browser.awaitText(size + " node(s)");
    new WebDriverWait(browser.driver, Browser.WAIT).until(d -> ownersShown().contains(node));
    assertThat(ownersShown()).as("every node owns segments").hasSize(size);
    browser.screenshot("cluster-" + node + "-in");
  }

  /** The distinct owners of the 256 segments in the strip, as the page shows them now. */
  @SuppressWarnings("unchecked")
  private Set<String> ownersShown() {
    return new HashSet<>(
        (List<String>)
            browser.js(
                "return Array.from(document.querySelectorAll('#segments > div'))"
                    + ".map(d => d.getAttribute('data-owner'))"));
  }

  @Override
  public void close() {
    if (browser != null) {
      browser.close();
    }
  }
}
