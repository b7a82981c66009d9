package com.example.cart;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The cart's REST API under {@code /cart/api}. */
@ApplicationPath("api")
public class CartApplication extends Application {}
