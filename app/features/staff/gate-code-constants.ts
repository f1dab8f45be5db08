/** The visit page's "Show gate code" form (decision 128): shared by its form and its action. */
export const GATE_CODE_INTENT = "show-gate-code";

export const GATE_CODE_MESSAGES = {
  shown: "Gate code shown. Each view is recorded for the owner.",
  notToday: "A gate code shows only on the day of the visit.",
  none: "This yard has no gate code on file.",
} as const;
