package io.belfry.web.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.belfry.web.foundation.Deployments;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Failed logins throttled per client address (docs/security.md, "Password guessing"): after the
 * limit of requests with wrong credentials from one address, that address is refused with {@code
 * 429} and {@code Retry-After} even with the right password, before any password is checked, while
 * other addresses go on and requests without credentials ({@code /health}) still pass. The test
 * servers raise the limit to {@value #LIMIT} (arquillian.xml) so that the suites' own wrong
 * passwords from 127.0.0.1 never reach it; this test sends from {@value #GUESSER}, an address of
 * the loopback network no other test uses.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class LoginThrottleIT {

  /** belfry.login-throttle.max-failures on the test servers (arquillian.xml). */
  static final int LIMIT = 500;

  static final String GUESSER = "127.0.0.42";

  private static final String ADMIN_BASIC =
      "Basic "
          + Base64.getEncoder()
              .encodeToString("it-admin:it-admin-password".getBytes(StandardCharsets.UTF_8));

  @Deployment(testable = false)
  static WebArchive deployment() {
    return Deployments.belfryWar();
  }

  @ArquillianResource URL base;

  @Test
  void wrongCredentialsFromOneAddress_thatAddressRefused_othersServed() throws Exception {
    for (int i = 1; i < LIMIT; i++) {
      assertThat(status(get(GUESSER, "/api/v1/reminders/default/k", "Bearer bft_wrong-" + i)))
          .as("wrong token %d", i)
          .isEqualTo(401);
    }
    assertThat(status(get(GUESSER, "/api/v1/reminders/default/k", "Basic d3Jvbmc6Z3Vlc3M=")))
        .as("the last failure allowed")
        .isEqualTo(401);

    Answer refused = get(GUESSER, "/api/v1/audit?limit=1", ADMIN_BASIC);
    assertThat(refused.status).as("even the right password, from that address").isEqualTo(429);
    assertThat(Long.parseLong(refused.headers.get("retry-after"))).isBetween(1L, 15 * 60L);
    assertThat(refused.body).contains("urn:belfry:problem:too-many-failed-logins");

    assertThat(status(get(GUESSER, "/api/v1/health", null)))
        .as("no credentials, not gated")
        .isEqualTo(200);
    assertThat(status(get("127.0.0.1", "/api/v1/audit?limit=1", ADMIN_BASIC)))
        .as("another address")
        .isEqualTo(200);

    Path log = Path.of(System.getProperty("jboss.home"), "standalone", "log", "server.log");
    assertThat(Files.readString(log))
        .contains("BELFRY-0613 Address " + GUESSER + " refused for PT15M after " + LIMIT);
  }

  private record Answer(int status, Map<String, String> headers, String body) {}

  private static int status(Answer answer) {
    return answer.status;
  }

  /**
   * A GET from {@code from}: by hand over a socket bound to that address, since the JDK's client
   * cannot choose its source address.
   */
  private Answer get(String from, String path, String authorization) throws IOException {
    String target = base.getPath().replaceAll("/$", "") + path;
    try (Socket socket =
        new Socket(
            InetAddress.getByName(base.getHost()),
            base.getPort(),
            InetAddress.getByName(from),
            0)) {
      OutputStream out = socket.getOutputStream();
      StringBuilder request =
          new StringBuilder("GET " + target + " HTTP/1.1\r\nHost: " + base.getHost() + "\r\n");
      if (authorization != null) {
        request.append("Authorization: ").append(authorization).append("\r\n");
      }
      request.append("Connection: close\r\n\r\n");
      out.write(request.toString().getBytes(StandardCharsets.US_ASCII));
      out.flush();
      BufferedReader in =
          new BufferedReader(
              new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
      int status = Integer.parseInt(in.readLine().split(" ")[1]);
      Map<String, String> headers = new LinkedHashMap<>();
      for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
        int colon = line.indexOf(':');
        headers.put(
            line.substring(0, colon).trim().toLowerCase(), line.substring(colon + 1).trim());
      }
      StringBuilder body = new StringBuilder();
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        body.append(line).append('\n');
      }
      return new Answer(status, headers, body.toString());
    }
  }
}
