package com.example.billing.web;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The billing REST API under {@code /billing/api}. */
@ApplicationPath("api")
public class BillingApplication extends Application {}
