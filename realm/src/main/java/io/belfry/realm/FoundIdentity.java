package io.belfry.realm;

import java.security.Principal;
import java.security.spec.AlgorithmParameterSpec;
import java.util.List;
import org.wildfly.security.auth.SupportLevel;
import org.wildfly.security.auth.server.RealmIdentity;
import org.wildfly.security.authz.AuthorizationIdentity;
import org.wildfly.security.authz.MapAttributes;
import org.wildfly.security.credential.Credential;

/**
 * An identity the realm found (a user or an API token), read for one authentication: it exists, has
 * these roles, and gives out no credential; subclasses say which evidence proves it.
 */
abstract class FoundIdentity implements RealmIdentity {

  private final Principal principal;
  private final List<String> roles;

  FoundIdentity(Principal principal, List<String> roles) {
    this.principal = principal;
    this.roles = roles;
  }

  @Override
  public Principal getRealmIdentityPrincipal() {
    return principal;
  }

  @Override
  public SupportLevel getCredentialAcquireSupport(
      Class<? extends Credential> credentialType,
      String algorithmName,
      AlgorithmParameterSpec parameterSpec) {
    return SupportLevel.UNSUPPORTED;
  }

  @Override
  public <C extends Credential> C getCredential(Class<C> credentialType) {
    return null;
  }

  @Override
  public boolean exists() {
    return true;
  }

  /** The roles as the attribute the security domain's role decoder reads. */
  @Override
  public AuthorizationIdentity getAuthorizationIdentity() {
    MapAttributes attributes = new MapAttributes();
    attributes.addAll(BelfryRealm.ROLES, roles);
    return AuthorizationIdentity.basicIdentity(attributes);
  }
}
