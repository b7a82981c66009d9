package io.belfry.web.console;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A view for belfry-admins only: {@link AccessControl} sends anyone else to the dashboard before
 * the view is created. The view's actions still check the role ({@link CurrentUser#requireAdmin}).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface AdminOnly {}
