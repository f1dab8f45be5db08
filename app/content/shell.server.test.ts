import path from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { createContentStore, createDatasetSource, DEFAULT_DATASET_PATH, replaceContentStore } from "./content.server";
import { getShellContent } from "./shell.server";

const store = createContentStore({ source: createDatasetSource(path.resolve(DEFAULT_DATASET_PATH)) });
beforeEach(() => replaceContentStore(store));
afterEach(() => replaceContentStore());

test("the shell shows the business facts of the site settings", async () => {
  const [shell, settings] = await Promise.all([getShellContent(), store.getSiteSettings()]);
  expect(shell).toMatchObject({
    businessName: settings.businessName,
    phone: settings.phone,
    email: settings.email,
    hoursText: settings.hours.display,
    serviceAreas: settings.serviceAreas,
    bookingCalendarUrl: settings.bookingCalendarUrl,
  });
  expect(shell.promises).toEqual(settings.promises.map((promise) => promise.title));
  expect(shell.social.map((link) => link.label)).toEqual(["Facebook", "Instagram", "TikTok", "YouTube"]);
  expect(shell.legalLinks.map((link) => link.href)).toEqual([
    "/terms-of-service",
    "/privacy-policy",
    "/disclaimer",
    "/accessibility",
  ]);
});

test("a social network without a link is left out", async () => {
  const settings = await store.getSiteSettings();
  replaceContentStore({
    ...store,
    getSiteSettings: async () => ({ ...settings, social: { ...settings.social!, tiktok: null } }),
  });
  const shell = await getShellContent();
  expect(shell.social.map((link) => link.network)).toEqual(["facebook", "instagram", "youtube"]);
});
