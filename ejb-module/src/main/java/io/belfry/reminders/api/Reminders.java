package io.belfry.reminders.api;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The Java API of Belfry, injected as a CDI bean: set, read, cancel and list durable reminders.
 *
 * <p>Methods without a namespace act in the caller's namespace (that of the calling deployment); a
 * {@link ReminderRequest} whose namespace is {@code null} does too. Fires arrive as {@link
 * ReminderFired} events, qualified with {@link Namespace}.
 *
 * <h2>Contract</h2>
 *
 * <ul>
 *   <li><b>Acknowledged means durable.</b> When {@code set} or {@code cancel} returns, the change
 *       is in the owner's store and replicated.
 *   <li><b>Set replaces.</b> Setting an existing key replaces it with a new, higher version; once
 *       {@code set} returns, the old version never fires (a fire of it already under way when
 *       {@code set} was called may still complete).
 *   <li><b>Invalid changes nothing.</b> A request that breaks a rule throws {@link
 *       InvalidReminderException}, whose violations name each offending field; nothing is stored or
 *       replaced.
 *   <li><b>Cancel of a missing key fails loudly</b> with {@link ReminderNotFoundException}, so a
 *       caller learns when a reminder already fired or never existed.
 *   <li><b>A node cut off from the majority refuses.</b> Every method that touches the store throws
 *       {@link RemindersUnavailableException} when this node is in a minority partition, or when a
 *       membership change does not settle within a few seconds (the engine waits that long first).
 *       Nothing is acknowledged then; a change may or may not have been applied.
 * </ul>
 */
public interface Reminders {

  /**
   * Sets (creates or replaces) the reminder the request describes.
   *
   * @return the stored reminder, with its new version and first fire time
   * @throws InvalidReminderException if the request breaks a rule; nothing changed
   */
  Reminder set(ReminderRequest request);

  /**
   * Like {@link #set}, and tells whether a new reminder was created or a live one replaced (what
   * REST answers with {@code 201} or {@code 200}).
   *
   * @throws InvalidReminderException if the request breaks a rule; nothing changed
   */
  SetOutcome put(ReminderRequest request);

  /**
   * What a {@link #put} did.
   *
   * @param reminder the stored reminder
   * @param created true if no live reminder had this key (none, or only a fired or cancelled one);
   *     false if a live one was replaced and will never fire
   */
  record SetOutcome(Reminder reminder, boolean created) {}

  /** The most reminders one {@link #putAll} sets. */
  int MAX_BATCH = 1000;

  /**
   * Sets up to {@value #MAX_BATCH} reminders, each as {@link #put} would: for loading many at once,
   * their writes issued together so that they share the cluster's round trips. Every request is
   * checked before any is set, so an invalid one changes nothing; violations name the request as
   * {@code reminders[i].field}. Two requests for the same key are refused.
   *
   * <p>Not one transaction: each reminder is stored on its own. If the cluster refuses ({@link
   * RemindersUnavailableException}), each is either set as asked or left as it was; setting the
   * whole list again is safe, since a set replaces.
   *
   * @return what each put did, in the order of the requests
   * @throws InvalidReminderException if any request breaks a rule, or the list is empty or too
   *     long; nothing changed
   */
  List<SetOutcome> putAll(List<ReminderRequest> reminders);

  /**
   * Sets a one-shot reminder firing at {@code at}, with an {@code application/octet-stream} payload
   * ({@code null} for none).
   *
   * @throws InvalidReminderException if key, time or payload break a rule; nothing changed
   */
  Reminder setAt(String key, Instant at, byte[] payload);

  /**
   * Sets a one-shot reminder firing {@code delay} from now, with an {@code
   * application/octet-stream} payload ({@code null} for none).
   *
   * @throws InvalidReminderException if key, delay or payload break a rule; nothing changed
   */
  Reminder setAfter(String key, Duration delay, byte[] payload);

  /**
   * The live reminder under {@code key} in the caller's namespace; empty once it is cancelled or
   * has fired its last occurrence.
   *
   * @throws InvalidReminderException if the key is not a valid key
   */
  Optional<Reminder> get(String key);

  /**
   * Like {@link #get(String)} in {@code namespace}.
   *
   * @throws InvalidReminderException if the namespace or key is not valid
   */
  Optional<Reminder> get(String namespace, String key);

  /**
   * Cancels the reminder under {@code key} in the caller's namespace; once this returns, it never
   * fires.
   *
   * @throws ReminderNotFoundException if no live reminder has this key
   * @throws InvalidReminderException if the key is not a valid key
   */
  void cancel(String key);

  /**
   * Like {@link #cancel(String)} in {@code namespace}.
   *
   * @throws ReminderNotFoundException if no live reminder has this namespace and key
   * @throws InvalidReminderException if the namespace or key is not valid
   */
  void cancel(String namespace, String key);

  /**
   * Sends a dead letter ({@link ReminderStatus#DEAD_LETTER}) again: it becomes pending, due now,
   * with the same fence and a fresh count of attempts. To drop a dead letter instead, {@link
   * #cancel(String, String) cancel} it.
   *
   * @throws ReminderNotFoundException if this namespace and key hold no dead letter
   * @throws InvalidReminderException if the namespace or key is not valid
   */
  void redeliver(String namespace, String key);

  /**
   * One page of the reminders matching {@code query}, in key order, without loading the rest.
   *
   * @throws InvalidReminderException if the query breaks a rule (limit, range, prefix)
   */
  ReminderPage list(ReminderQuery query);

  /**
   * The first {@code count} due times the request would have if it were set now, without setting
   * it: for previews in the console. Fewer when the schedule ends sooner.
   *
   * @throws InvalidReminderException if the request breaks a rule
   */
  List<Instant> preview(ReminderRequest request, int count);
}
