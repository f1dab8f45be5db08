import { expect, test, type Locator, type Page } from "@playwright/test";
import { bundledDocuments } from "../helpers/bundled-dataset";
import { expectNoAxeViolations, waitForHydration } from "./helpers";

/**
 * The Before & After gallery and the home page's pictures, against the bundled dataset: every
 * picture comes from the embedded image route, the comparison slider works by keyboard and
 * pointer, and without JavaScript the two pictures of a pair stand side by side.
 */

const pairs = bundledDocuments()
  .filter((doc) => doc._type === "beforeAfter" && doc.customerConsent === true)
  .sort((a, b) => Number(a.order) - Number(b.order)) as unknown as {
  caption: string;
  before: { alt: string };
  after: { alt: string };
}[];

/** Every <img> of the page has loaded real pixels (no broken image). */
async function expectAllImagesLoaded(page: Page) {
  await page.evaluate(async () => {
    const images = [...document.images];
    for (const image of images) image.loading = "eager";
    await Promise.all(images.map((image) => (image.complete ? null : image.decode().catch(() => null))));
  });
  const broken = await page.evaluate(() =>
    [...document.images].filter((image) => !image.complete || image.naturalWidth === 0).map((image) => image.src),
  );
  expect(broken).toEqual([]);
}

/** The share of the "before" picture the divider shows, read from the clip the slider applies. */
const position = (slider: Locator) =>
  slider.evaluate((input) => (input.parentElement as HTMLElement).style.getPropertyValue("--position"));

test.describe("with JavaScript", () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test("the gallery lists every published pair with its caption and both pictures", async ({ page }) => {
    await page.goto("/gallery");
    await expect(page.getByRole("heading", { level: 1, name: "Before & After" })).toBeVisible();
    for (const pair of pairs) {
      await expect(page.getByRole("heading", { name: pair.caption })).toBeVisible();
      await expect(page.getByAltText(pair.before.alt)).toHaveCount(1);
      await expect(page.getByAltText(pair.after.alt)).toHaveCount(1);
    }
    await expect(page.getByRole("slider", { name: "Compare before and after" })).toHaveCount(pairs.length);
    await expectAllImagesLoaded(page);
    const sources = await page.evaluate(() =>
      [...document.querySelectorAll("main img")].map((image) => (image as HTMLImageElement).currentSrc),
    );
    expect(sources).toHaveLength(pairs.length * 2);
    for (const source of sources) expect(source).toContain("/resources/image-cdn/images/");
    await expectNoAxeViolations(page, "on /gallery");
  });

  test("the slider moves by keyboard: arrows step, Home and End go to the ends", async ({ page }) => {
    await page.goto("/gallery");
    await waitForHydration(page);
    const slider = page.getByRole("slider", { name: "Compare before and after" }).first();
    await expect(slider).toHaveValue("50");
    expect(await position(slider)).toBe("50%");

    await slider.focus();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await expect(slider).toHaveValue("52");
    expect(await position(slider)).toBe("52%");
    await expect(slider).toHaveAttribute("aria-valuetext", "52% before, 48% after");

    await page.keyboard.press("ArrowLeft");
    await expect(slider).toHaveValue("51");

    await page.keyboard.press("End");
    await expect(slider).toHaveValue("100");
    expect(await position(slider)).toBe("100%");

    await page.keyboard.press("Home");
    await expect(slider).toHaveValue("0");
    expect(await position(slider)).toBe("0%");

    // The visible handle carries the focus ring of the invisible input.
    const ring = await slider.evaluate((input) => getComputedStyle(input.nextElementSibling as Element).boxShadow);
    expect(ring).not.toBe("none");
  });

  test("the slider follows a click on the picture", async ({ page }) => {
    await page.goto("/gallery");
    await waitForHydration(page);
    const slider = page.getByRole("slider", { name: "Compare before and after" }).first();
    const box = await slider.boundingBox();
    if (!box) throw new Error("slider has no box");
    await page.mouse.click(box.x + box.width * 0.25, box.y + box.height / 2);
    const value = Number(await slider.inputValue());
    expect(value).toBeGreaterThan(15);
    expect(value).toBeLessThan(35);
    expect(await position(slider)).toBe(`${value}%`);
  });

  test("the home page shows three pairs, a link to the gallery and a preloaded, sized hero picture", async ({
    page,
  }) => {
    await page.goto("/");
    await expect(page.getByRole("slider", { name: "Compare before and after" })).toHaveCount(Math.min(3, pairs.length));
    await expect(page.getByRole("link", { name: "See the whole gallery" })).toHaveAttribute("href", "/gallery");
    await expect(page.getByRole("contentinfo").getByRole("link", { name: "Before & After" })).toHaveAttribute(
      "href",
      "/gallery",
    );

    const preload = page.locator('head link[rel="preload"][as="image"]');
    await expect(preload).toHaveCount(1);
    const hero = page.locator("main img").first();
    await expect(hero).toHaveAttribute("loading", "eager");
    await expect(hero).toHaveAttribute("fetchpriority", "high");
    await expect(hero).toHaveAttribute("width", "720");
    await expect(hero).toHaveAttribute("height", "540");
    expect(await preload.getAttribute("imagesrcset")).toBe(await hero.getAttribute("srcset"));
    // Below the fold, pictures wait until they are needed.
    const lazy = await page.locator("main img[loading=lazy]").count();
    expect(lazy).toBeGreaterThanOrEqual(6);
    await expectAllImagesLoaded(page);
  });

  test("the gallery is in the sitemap", async ({ request }) => {
    const sitemap = await (await request.get("/sitemap.xml")).text();
    expect(sitemap).toMatch(/<loc>[^<]*\/gallery<\/loc>/);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });

  test("the two pictures of a pair stand side by side, labelled, and no slider is offered", async ({ page }) => {
    await page.goto("/gallery");
    await expect(page.getByRole("slider")).toHaveCount(0);
    const before = page.getByAltText(pairs[0].before.alt);
    const after = page.getByAltText(pairs[0].after.alt);
    const [beforeBox, afterBox] = [await before.boundingBox(), await after.boundingBox()];
    if (!beforeBox || !afterBox) throw new Error("pictures not rendered");
    expect(afterBox.x).toBeGreaterThanOrEqual(beforeBox.x + beforeBox.width);
    expect(Math.abs(afterBox.y - beforeBox.y)).toBeLessThan(2);
    await expect(page.getByText("Before", { exact: true }).first()).toBeVisible();
    await expect(page.getByText("After", { exact: true }).first()).toBeVisible();
  });
});
