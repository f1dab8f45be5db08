import { createContext, useContext, type ReactNode } from "react";

// The CSP nonce of this request. Only the server knows it; browsers hide it from scripts,
// so on the client the context is empty, which React accepts for the `nonce` attribute.
const NonceContext = createContext<string>("");

export function NonceProvider({ value, children }: { value: string; children: ReactNode }) {
  return <NonceContext.Provider value={value}>{children}</NonceContext.Provider>;
}

export const useNonce = () => useContext(NonceContext);
