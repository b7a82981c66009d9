package io.belfry.realm;

/**
 * How {@code belfry.war} tells this node's realm about revoked tokens (the WAR depends on module
 * {@code io.belfry.realm}, so both see the same {@link KnownTokens#NODE}). Until the WAR says it
 * listens, the realm remembers no token and queries the table on every request, as it did before
 * tokens were remembered.
 */
public final class TokenRevocations {

  private TokenRevocations() {}

  /**
   * What the table stores of a token and what revocations name it by: its SHA-256, lowercase hex.
   * One definition for the realm and the WAR, which writes the rows and announces revocations.
   */
  public static String hashOf(String token) {
    return TokenRows.hash(token);
  }

  /** The WAR's listener is registered on this node ({@code true}) or is going away. */
  public static void listening(boolean listening) {
    KnownTokens.NODE.listening(listening);
  }

  /** A token was revoked on some node: {@code tokenHash} is its SHA-256, lowercase hex. */
  public static void revoked(String tokenHash) {
    KnownTokens.NODE.forget(tokenHash);
  }

  /** The cluster's members changed (a join, a leave, a merge): forget every token. */
  public static void membersChanged() {
    KnownTokens.NODE.forgetAll();
  }
}
