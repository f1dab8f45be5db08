import type { LoaderFunctionArgs } from "@remix-run/node";
import { embeddedImageSource } from "~/content/images.server";
import { ImageRequestAborted, ImageRequestError, renderEmbeddedImage } from "~/content/image-cdn.server";

/**
 * The bundled dataset's images, with Sanity's image CDN parameters (see image-cdn.server.ts).
 * Asset file names carry the hash of their bytes, so a response never changes: cache it a year.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  try {
    const image = await renderEmbeddedImage(
      embeddedImageSource(),
      params["*"] ?? "",
      url.searchParams,
      request.headers.get("accept"),
      request.signal,
    );
    return new Response(new Uint8Array(image.body), {
      headers: {
        "Content-Type": image.contentType,
        "Content-Length": String(image.body.byteLength),
        "Cache-Control": "public, max-age=31536000, immutable",
        ...(image.negotiated ? { Vary: "Accept" } : {}),
        "X-Content-Type-Options": "nosniff",
      },
    });
  } catch (error) {
    if (error instanceof ImageRequestError) {
      return new Response(error.message, {
        status: error.status,
        headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
      });
    }
    if (error instanceof ImageRequestAborted) {
      // Nobody reads this answer (the client closed the connection); it only ends the request.
      return new Response(null, { status: 499, headers: { "Cache-Control": "no-store" } });
    }
    throw error;
  }
}
