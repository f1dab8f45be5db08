/**
 * What a queued change's send answers (docs/decisions/127), shared by the server and the phone's
 * queue script, which shows `message` beside the change when it was not applied.
 */
export const OFFLINE_INTENTS = ["complete", "miss", "notes", "photo"] as const;
export type OfflineIntentName = (typeof OFFLINE_INTENTS)[number];

export type OfflineOutcome = "applied" | "conflict" | "refused" | "invalid" | "sign-in";
export type OfflineAnswer = { outcome: OfflineOutcome; message: string };

export const OFFLINE_MESSAGES = {
  conflict: "The office changed this visit while you were offline, so your change was not applied. Check the visit.",
  notAllowed: "This visit changed while you were offline (it is no longer open), so your change was not applied.",
  refused: "You can no longer change this visit, so your change was not applied.",
  signIn: "Sign in again to send your changes.",
  invalid: "That change could not be read, so it was not applied.",
  photoFailed: "The photo could not be stored, so it was not applied.",
  notesSaved: "Notes saved",
  photoSaved: "Photo uploaded",
} as const;
