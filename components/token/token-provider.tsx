"use client";
// Holds the user's API token for this tab (sessionStorage) or, if they ask, for this browser
// (localStorage). Exposes an epoch that changes with the token, for query keys.
import { useQueryClient } from "@tanstack/react-query";
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import type { Session } from "@/lib/api-client";

const STORAGE_KEY = "datastore-explorer.token";

type TokenContextValue = {
  session: Session;
  /** False until the stored token has been read, so no request goes out without it. */
  ready: boolean;
  remembered: boolean;
  setToken: (token: string, remember: boolean) => void;
  forgetToken: () => void;
};

const TokenContext = createContext<TokenContextValue | null>(null);

function readStored(): { token: string | null; remembered: boolean } {
  try {
    const local = window.localStorage.getItem(STORAGE_KEY);
    if (local) return { token: local, remembered: true };
    return { token: window.sessionStorage.getItem(STORAGE_KEY), remembered: false };
  } catch {
    return { token: null, remembered: false };
  }
}

function writeStored(token: string | null, remember: boolean) {
  try {
    window.localStorage.removeItem(STORAGE_KEY);
    window.sessionStorage.removeItem(STORAGE_KEY);
    if (token) (remember ? window.localStorage : window.sessionStorage).setItem(STORAGE_KEY, token);
  } catch {
    // storage disabled: the token still works until the tab closes
  }
}

export function TokenProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [state, setState] = useState({ token: null as string | null, remembered: false, epoch: 0, ready: false });
  const epochRef = useRef(0);

  useEffect(() => {
    const stored = readStored();
    epochRef.current = 1;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- storage is only readable after mount
    setState({ ...stored, epoch: 1, ready: true });
  }, []);

  const replace = useCallback(
    (token: string | null, remembered: boolean) => {
      writeStored(token, remembered);
      // data read with the old token must not outlive it
      queryClient.removeQueries({ queryKey: ["datastore", epochRef.current] });
      epochRef.current += 1;
      setState({ token, remembered, epoch: epochRef.current, ready: true });
    },
    [queryClient],
  );

  const value = useMemo<TokenContextValue>(
    () => ({
      session: { token: state.token, epoch: state.epoch },
      ready: state.ready,
      remembered: state.remembered,
      setToken: (token, remember) => replace(token.trim() || null, remember),
      forgetToken: () => replace(null, false),
    }),
    [state, replace],
  );

  return <TokenContext.Provider value={value}>{children}</TokenContext.Provider>;
}

export function useToken(): TokenContextValue {
  const value = useContext(TokenContext);
  if (!value) throw new Error("useToken outside TokenProvider");
  return value;
}
