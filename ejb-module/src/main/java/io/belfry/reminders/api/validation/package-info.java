/**
 * The Bean Validation constraints of the Belfry API: one annotation and one validator per rule.
 *
 * <p>Messages never repeat the field name: the property path carries it, and {@code
 * InvalidReminderException} shows them together ({@code every: must be at least 100ms}). Messages
 * that quote user input go through {@link io.belfry.reminders.api.validation.Violations#report},
 * which escapes it, because the validator interpolates {@code {…}} and {@code ${…}} in message
 * templates.
 */
package io.belfry.reminders.api.validation;
