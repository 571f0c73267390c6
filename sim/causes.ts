/**
 * Root causes of world events (SPEC §6 attribution): every event carries the cause of the chain that
 * produced it; effects inherit it, requests carry it to the server and back, timers to their firing.
 */
export const causeWorkload = 0;
export const causeConnection = 1;
export const causeNotification = 2;
export const causeOldNotification = 3;
/** A list_changed notification of the current session (not counted as an update notification). */
export const causeListChanged = 4;
