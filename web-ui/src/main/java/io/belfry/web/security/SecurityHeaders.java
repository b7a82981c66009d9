package io.belfry.web.security;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Headers on every answer of {@code belfry.war}: the console may not be framed by another page
 * (clickjacking: {@code X-Frame-Options} for older browsers, {@code frame-ancestors} for the
 * others), answers are not content-sniffed, and no URL of the console leaks to other sites as a
 * referrer.
 */
@WebFilter("/*")
public class SecurityHeaders extends HttpFilter {

  private static final long serialVersionUID = 1L;

  @Override
  protected void doFilter(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    response.setHeader("X-Frame-Options", "DENY");
    response.setHeader("Content-Security-Policy", "frame-ancestors 'none'");
    response.setHeader("X-Content-Type-Options", "nosniff");
    response.setHeader("Referrer-Policy", "same-origin");
    chain.doFilter(request, response);
  }
}
