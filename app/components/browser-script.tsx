import { useNonce } from "~/utils/nonce";

/**
 * A page's plain browser script (decision 068), from `browserScriptUrl()` in its loader. A
 * module script runs once the HTML is parsed; it is never executed when React renders it during
 * a client-side navigation (React inserts script elements inert), so the form it enhances then
 * simply works as it does without JavaScript. It carries the response's nonce like every script
 * of the page ('self' allows it anyway).
 */
export function BrowserScript({ src }: { src: string | null | undefined }) {
  const nonce = useNonce();
  return src ? <script type="module" src={src} nonce={nonce} /> : null;
}
